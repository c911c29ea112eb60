// Index page titles from search into kv, then look one up.
const ns = "p103";
const { results } = await tools.search.web({ query: "promise json schema pagination sandbox", limit: 10 });
await Promise.all(results.map((r, i) => tools.kv.set({ ns, key: `doc:${String(i).padStart(2, "0")}`, value: { title: r.title, url: r.url } })));
const { keys } = await tools.kv.list({ ns, prefix: "doc:", limit: 50 });
const first = await tools.kv.get({ ns, key: keys[0] });
console.log(`${keys.length} docs indexed`);
return { indexed: keys.length, first: first.value.title };
