const { repos } = await tools.github.list_repos({ org: "acme", per_page: 50 });
const buckets = [0, 1000, 2000, 3000, 4000, 5000];
const hist = buckets.slice(0, -1).map((lo, i) => ({
  range: `${lo}-${buckets[i + 1] - 1}`,
  count: repos.filter((r) => r.stars >= lo && r.stars < buckets[i + 1]).length,
}));
for (const { range, count } of hist) console.log(range.padStart(9), "#".repeat(count));
return hist;
