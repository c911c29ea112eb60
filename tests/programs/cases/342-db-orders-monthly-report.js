// Paid orders per month, with month names and percentage of the year's revenue.
const all = [];
for (let offset = 0; ; offset += 100) {
  const page = await tools.db.select({ table: "orders", where: { status: "paid" }, limit: 100, offset });
  all.push(...page.rows);
  if (offset + 100 >= page.total) break;
}
const byMonth = new Map();
for (const o of all) {
  const d = new Date(o.created);
  const key = d.toLocaleDateString("en-US", { year: "numeric", month: "long", timeZone: "UTC" });
  const m = byMonth.get(key) ?? { orders: 0, cents: 0, first: d };
  m.orders++;
  m.cents += o.total_cents;
  byMonth.set(key, m);
}
const total = all.reduce((s, o) => s + o.total_cents, 0);
const pct = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const report = [...byMonth]
  .sort((a, b) => a[1].first - b[1].first)
  .map(([month, m]) => ({
    month,
    orders: m.orders,
    revenue: (m.cents / 100).toLocaleString("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 }),
    share: pct.format(m.cents / total),
  }));
const last = all.reduce((a, o) => (o.created > a ? o.created : a), "");
return {
  months: report.length,
  report,
  lastOrder: new Date(last).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
  lastOrderDay: new Date(last).toDateString(),
};
