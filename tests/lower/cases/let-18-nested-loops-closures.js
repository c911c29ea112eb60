const fns = [];
for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) fns.push(() => `${i}${j}`);
fns.map(f => f()).join(',')
