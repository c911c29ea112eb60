const ids = Array.from({ length: 12 }, (_, i) => i + 1);
const chunk = (arr, n) => arr.reduce((acc, x, i) => (i % n ? acc[acc.length - 1].push(x) : acc.push([x]), acc), []);
const results = [];
for (const [n, batch] of chunk(ids, 5).entries()) {
  const settled = await Promise.allSettled(batch.map((id) => tools.flaky.unstable({ id })));
  const ok = settled.filter((s) => s.status === "fulfilled").length;
  console.log(`batch ${n + 1}: ${ok}/${batch.length} ok`);
  results.push(...settled.map((s) => (s.status === "fulfilled" ? s.value.value : null)));
}
return results;
