// A typo in a column name comes back as a tool error; fall back to a safe query.
let rows;
try {
  ({ rows } = await tools.db.select({ table: "users", order_by: "created_at", limit: 3 }));
} catch (e) {
  console.warn(`${e.name}: ${e.message}`);
  ({ rows } = await tools.db.select({ table: "users", order_by: "signup", limit: 3 }));
}
return rows.map((r) => `${r.signup} ${r.name}`);
