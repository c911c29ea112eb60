const out = [];
outer: for (const a of [1, 2, 3]) {
  for (const b of [1, 2, 3]) {
    if (b === 2) continue outer;
    if (a === 3) break outer;
    out.push(a * 10 + b);
  }
}
out
