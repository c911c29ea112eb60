const o = { a: null, b: 0, c: 1 };
let calls = 0;
const v = () => { calls++; return 'v'; };
o.a ??= v(); o.b ??= v(); o.b ||= v(); o.c &&= v(); o.d ||= v();
let x = null; x ??= 5; let y = 1; y &&= 0;
[o, calls, x, y]
