const { rows: products } = await tools.db.select({ table: "products", order_by: "category", limit: 100 });
const categories = [...new Set(products.map((p) => p.category))];
const summary = categories.map((category) => {
  const items = products.filter((p) => p.category === category);
  const units = items.reduce((s, p) => s + p.stock, 0);
  const value = items.reduce((s, p) => s + p.stock * p.price_cents, 0);
  return { category, skus: items.length, units, stockValue: `$${(value / 100).toFixed(2)}` };
});
console.log(categories.join(" / "));
return summary;
