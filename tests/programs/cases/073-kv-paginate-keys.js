const ns = "p073";
const names = Array.from({ length: 23 }, (_, i) => `item-${String(i).padStart(2, "0")}`);
await Promise.all(names.map((key, i) => tools.kv.set({ ns, key, value: i * i })));
const seen = [];
let cursor = null, pages = 0;
do {
  const res = await tools.kv.list({ ns, cursor, limit: 10 });
  seen.push(...res.keys);
  cursor = res.cursor;
  pages++;
} while (cursor);
console.log(`${seen.length} keys in ${pages} pages`);
return { pages, first: seen[0], last: seen.at(-1), sorted: seen.every((k, i) => i === 0 || seen[i - 1] < k) };
