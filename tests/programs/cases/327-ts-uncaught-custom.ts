type Order = { id: number; total_cents: number; status: "paid" | "refunded" | "pending" };
const { rows } = (await tools.db.select({ table: "orders", where: { status: "pending" }, limit: 5, order_by: "id" })) as { rows: Order[] };
const tooOld: Order | undefined = rows.find((o) => o.id < 1010);
if (tooOld !== undefined) {
  throw new Error(`order ${tooOld.id} has been pending too long`);
}
return rows.length;
