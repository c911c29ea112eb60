const f = (a, b = a * 2, ...rest) => [a, b, rest.length];
[f(1), f(1, 5, 7, 8)]
