async function* g() { try { yield 1; yield 2; } finally { await null; } }
const it = g();
const a = await it.next();
const b = await it.return('R');
const c = await it.next();
[a, b, c]
