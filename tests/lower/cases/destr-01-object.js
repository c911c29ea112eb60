const { a, b: { c }, d = 4, ...rest } = { a: 1, b: { c: 3 }, e: 5, f: 6 };
[a, c, d, rest]
