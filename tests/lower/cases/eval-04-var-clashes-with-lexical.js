// a var or function declared by a direct eval that redeclares a let/const/class
// around the call (or a parameter, from a parameter default) is a SyntaxError
const out = [];
function g() { let x; try { eval('var x;'); out.push('no error'); } catch (e) { out.push(e.name); } }
g();
const h = (a = eval('var a = 42')) => a;
try { h(); out.push('no error'); } catch (e) { out.push(e.name); }
function k() { let y = 1; { eval('var z = 2;'); } return [y, z]; }
out.push(k().join());
function m(p) { eval('var p = 5;'); return p; }
out.push(m(1));
function n2() { { let q; } eval('var q = 3; function r() {}'); return q; }
out.push(n2());
function c() { try { throw 1; } catch (e) { eval('var e = 2;'); return e; } }
out.push(c());
function fdecl() { const f = 1; try { eval('function f() {}'); } catch (e) { return e.name; } }
out.push(fdecl());
console.log(out.join('|'), eval('let t = 4; t * 2'));
