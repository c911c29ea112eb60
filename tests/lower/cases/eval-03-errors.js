// syntax errors in evaluated code are SyntaxErrors; eval of a non-string returns it
const out = [];
try { eval('let = = 1'); } catch (e) { out.push(e.name); }
try { new Function('a', 'return a +'); } catch (e) { out.push(e.name); }
out.push(eval(42), typeof eval({}), eval('var q = 3; q * 2'), eval(''));
out.push(eval('class A { #p = 4; get p() { return this.#p; } } new A().p'));
out
