const batch = [
  { sku: "KB-110", name: "Compact keyboard", price_cents: 6900, category: "peripherals", stock: 20 },
  { sku: "MS-200", name: "Wireless mouse v2", price_cents: 3100, category: "peripherals", stock: 10 },
  { sku: "PD-010", name: "Mouse pad", price_cents: 1200, category: "accessories", stock: 100 },
];
const settled = await Promise.allSettled(batch.map((row) => tools.db.insert({ table: "products", row })));
const report = settled.map((s, i) =>
  s.status === "fulfilled" ? { sku: batch[i].sku, ok: true, id: s.value.id } : { sku: batch[i].sku, ok: false, error: s.reason.message }
);
console.log(`${report.filter((r) => r.ok).length}/${batch.length} inserted`);
return report;
