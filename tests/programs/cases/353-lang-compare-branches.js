// Comparisons in conditions and loops: numbers (integers, doubles, NaN,
// -0, large integers), mixed types, valueOf order, results kept in a variable.
const vals = [0, -0, 1, -1, 2.5, NaN, Infinity, -Infinity, 2 ** 47, 2 ** 47 + 1, -(2 ** 47), 2 ** 53, '2', '10', 'a', null, undefined, true];
const ops = [(a, b) => a < b, (a, b) => a > b, (a, b) => a <= b, (a, b) => a >= b,
    (a, b) => a == b, (a, b) => a != b, (a, b) => a === b, (a, b) => a !== b];
const table = [];
for (const a of vals) {
    let row = '';
    for (const b of vals) for (const op of ops) row += op(a, b) ? '1' : '0';
    table.push(row);
}
const branches = [];
for (const a of vals) for (const b of vals) {
    if (a < b) branches.push('lt'); else if (a >= b) branches.push('ge'); else branches.push('none');
    while (a === b && branches.length % 2 === 0) { branches.push('eq'); }
}
const order = [];
const o = (n) => ({ valueOf() { order.push(n); return n; } });
if (o(1) < o(2)) order.push('then');
if (!(o(3) >= o(4))) order.push('else');
let n = 0, big = 2 ** 47 - 3;
for (let i = 0; i < 10; i++) { if ((i & 3) === 1) n++; }
for (let x = big; x < 2 ** 47 + 3; x++) n += 10;
let y = 0.5; while (y < 4) y *= 2;
const kept = 3 < 4, kept2 = NaN !== NaN;
let down = 5, steps = 0; do { steps++; } while (--down > 0);
return { table, branches: branches.join(','), order, n, y, kept, kept2, steps };
