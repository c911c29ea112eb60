const queries = ["retry", "cache", "parseConfig"];
const results = await Promise.all(queries.map((q) => tools.github.search_code({ q, limit: 20 })));
const summary = {};
queries.forEach((q, i) => {
  const { total_count, items } = results[i];
  summary[q] = { total: total_count, repos: [...new Set(items.map((it) => it.repo.split("/")[1]))].sort() };
});
console.log(JSON.stringify(summary));
return summary;
