const fns = [];
for (const k in {a: 1, b: 2, c: 3}) fns.push(() => k);
fns.map(f => f()).join()
