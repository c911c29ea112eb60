const fns = []; let i = 0;
do { let k = i; fns.push(() => k); } while (++i < 3);
fns.map(f => f())
