interface Product { sku: string; name: string; price_cents: number; category: string; stock: number }
const { rows } = (await tools.db.select({ table: "products", limit: 100 })) as { rows: Product[] };
const byCategory = rows.reduce<Map<string, Product[]>>((m, p) => m.set(p.category, [...(m.get(p.category) ?? []), p]), new Map());
const report = [...byCategory.entries()]
  .map(([category, list]) => ({
    category,
    skus: list.length,
    outOfStock: list.filter((p) => p.stock === 0).map((p) => p.sku),
    avgPrice: Math.round(list.reduce((s, p) => s + p.price_cents, 0) / list.length) / 100,
  }))
  .sort((a, b) => a.category.localeCompare(b.category));
console.log(`${report.length} categories`);
return report;
