function* range(start, end, step = 1) {
  for (let i = start; i < end; i += step) yield i;
}
function* take(n, it) {
  for (const x of it) {
    if (n-- <= 0) return;
    yield x;
  }
}
function* naturals() {
  let n = 0;
  while (true) yield n++;
}
function* fib() {
  let [a, b] = [0, 1];
  for (;;) {
    yield a;
    [a, b] = [b, a + b];
  }
}
const g = range(0, 3);
const manual = [g.next(), g.next(), g.next(), g.next()];
return {
  range: [...range(0, 10, 3)],
  evensFromNaturals: [...take(5, (function* () { for (const n of naturals()) if (n % 2 === 0) yield n; })())],
  fib: [...take(10, fib())],
  manual,
};
