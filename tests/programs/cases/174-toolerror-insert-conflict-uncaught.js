const row = { sku: "HS-400", name: "Headset", price_cents: 100, category: "audio", stock: 1 };
const existing = await tools.db.count({ table: "products", where: { sku: row.sku } });
console.log("existing rows with that sku:", existing);
await tools.db.insert({ table: "products", row });
return "inserted";
