const fns = [];
for (const [k, v] of [['a', 1], ['b', 2]]) fns.push(() => k + v);
fns.map(f => f()).join()
