const terms = ["lee", "sato", "ada"];
const found = await Promise.all(
  terms.map((t) => tools.db.select({ table: "users", filters: [{ column: "name", op: "contains", value: t }], columns: ["id", "name"], order_by: "id" }))
);
const result = {};
terms.forEach((t, i) => {
  result[t] = found[i].rows.map((r) => r.name);
  console.log(`${t}: ${found[i].total} match(es)`);
});
return result;
