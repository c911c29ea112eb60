// Page through all issues with a small page size until a short page.
const repo = "acme/widgets";
const perPage = 20;
let page = 1;
const all = [];
for (;;) {
  const batch = await tools.github.list_issues({ repo, state: "all", page, per_page: perPage });
  all.push(...batch);
  if (batch.length < perPage) break;
  page++;
}
console.log(`${all.length} issues over ${page} pages`);
const closed = all.filter((i) => i.state === "closed");
const numbers = new Set(all.map((i) => i.number));
return {
  total: all.length,
  closed: closed.length,
  pages: page,
  complete: numbers.size === all.length && Math.max(...numbers) === all.length,
};
