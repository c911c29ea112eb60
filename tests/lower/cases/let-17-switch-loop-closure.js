const fns = [];
for (let i = 0; i < 3; i++) {
  switch (i) { case 1: { const label = 'one'; fns.push(() => label + i); break; } default: fns.push(() => 'other' + i); }
}
fns.map(f => f())
