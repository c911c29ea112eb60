const fns = []; let i = 0;
while (i < 3) { const j = i; fns.push(() => j); i++; }
fns.map(f => f())
