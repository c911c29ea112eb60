// A synchronous generator that paginates an array, and a consumer that stops early.
const items = Array.from({ length: 23 }, (_, i) => `item${i + 1}`);
function* pages(list, size) {
  for (let i = 0; i < list.length; i += size) {
    yield { page: i / size + 1, items: list.slice(i, i + size), last: i + size >= list.length };
  }
}
const seen = [];
for (const p of pages(items, 5)) {
  seen.push(`${p.page}:${p.items.length}`);
  if (p.items.includes("item17")) break;
}
const all = [...pages(items, 10)].map((p) => p.last);
return { seen, all };
