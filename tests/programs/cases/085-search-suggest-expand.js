const prefixes = ["re", "pa", "sa", "zz"];
const suggestions = await Promise.all(prefixes.map((prefix) => tools.search.suggest({ prefix })));
const expanded = {};
for (const [i, prefix] of prefixes.entries()) {
  const words = suggestions[i];
  if (!words.length) { console.log(`no suggestions for "${prefix}"`); continue; }
  const { results } = await tools.search.web({ query: words[0], limit: 2 });
  expanded[prefix] = { first: words[0], all: words.length, hits: results.map((r) => r.url) };
}
return expanded;
