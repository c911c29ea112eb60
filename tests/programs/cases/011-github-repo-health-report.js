const { repos } = await tools.github.list_repos({ org: "acme", per_page: 50, include_archived: false });
const report = [];
for (const r of repos.filter((x) => x.open_issues > 10)) {
  const issues = await tools.github.list_issues({ repo: r.full_name, per_page: 100 });
  const bugs = issues.filter((i) => i.labels.includes("bug")).length;
  report.push({ repo: r.name, open: r.open_issues, bugs, ratio: +(bugs / r.open_issues).toFixed(2) });
}
report.sort((a, b) => b.ratio - a.ratio || a.repo.localeCompare(b.repo));
console.log(`checked ${report.length} busy repos`);
return report;
