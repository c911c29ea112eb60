const queries = ["promise", "json schema", "pagination cursor", "sandbox", "mcp tools"];
const responses = await Promise.all(queries.map((query) => tools.search.web({ query, limit: 10 })));
const domains = {};
for (const { results } of responses) {
  for (const r of results) {
    const host = r.url.match(/^https?:\/\/([^/]+)/)[1];
    domains[host] = (domains[host] ?? 0) + r.score;
  }
}
const ranked = Object.entries(domains).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
console.log(ranked.map(([d, s]) => `${d}:${s}`).join(" "));
return ranked[0][0];
