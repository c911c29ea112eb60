// a for-of (and for await) as the body of an if, else or loop, without braces
var x = false, n = 0;
if (x) for (var a of [1, 2]) n++;
while (false) for (const b of [1]) n += 10;
if (x) for (const c of new Set([1])) n += 100; else n += 1000;
for (const d of [1, 2]) if (d > 1) for (const e of new Set([d])) n += e;
async function f() { let m = 0; if (x) for await (const g of [1]) m++; return m; }
label: for (const h of new Set([1, 2])) { for (const i of [1]) { if (h === 1) continue label; n += 5; } }
console.log(n, await f());
