// Sync product stock into kv, only writing keys whose value changed.
const ns = "p110";
await tools.kv.set({ ns, key: "stock:KB-100", value: 14 });
await tools.kv.set({ ns, key: "stock:MS-200", value: 50 });
const { rows } = await tools.db.select({ table: "products", columns: ["sku", "stock"], limit: 100 });
let written = 0, unchanged = 0;
for (const { sku, stock } of rows) {
  const key = `stock:${sku}`;
  const cur = await tools.kv.get({ ns, key });
  if (cur.found && cur.value === stock) { unchanged++; continue; }
  await tools.kv.set({ ns, key, value: stock });
  written++;
}
const { keys } = await tools.kv.list({ ns, limit: 50 });
console.log(`written=${written} unchanged=${unchanged}`);
return { written, unchanged, keys: keys.length };
