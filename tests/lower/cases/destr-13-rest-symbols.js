const s = Symbol('s');
const { a, ...r } = { a: 1, b: 2, [s]: 3 };
[a, r.b, r[s]]
