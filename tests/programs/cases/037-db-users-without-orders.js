const [{ rows: users }, first, second] = await Promise.all([
  tools.db.select({ table: "users", columns: ["id", "name", "active"], limit: 100 }),
  tools.db.select({ table: "orders", columns: ["user_id", "status"], limit: 100 }),
  tools.db.select({ table: "orders", columns: ["user_id", "status"], limit: 100, offset: 100 }),
]);
const orders = [...first.rows, ...second.rows];
const payers = new Set(orders.filter((o) => o.status === "paid").map((o) => o.user_id));
const never = users.filter((u) => !payers.has(u.id));
console.log(`${orders.length} orders, ${payers.size} distinct paying users`);
return { neverPaid: never.map((u) => `${u.id}:${u.name}`), activeAmongThem: never.filter((u) => u.active).length };
