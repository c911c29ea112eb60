// A plain integer loop (sums, a bit test, a branch): the interpreter's floor.
const t0 = Date.now();
let s = 0, c = 0;
for (let i = 0; i < 10000000; i++) {
    s += i;
    if ((i & 7) === 3) c++;
}
return { ms: Date.now() - t0, check: [s, c] };
