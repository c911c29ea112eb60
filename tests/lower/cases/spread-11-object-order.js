const o = { a: 1, b: 2 };
Object.keys({ b: 0, ...o, c: 3 })
