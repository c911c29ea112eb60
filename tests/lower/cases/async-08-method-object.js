const o = { v: 3, async get() { await null; return this.v; } };
await o.get()
