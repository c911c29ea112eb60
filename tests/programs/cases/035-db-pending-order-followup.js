// Pending orders older than 30 days relative to a fixed "today".
const today = Date.UTC(2024, 9, 1);
const { rows } = await tools.db.select({ table: "orders", where: { status: "pending" }, order_by: "created", limit: 100 });
const overdue = rows.filter((o) => today - Date.parse(o.created) > 30 * 86400000);
const users = await tools.db.select({
  table: "users",
  filters: [{ column: "id", op: "in", value: [...new Set(overdue.map((o) => o.user_id))] }],
  columns: ["id", "email"],
  limit: 100,
});
const emailOf = new Map(users.rows.map((u) => [u.id, u.email]));
const reminders = overdue.slice(0, 5).map((o) => ({ order: o.id, to: emailOf.get(o.user_id), ageDays: Math.floor((today - Date.parse(o.created)) / 86400000) }));
console.log(`${overdue.length} overdue of ${rows.length} pending`);
return reminders;
