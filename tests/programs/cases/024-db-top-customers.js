// Top 5 customers by lifetime paid spend, with their names.
const all = [];
for (let offset = 0; ; offset += 50) {
  const page = await tools.db.select({ table: "orders", filters: [{ column: "status", op: "eq", value: "paid" }], limit: 50, offset });
  all.push(...page.rows);
  if (offset + 50 >= page.total) break;
}
const spend = all.reduce((m, o) => m.set(o.user_id, (m.get(o.user_id) || 0) + o.total_cents), new Map());
const top = [...spend].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 5);
const { rows } = await tools.db.select({
  table: "users",
  filters: [{ column: "id", op: "in", value: top.map(([id]) => id) }],
  columns: ["id", "name", "plan"],
});
const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
return top.map(([id, cents], rank) => ({ rank: rank + 1, name: byId[id].name, plan: byId[id].plan, spent: cents / 100 }));
