const repos = ["acme/widgets", "acme/docs", "globex/portal"];
const labels = ["bug", "enhancement", "docs"];
const cells = await Promise.all(
  repos.flatMap((repo) =>
    labels.map(async (label) => {
      const issues = await tools.github.list_issues({ repo, labels: [label], state: "all", per_page: 100 });
      return { repo, label, n: issues.length };
    })
  )
);
const matrix = {};
for (const { repo, label, n } of cells) {
  (matrix[repo] ??= {})[label] = n;
}
for (const repo of repos) console.log(repo.padEnd(14), labels.map((l) => String(matrix[repo][l]).padStart(3)).join(" "));
return matrix;
