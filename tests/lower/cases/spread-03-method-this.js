const o = { base: 10, add(...xs) { return this.base + xs.length; } };
o.add(...[1, 2, 3])
