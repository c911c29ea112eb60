const fns = [];
for (let i = 0; i < 6; i++) { fns.push(() => i); i++; }
fns.map(f => f())
