// a closure written before a let/const it reads (a hoisted function called early)
// throws a ReferenceError before the declaration runs
const out = [];
{
  function f() { return x + 1; }
  function g() { x = 1; }
  try { f(); out.push('no error'); } catch (e) { out.push(e.name); }
  try { g(); out.push('no error'); } catch (e) { out.push(e.name); }
  let x;
  out.push(f());
  g();
  out.push(f());
}
function helper() { return CONFIG.n * 2; }
try { helper(); } catch (e) { out.push(e.name + ': ' + e.message); }
const CONFIG = { n: 21 };
out.push(helper());
function early() { return typeof later; }
try { early(); } catch (e) { out.push(e.name); }
let later = 'ok';
out.push(early());
const fib = (n) => n < 2 ? n : fib(n - 1) + fib(n - 2);
out.push(fib(10));
for (let i = 0; i < 2; i++) {
  const read = () => v;
  try { read(); } catch (e) { out.push(e.name); }
  let v = i;
  out.push(read());
}
console.log(out.join('|'));
// destructuring and compound assignments from such a closure check too
const writes = [];
for (const act of [() => { [dx] = [1]; }, () => { ({ p: dx } = { p: 2 }); }, () => { dx += 1; }]) {
  try { act(); writes.push('no error'); } catch (e) { writes.push(e.name); }
}
let dx = 0;
writes.push(dx);
console.log(writes.join('|'));
