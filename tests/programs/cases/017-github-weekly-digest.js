// Issues opened in the first week of February 2024 in acme/widgets.
const from = Date.UTC(2024, 1, 1), to = Date.UTC(2024, 1, 8);
const issues = await tools.github.list_issues({ repo: "acme/widgets", state: "all", per_page: 100 });
const week = issues.filter(({ created_at }) => {
  const t = new Date(created_at).getTime();
  return t >= from && t < to;
});
const lines = week
  .sort((a, b) => a.number - b.number)
  .map((i) => `${i.created_at.slice(5, 10)} #${i.number} [${i.state}] ${i.title}`);
lines.forEach((l) => console.log(l));
`${week.length} issues opened between 2024-02-01 and 2024-02-07`;
