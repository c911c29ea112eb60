function* g() { yield 1; yield 2; }
const it = g(); it.next();
let caught;
try { it.throw(new Error('boom')); } catch (e) { caught = e.message; }
[caught, it.next()]
