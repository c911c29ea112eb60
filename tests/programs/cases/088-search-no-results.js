const res = await tools.search.web({ query: "quantum entanglement" });
if (res.results.length === 0) {
  console.log(`nothing found for "${res.query}", broadening`);
  const broader = await tools.search.web({ query: "sandbox" });
  return { fallback: true, titles: broader.results.map((r) => r.title) };
}
return { fallback: false, titles: res.results.map((r) => r.title) };
