const o = { a: { b: 1 } };
const n = null;
[delete o?.a.b, o.a, delete n?.x]
