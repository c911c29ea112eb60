const fns = [];
for (let i = 0; i < 2; i++) {
  try { throw new Error('e' + i); } catch (err) { fns.push(() => err.message + i); }
}
fns.map(f => f())
