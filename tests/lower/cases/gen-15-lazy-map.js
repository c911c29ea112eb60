function* map(it, f) { for (const x of it) yield f(x); }
function* take(it, n) { if (n <= 0) return; for (const x of it) { yield x; if (--n <= 0) return; } }
function* nat() { let i = 1; while (true) yield i++; }
[...take(map(nat(), x => x * x), 4)]
