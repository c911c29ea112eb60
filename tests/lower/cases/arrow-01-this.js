const o = { v: 42, get() { return [1, 2].map(x => this.v + x); } };
o.get()
