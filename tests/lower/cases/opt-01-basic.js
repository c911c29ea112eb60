const o = { a: { b: { c: 1 } }, n: null };
[o?.a?.b?.c, o.n?.b, o.x?.y.z, o.a?.['b']?.c]
