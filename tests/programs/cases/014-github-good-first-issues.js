// Collect "good first issue" candidates across the non-archived acme repos.
const { repos } = await tools.github.list_repos({ org: "acme", per_page: 50 });
const live = repos.filter((r) => !r.archived);
const found = [];
await Promise.all(live.map(async (r) => {
  const issues = await tools.github.list_issues({ repo: r.full_name, labels: ["good first issue"], per_page: 100 });
  for (const i of issues) found.push({ repo: r.name, number: i.number, title: i.title });
}));
found.sort((a, b) => a.repo.localeCompare(b.repo) || a.number - b.number);
console.log(`${found.length} candidates in ${new Set(found.map((f) => f.repo)).size} repos`);
return found.slice(0, 8);
