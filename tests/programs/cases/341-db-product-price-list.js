// A price list for a customer email: names in dictionary order, prices as dollars.
const { rows } = await tools.db.select({ table: "products", limit: 100 });
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const lines = rows
  .slice()
  .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }))
  .map((p) => `${p.name.padEnd(26)} ${usd.format(p.price_cents / 100).padStart(10)}${p.stock === 0 ? "  (sold out)" : ""}`);
const stockValue = rows.reduce((s, p) => s + p.price_cents * p.stock, 0) / 100;
console.log(lines.join("\n"));
return {
  items: lines.length,
  stockValue: stockValue.toLocaleString("en-US", { style: "currency", currency: "USD" }),
  compact: new Intl.NumberFormat("en", { notation: "compact", style: "currency", currency: "USD" }).format(stockValue),
  first: lines[0],
};
