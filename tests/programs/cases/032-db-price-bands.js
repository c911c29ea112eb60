const { rows } = await tools.db.select({ table: "products", limit: 100 });
const bands = [
  { name: "budget", max: 5000 },
  { name: "mid", max: 20000 },
  { name: "premium", max: Infinity },
];
const grouped = new Map(bands.map((b) => [b.name, []]));
for (const p of rows) {
  const band = bands.find((b) => p.price_cents < b.max);
  grouped.get(band.name).push(p.sku);
}
for (const [name, skus] of grouped) console.log(`${name}: ${skus.length}`);
return Object.fromEntries([...grouped].map(([k, v]) => [k, v.sort()]));
