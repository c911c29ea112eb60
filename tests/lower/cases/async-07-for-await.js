async function* agen() { yield 1; await null; yield 2; }
const out = [];
for await (const x of agen()) out.push(x);
for await (const y of [Promise.resolve('p'), 'q']) out.push(y);
out
