// The program validates a tool result and throws its own error.
const { rows } = await tools.db.select({ table: "products", where: { category: "displays" } });
const inStock = rows.filter((p) => p.stock > 0);
console.log(`${inStock.length} displays in stock`);
if (inStock.length < 2) {
  throw new RangeError(`need at least 2 displays in stock, found ${inStock.length}`);
}
return inStock.map((p) => p.sku);
