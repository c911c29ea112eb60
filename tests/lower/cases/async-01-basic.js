async function double(x) { await null; return x * 2; }
const r = await double(21);
r
