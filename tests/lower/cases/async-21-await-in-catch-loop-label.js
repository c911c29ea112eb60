const out = [];
outer: for (const x of [1, 2, 3]) {
  for (const y of [1, 2]) {
    try { if (y === 2) throw new Error(); out.push(await Promise.resolve(x * y)); }
    catch { continue outer; }
  }
}
out
