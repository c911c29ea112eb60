const meetings = [[9, 10.5], [13, 14], [10, 11], [16, 17], [13.5, 15], [11, 11.5]];
const merged = [...meetings]
  .sort((a, b) => a[0] - b[0] || a[1] - b[1])
  .reduce((acc, [s, e]) => {
    const last = acc.at(-1);
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else acc.push([s, e]);
    return acc;
  }, []);
const fmt = (h) => `${String(Math.floor(h)).padStart(2, "0")}:${h % 1 ? "30" : "00"}`;
const free = [];
let cursor = 9;
for (const [s, e] of merged) {
  if (s > cursor) free.push(`${fmt(cursor)}-${fmt(s)}`);
  cursor = Math.max(cursor, e);
}
if (cursor < 18) free.push(`${fmt(cursor)}-${fmt(18)}`);
return { busy: merged.map(([s, e]) => `${fmt(s)}-${fmt(e)}`), free };
