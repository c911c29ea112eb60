const orders = [];
for (let offset = 0; offset < 120; offset += 40) {
  const { rows } = await tools.db.select({ table: "orders", columns: ["user_id", "status"], limit: 40, offset });
  orders.push(...rows);
}
const perUser = orders.reduce((acc, o) => {
  if (o.status !== "refunded") acc[o.user_id] = (acc[o.user_id] || 0) + 1;
  return acc;
}, {});
const repeat = Object.entries(perUser).filter(([, n]) => n >= 4).map(([id, n]) => ({ id: Number(id), n }));
repeat.sort((a, b) => b.n - a.n || a.id - b.id);
console.log(`${Object.keys(perUser).length} buyers, ${repeat.length} with 4+ orders`);
return repeat;
