// Orders per month in 2024 (created is an ISO timestamp).
let rows = [];
let offset = 0, total = Infinity;
while (offset < total) {
  const page = await tools.db.select({ table: "orders", columns: ["created", "total_cents", "status"], limit: 100, offset });
  rows = rows.concat(page.rows);
  total = page.total;
  offset += page.rows.length;
}
const months = {};
for (const { created, total_cents, status } of rows) {
  const key = created.slice(0, 7);
  months[key] ??= { orders: 0, refunded: 0, cents: 0 };
  months[key].orders++;
  if (status === "refunded") months[key].refunded++;
  else months[key].cents += total_cents;
}
const keys = Object.keys(months).sort();
console.log(`${rows.length} orders in ${keys.length} months`);
return keys.map((k) => ({ month: k, ...months[k], euros: Math.round(months[k].cents / 100) }));
