// Only select columns that exist, based on describe_table.
const wanted = ["name", "email", "phone", "plan"];
const cols = await tools.db.describe_table({ table: "users" });
const known = new Set(cols.map((c) => c.column));
const usable = wanted.filter((c) => known.has(c));
const missing = wanted.filter((c) => !known.has(c));
if (missing.length) console.warn(`ignoring unknown columns: ${missing.join(", ")}`);
const { rows } = await tools.db.select({ table: "users", columns: usable, where: { plan: "team", active: true }, order_by: "name", limit: 4 });
return rows;
