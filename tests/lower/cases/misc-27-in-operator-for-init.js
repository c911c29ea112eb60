const obj = { a: 1 };
let count = 0;
for (const k of ['a', 'b']) if (k in obj) count++;
count
