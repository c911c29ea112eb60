const orgs = ["acme", "globex"];
const results = await Promise.all(
  orgs.map((org) => tools.github.list_repos({ org, per_page: 50 }))
);
const languages = new Map();
results.forEach((res, i) => {
  for (const repo of res.repos) {
    const entry = languages.get(repo.language) ?? { repos: 0, stars: 0, orgs: new Set() };
    entry.repos++;
    entry.stars += repo.stars;
    entry.orgs.add(orgs[i]);
    languages.set(repo.language, entry);
  }
});
const table = [...languages]
  .map(([language, e]) => ({ language, repos: e.repos, stars: e.stars, orgs: [...e.orgs].sort() }))
  .sort((a, b) => b.repos - a.repos || a.language.localeCompare(b.language));
console.log(`${table.length} languages`);
return table;
