// Fan out over repos, and inside each over the first three issues.
const repos = ["acme/cli", "acme/billing", "globex/handbook"];
const result = await Promise.all(repos.map(async (repo) => {
  const issues = await tools.github.list_issues({ repo, state: "all", per_page: 3 });
  const details = await Promise.all(issues.map((i) => tools.github.get_issue({ repo, number: i.number })));
  return { repo, titles: details.map((d) => `#${d.number} ${d.title}`) };
}));
return result;
