const { tables } = await tools.db.list_tables({});
const described = await Promise.all(tables.map((t) => tools.db.describe_table({ table: t.name })));
const overview = tables.map((t, i) => ({
  table: t.name,
  rows: t.row_count,
  columns: described[i].map((c) => `${c.column}:${c.type}`).join(", "),
}));
for (const o of overview) console.log(`${o.table} (${o.rows} rows): ${o.columns}`);
return overview.reduce((n, o) => n + o.rows, 0);
