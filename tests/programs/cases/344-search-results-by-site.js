// Search results grouped by site, with each page's path and a tracking query added to its link.
const queries = ["promise", "retry", "json schema", "pagination"];
const pages = await Promise.all(queries.map((q) => tools.search.web({ query: q, limit: 5 })));
const bySite = {};
for (const { results } of pages) {
  for (const r of results) {
    const u = new URL(r.url);
    const site = u.hostname.replace(/^(docs|blog|news|wiki)\./, "");
    const link = new URL(u.pathname, `${u.protocol}//${u.host}`);
    link.searchParams.set("utm_source", "digest");
    link.searchParams.append("q", r.title.toLowerCase());
    (bySite[site] ??= new Set()).add(link.href);
  }
}
const summary = Object.entries(bySite)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([site, links]) => ({ site, links: [...links].sort() }));
const params = new URLSearchParams({ sites: summary.map((s) => s.site).join(","), n: String(summary.length) });
return { summary, share: `https://digest.example/?${params}`, relative: new URL("../all?x=1#top", "https://wiki.example.com/a/b/c").href };
