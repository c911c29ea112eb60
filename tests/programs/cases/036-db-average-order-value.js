const fetchAll = async (where) => {
  let out = [], offset = 0, total;
  do {
    const page = await tools.db.select({ table: "orders", where, limit: 100, offset });
    out = out.concat(page.rows);
    total = page.total;
    offset += 100;
  } while (offset < total);
  return out;
};
const [paid, refunded] = await Promise.all([fetchAll({ status: "paid" }), fetchAll({ status: "refunded" })]);
const avg = (xs) => xs.reduce((s, o) => s + o.total_cents, 0) / xs.length / 100;
return {
  paid: { n: paid.length, avg: Number(avg(paid).toFixed(2)) },
  refunded: { n: refunded.length, avg: Number(avg(refunded).toFixed(2)) },
  refundRate: `${((refunded.length / (paid.length + refunded.length)) * 100).toFixed(1)}%`,
};
