function* g() { try { yield 1; } finally { yield 'cleanup'; } }
const it = g(); it.next();
[it.return('r'), it.next(), it.next()]
