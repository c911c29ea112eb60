// Own string keys iterate in insertion order.
const o = {};
o.zeta = 1;
o.alpha = 2;
o.mid = 3;
delete o.alpha;
o.alpha = 4;
const keys = Object.keys(o);
const forIn = [];
for (const k in o) forIn.push(k);
const fromEntries = Object.keys(Object.fromEntries([["b", 1], ["a", 2]]));
const spread = Object.keys({ ...{ q: 1 }, ...{ p: 2, q: 3 } });
return { keys, forIn, fromEntries, spread, json: JSON.stringify(o) };
