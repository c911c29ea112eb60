// Promise chaining without await.
return tools.github.list_repos({ org: "globex" })
  .then((r) => r.repos.find((x) => x.name === "portal"))
  .then((repo) => tools.github.list_issues({ repo: repo.full_name, per_page: 5 }))
  .then((issues) => issues.map((i) => i.number))
  .catch((e) => `failed: ${e.message}`)
  .finally(() => console.log("chain finished"));
