try {
  await tools.db.select({ table: "users", filters: [{ column: "name", op: "eq", value: "Ada" }, { column: "id", op: "like", value: 3 }] });
  return "accepted";
} catch (e) {
  return {
    name: e.name,
    count: e.violations.length,
    pointsAtSecondFilter: JSON.stringify(e.violations).includes("/filters/1/op"),
  };
}
