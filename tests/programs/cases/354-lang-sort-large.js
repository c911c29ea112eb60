// Sorting arrays longer than the engine's sort block (2048) with a
// comparator: stable for equal keys, exact at block edges, and intact after
// a comparator that throws midway.
const sizes = [2047, 2048, 2049, 4096, 5000, 9001];
const out = {};
for (const n of sizes) {
    const a = Array.from({ length: n }, (_, i) => ({ k: (i * 7919) % 97, id: i }));
    a.sort((x, y) => x.k - y.k);
    let stable = true;
    for (let i = 1; i < n; i++) if (a[i - 1].k > a[i].k || (a[i - 1].k === a[i].k && a[i - 1].id > a[i].id)) stable = false;
    out[n] = [stable, a[0].id, a[n >> 1].id, a[n - 1].id];
}
const b = Array.from({ length: 6000 }, (_, i) => ({ id: i, v: (i * 31) % 1000 }));
let calls = 0, caught = null;
try {
    b.sort((x, y) => { if (++calls === 30000) throw new Error('stop at ' + calls); return x.v - y.v; });
} catch (e) { caught = e.message; }
const ids = b.map((x) => x.id).sort((x, y) => x - y);
out.afterThrow = [caught, b.length, ids.every((x, i) => x === i)];
const c = Array.from({ length: 3000 }, (_, i) => 3000 - i);
out.numbers = c.sort((x, y) => x - y).slice(0, 3).concat(c.slice(-2));
const d = Array.from({ length: 2500 }, (_, i) => 'w' + ((i * 13) % 2500));
d.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
out.strings = [d[0], d[1], d[2499]];
return out;
