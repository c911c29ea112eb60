const plans = ["free", "pro", "team"];
const counts = await Promise.all(plans.map((plan) => tools.db.count({ table: "users", where: { plan } })));
const active = await Promise.all(plans.map((plan) => tools.db.count({ table: "users", where: { plan, active: true } })));
console.log("types:", counts.map((c) => typeof c).join(","));
return Object.fromEntries(plans.map((p, i) => [p, { total: counts[i], active: active[i], inactive: counts[i] - active[i] }]));
