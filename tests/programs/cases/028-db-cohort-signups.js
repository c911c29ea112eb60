const { rows, total } = await tools.db.select({ table: "users", columns: ["signup", "plan", "active"], limit: 100 });
const quarter = (d) => `Q${Math.floor((Number(d.slice(5, 7)) - 1) / 3) + 1}`;
const cohorts = {};
for (const u of rows) {
  const q = quarter(u.signup);
  const c = (cohorts[q] ||= { signups: 0, paying: 0, active: 0 });
  c.signups++;
  if (u.plan !== "free") c.paying++;
  if (u.active) c.active++;
}
console.log(`users: ${total}`);
return Object.keys(cohorts).sort().map((q) => ({
  quarter: q,
  ...cohorts[q],
  conversion: `${Math.round((cohorts[q].paying / cohorts[q].signups) * 100)}%`,
}));
