function* g() { try { yield 1; } catch (e) { yield 'caught ' + e; } }
const it = g(); it.next();
[it.throw('err').value, it.next().done]
