function makeCounter(start = 0, step = 1) {
  let value = start;
  return {
    next: () => (value += step),
    reset() { value = start; return value; },
    get current() { return value; },
  };
}
const a = makeCounter();
const b = makeCounter(100, -10);
a.next(); a.next(); b.next();
const snapshot = [a.current, b.current];
a.reset();
const once = (fn) => { let done = false, r; return (...args) => (done ? r : ((done = true), (r = fn(...args)))); };
const init = once((x) => x * 2);
const memo = (fn) => { const cache = new Map(); return (n) => cache.has(n) ? cache.get(n) : (cache.set(n, fn(n)), cache.get(n)); };
let calls = 0;
const sq = memo((n) => { calls++; return n * n; });
sq(4); sq(4); sq(5);
return { snapshot, afterReset: a.current, b: b.next(), once: [init(5), init(7)], calls };
