// Integer-like keys come first, in ascending order, then the string keys in insertion order.
const counts = {};
for (const year of [2023, 2021, 2024, 2022]) counts[year] = year % 100;
const mixed = { b: 1, 10: "ten", a: 2, 2: "two", "01": "leading zero" };
return {
  years: Object.keys(counts),
  entries: Object.entries(counts).map(([y, v]) => `${y}:${v}`),
  mixed: Object.keys(mixed),
  json: JSON.stringify(mixed),
};
