const statuses = ["paid", "refunded", "pending"];
const counts = await Promise.all(statuses.map((status) => tools.db.count({ table: "orders", where: { status } })));
const total = counts.reduce((a, b) => a + b, 0);
const pct = (n) => Math.round((n / total) * 1000) / 10;
const pivot = statuses.map((s, i) => ({ status: s, count: counts[i], pct: pct(counts[i]) }));
const check = await tools.db.count({ table: "orders" });
console.log(`sum ${total} vs count ${check}`);
return { pivot, consistent: total === check };
