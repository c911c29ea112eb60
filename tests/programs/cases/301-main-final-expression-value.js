// Without a return, the value of the final expression statement is the result.
const rows = await tools.db.select({ table: "products", where: { category: "audio" } });
const names = rows.rows.map((r) => r.name);
console.log(names.length, "audio products");
({ count: names.length, names })
