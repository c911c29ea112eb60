const { rows } = await tools.db.select({ table: "users", columns: ["country", "plan"], limit: 100 });
const countries = [...new Set(rows.map((r) => r.country))].sort();
const plans = ["free", "pro", "team"];
const grid = countries.map((c) => [c, ...plans.map((p) => rows.filter((r) => r.country === c && r.plan === p).length)]);
console.log(["  ", ...plans].join("\t"));
for (const row of grid) console.log(row.join("\t"));
const totals = plans.map((_, i) => grid.reduce((s, r) => s + r[i + 1], 0));
return { grid, totals };
