function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }
const out = [];
for (const v of fib()) { if (v > 50) break; out.push(v); }
out
