const base = { a: 1, b: 2 };
const o = { ...base, b: 3, ...{ c: 4 }, ...null, ...'hi' };
o
