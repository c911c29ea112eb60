const A = [[1, 2], [3, 4], [5, 6]];
const B = [[7, 8, 9], [10, 11, 12]];
const transpose = (m) => m[0].map((_, c) => m.map((row) => row[c]));
const multiply = (x, y) => x.map((row) => transpose(y).map((col) => row.reduce((s, v, i) => s + v * col[i], 0)));
const identity = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => +(i === j)));
const det2 = ([[a, b], [c, d]]) => a * d - b * c;
const C = multiply(A, B);
console.log(C.map((r) => r.map((v) => String(v).padStart(4)).join("")).join("\n"));
return { C, T: transpose(A), I: identity(3), det: det2([[3, 8], [4, 6]]), trace: C.reduce((s, r, i) => s + r[i], 0) };
