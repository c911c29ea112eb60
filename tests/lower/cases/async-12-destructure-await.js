const { a, b: [c] } = await Promise.resolve({ a: 1, b: [2] });
const [d = await Promise.resolve(4)] = [];
[a, c, d]
