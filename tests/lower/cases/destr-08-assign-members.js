const o = {};
[o.a, o['b']] = [1, 2];
({ c: o.c } = { c: 3 });
o
