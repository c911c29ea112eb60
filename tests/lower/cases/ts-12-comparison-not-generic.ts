const a = 1, b = 2, c = 3;
const r1 = a < b;
const r2 = b > c;
const r3 = a < b && b > a;
[r1, r2, r3]
