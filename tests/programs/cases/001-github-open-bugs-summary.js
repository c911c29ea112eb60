// Summarise open bugs in acme/widgets by label.
const issues = await tools.github.list_issues({ repo: "acme/widgets", state: "open", per_page: 100 });
console.log(`fetched ${issues.length} open issues`);
const byLabel = {};
for (const issue of issues) {
  for (const label of issue.labels) {
    byLabel[label] = (byLabel[label] ?? 0) + 1;
  }
}
const unlabeled = issues.filter((i) => i.labels.length === 0).length;
return {
  total: issues.length,
  unlabeled,
  byLabel: Object.fromEntries(Object.entries(byLabel).sort(([a], [b]) => a.localeCompare(b))),
};
