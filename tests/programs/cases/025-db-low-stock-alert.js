const { rows } = await tools.db.select({
  table: "products",
  filters: [{ column: "stock", op: "lte", value: 5 }],
  order_by: "stock",
});
const out = rows.filter((p) => p.stock === 0);
const low = rows.filter((p) => p.stock > 0);
if (out.length) console.warn(`${out.length} products out of stock: ${out.map((p) => p.sku).join(", ")}`);
console.log(`${low.length} products running low`);
return {
  outOfStock: out.map((p) => p.name),
  low: low.map((p) => `${p.name} (${p.stock} left)`),
  valueAtRisk: low.reduce((s, p) => s + p.price_cents * p.stock, 0) / 100,
};
