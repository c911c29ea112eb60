const fns = [];
outer: for (let i = 0; i < 4; i++) {
  for (let j = 0; j < 4; j++) {
    if (j === 2) continue outer;
    if (i === 3) break outer;
    fns.push(() => i + ':' + j);
  }
}
fns.map(f => f()).join(' ')
