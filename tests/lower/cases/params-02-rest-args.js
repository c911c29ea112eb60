function f(a, ...rest) { return [a, rest, arguments.length]; }
f(1, 2, 3)
