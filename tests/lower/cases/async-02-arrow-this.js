class Svc { constructor() { this.base = 100; } async run(xs) { return Promise.all(xs.map(async x => { await null; return this.base + x; })); } }
await new Svc().run([1, 2])
