// Paid revenue per country: join orders to users in memory.
const [users, orders] = await Promise.all([
  tools.db.select({ table: "users", columns: ["id", "country"], limit: 100 }),
  tools.db.select({ table: "orders", where: { status: "paid" }, limit: 100, offset: 0 }),
]);
let paid = orders.rows;
if (orders.total > paid.length) {
  const rest = await tools.db.select({ table: "orders", where: { status: "paid" }, limit: 100, offset: 100 });
  paid = paid.concat(rest.rows);
}
const countryOf = new Map(users.rows.map((u) => [u.id, u.country]));
const revenue = {};
for (const o of paid) {
  const c = countryOf.get(o.user_id);
  revenue[c] = (revenue[c] ?? 0) + o.total_cents;
}
const ranked = Object.entries(revenue)
  .map(([country, cents]) => ({ country, total: (cents / 100).toFixed(2) }))
  .sort((a, b) => Number(b.total) - Number(a.total));
console.log(`paid orders: ${paid.length} of ${orders.total}`);
return ranked;
