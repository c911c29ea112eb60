const repos = ["acme/widgets", "acme/ghost", "globex/etl", "globex/phantom"];
const counts = {};
const errors = [];
for (const repo of repos) {
  const issues = await tools.github.list_issues({ repo }).catch((e) => {
    errors.push(repo);
    return [];
  });
  counts[repo] = issues.length;
}
console.warn(`missing repos: ${errors.join(", ")}`);
return counts;
