class Counter { constructor() { this.n = 0; } incAll(xs) { xs.forEach(x => { this.n += x; }); return this.n; } }
new Counter().incAll([1, 2, 3])
