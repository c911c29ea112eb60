// a closure made in a for(let...) test or update captures that iteration's binding
let a = [];
for (let i = 0; a.push(function () { return i; }), i < 3; ++i) { if (i == 1) continue; a.push(() => i * 10); }
console.log(a.map(f => f()).join());
let b = [];
for (let i = 0; i < 3; b.push(() => i), ++i) { }
console.log(b.map(f => f()).join());
let c = [];
outer: for (let i = 0, j = 10; c.push(() => i + j), i < 5; i++, j--) { for (;;) { if (i == 3) break outer; break; } }
console.log(c.map(f => f()).join());
let d = [];
for (let i = 0; ; d.push(() => i), i++) { if (i > 2) break; }
console.log(d.map(f => f()).join());
function g() { const r = []; for (let k = 0; r.push(() => k), k < 2; k++) { if (k === 1) return r; } }
console.log(g().map(f => f()).join());
// for (let i; ...) starts undefined each time the loop is met, captured or not
const seen = [];
for (let r = 0; r < 2; r++) {
  for (let i, n = 0; n < 2; n++) { seen.push(String(i)); i = n; seen.push(() => i); }
  for (let i, n = 0; n < 2; n++) { seen.push(String(i)); i = n; }
}
console.log(seen.map(x => typeof x === 'function' ? x() : x).join());
// a closure made in the initialiser sees the first environment
let a2 = [];
for (let i = 0, f = function () { return i; }; i < 3; ++i) { a2.push(f); a2.push(() => i); }
console.log(a2.map(g => g()).join());
let b2 = [];
for (let i = 0, inc = () => ++i; i < 3; i++) { b2.push(inc()); b2.push(i); }
console.log(b2.join());
