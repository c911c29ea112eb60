const o = { *items() { yield* Object.keys(this); }, a: 1, b: 2 };
class T { *gen() { yield this.v; } constructor() { this.v = 'tv'; } }
[[...o.items()], [...new T().gen()]]
