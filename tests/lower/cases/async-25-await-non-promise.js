const v = await 42;
const w = await undefined;
[v, w]
