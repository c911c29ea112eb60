// Integer loops at the edges of the engine's integer fast path: sums and
// counters past 2^47 and 2^53, -0, NaN, bitwise operators and shifts on large
// and negative values, a loop variable that becomes a string or a double
// mid-loop, a register that held a string, comparisons kept in variables.
const out = {};
let s = 2 ** 47 - 5, steps = 0;
for (let i = 0; i < 10; i++) { s += 1; steps++; }
out.past47 = [s, s - 2 ** 47, steps];
let d = -(2 ** 47) + 3;
for (let i = 0; i < 6; i++) d--;
out.below47 = [d, d + 2 ** 47];
let big = 2 ** 53 - 4;
for (let i = 0; i < 8; i++) big += 1;
out.past53 = [big, big - 2 ** 53];
let m = 2 ** 46;
for (let i = 0; i < 3; i++) m = m + m;
out.doubling = m;
let z = 0;
for (let i = 0; i < 3; i++) z = z - 0;
const nz = -0;
let w = nz;
for (let i = 0; i < 3; i++) w = w + 0;
let w2 = nz;
for (let i = 0; i < 3; i++) w2 = w2 - 0;
out.zeros = [Object.is(z, 0), Object.is(w, 0), Object.is(w2, -0), Object.is(0 - 0, 0)];
let n = NaN, cnt = 0;
for (let i = 0; i < 5; i++) { if (n < i) cnt++; if (n === n) cnt += 10; if (i !== n) cnt += 100; }
out.nan = cnt;
const bits = [];
for (let i = 0; i < 4; i++) {
    const x = 2 ** 40 + 2 ** 31 + i, y = -(2 ** 33) - 7 - i;
    bits.push(x & 0xffffffff, x | 0, x ^ 1, y & 255, y | 0, x << 1, x >> 1, x >>> 0, y >>> 1, 1 << (31 + i), -1 >>> (32 + i), 5 >> (33 + i));
}
out.bits = bits;
let v = 0, trace = [];
for (let i = 0; i < 8; i++) {
    if (i === 3) v = 'x';
    if (i === 5) v = 2.5;
    v = v + 1;
    trace.push(v);
}
out.changing = trace;
let k = 0, ks = [];
for (let i = 0; i < 20; i++) { if (i === 4) i = '9'; ks.push(typeof i === 'string' ? 's' + i : i); k++; }
out.stringCounter = [ks.join(','), k];
let h = 0.5, hs = 0;
for (let i = 0; i < 5; i++) { h += i; hs += h; }
out.halves = [h, hs];
let held = 'str', got = [];
for (let i = 0; i < 3; i++) { got.push(typeof held); held = i + 1; }
out.held = [got.join(','), held];
let lt = false, ge = true, flips = 0;
for (let i = 0; i < 10; i++) { lt = i < 5; ge = i >= 7; if (lt) flips++; if (ge) flips += 100; }
out.kept = [lt, ge, flips];
let up = 2 ** 47 - 3, upSteps = 0;
for (let i = up; i < 2 ** 47 + 3; i++) upSteps++;
let dn = 0;
for (let i = -(2 ** 47) + 2; i > -(2 ** 47) - 3; i--) dn++;
out.counters = [upSteps, dn];
let acc = 0;
for (let i = 0; i < 100000; i++) { acc = (acc + i * 7) | 0; acc ^= acc << 3; acc -= acc >> 5; }
out.mix = acc;
let o = 0;
for (let i = 0; i < 3; i++) o = { v: i };
out.obj = o.v;
return out;
