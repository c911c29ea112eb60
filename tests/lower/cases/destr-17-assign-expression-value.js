let a, b;
const res = [a, b] = [1, 2, 3];
[a, b, res]
