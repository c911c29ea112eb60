// Who reports the most issues in globex/core, with their profiles.
const issues = await tools.github.list_issues({ repo: "globex/core", state: "all", per_page: 100 });
const counts = issues.reduce((acc, { author }) => ({ ...acc, [author]: (acc[author] || 0) + 1 }), {});
const ranked = Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
const profiles = await Promise.all(ranked.slice(0, 3).map(([login]) => tools.github.get_user({ login })));
return profiles.map((p, i) => ({
  login: p.login,
  name: p.name,
  issues: ranked[i][1],
  company: p.company ?? "(none)",
}));
