// Search, fetch the top pages in parallel, and return a short digest.
const { results } = await tools.search.web({ query: "retry backoff rate limits", limit: 3 });
const pages = await Promise.all(results.map((r) => tools.search.fetch_page({ url: r.url })));
const digest = results.map((r, i) => {
  const body = pages[i].split("\n").filter((l) => l && !l.startsWith("#")).join(" ");
  return { title: r.title, score: r.score, words: body.split(/\s+/).length };
});
console.log(digest.map((d) => d.title).join(" | "));
return digest;
