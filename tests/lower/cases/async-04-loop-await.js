const sleep0 = (v) => new Promise(r => setTimeout(() => r(v), 1));
let total = 0;
for (const x of [1, 2, 3]) total += await sleep0(x);
for (let i = 0; i < 2; i++) { const v = await sleep0(i); total += v; }
total
