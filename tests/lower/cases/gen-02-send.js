function* acc() { let total = 0; while (true) { const v = yield total; if (v === undefined) return total; total += v; } }
const g = acc();
g.next(); g.next(5); g.next(10);
[g.next().value]
