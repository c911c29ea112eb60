const m = new Map([['a', 1], ['b', 2]]);
const r = [];
for (const [k, v] of m) r.push(k + v);
for (const x of new Set([7, 8])) r.push(x);
r
