const o = { a: 1 };
let r = [];
for (var k = ('a' in o) ? 1 : 0; k < 3; k++) r.push(k);
r
