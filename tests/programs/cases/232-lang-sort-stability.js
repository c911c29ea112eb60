// Array.prototype.sort is stable (ES2019): equal keys keep their original order.
const rows = [];
for (let i = 0; i < 40; i++) rows.push({ id: i, group: ["c", "a", "b"][i % 3] });
const sorted = [...rows].sort((x, y) => (x.group < y.group ? -1 : x.group > y.group ? 1 : 0));
const stable = ["a", "b", "c"].every((g) => {
  const ids = sorted.filter((r) => r.group === g).map((r) => r.id);
  return ids.every((id, i) => i === 0 || ids[i - 1] < id);
});
const words = ["pear", "fig", "apple", "kiwi", "plum", "date", "banana"];
return { stable, byLength: [...words].sort((a, b) => a.length - b.length), head: sorted.slice(0, 5).map((r) => r.id) };
