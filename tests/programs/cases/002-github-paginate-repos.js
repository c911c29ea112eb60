// Walk every page of acme's repositories.
const all = [];
let page = 1;
while (page !== null) {
  const res = await tools.github.list_repos({ org: "acme", page, per_page: 7 });
  all.push(...res.repos);
  console.log(`page ${res.page}: ${res.repos.length} repos`);
  page = res.next_page;
}
const active = all.filter((r) => !r.archived);
return {
  count: all.length,
  archived: all.filter((r) => r.archived).map((r) => r.name),
  topStarred: active.sort((a, b) => b.stars - a.stars).slice(0, 3).map((r) => `${r.name} (${r.stars})`),
};
