// Merge results of several queries, dedupe by URL, keep the best score.
const qs = ["promise async", "await errors", "map set iterable"];
const all = (await Promise.all(qs.map((query) => tools.search.web({ query, limit: 5 })))).flatMap((r) => r.results);
const best = new Map();
for (const r of all) {
  const prev = best.get(r.url);
  if (!prev || r.score > prev.score) best.set(r.url, r);
}
const merged = [...best.values()].sort((a, b) => b.score - a.score || a.url.localeCompare(b.url));
console.log(`${all.length} raw results, ${merged.length} unique`);
return merged.map(({ title, score }) => ({ title, score }));
