const log = "GET /a 200,GET /b 404,POST /a 201,GET /a 200,GET /c 500,POST /b 201,GET /b 404";
const counts = new Map();
for (const entry of log.split(",")) {
  const [method, path, status] = entry.split(" ");
  const key = `${method} ${path}`;
  const rec = counts.get(key) ?? { n: 0, statuses: new Set() };
  rec.n++;
  rec.statuses.add(Number(status));
  counts.set(key, rec);
}
const rows = [...counts].map(([k, { n, statuses }]) => ({ k, n, statuses: [...statuses].sort((x, y) => x - y) }));
rows.sort((x, y) => y.n - x.n || x.k.localeCompare(y.k));
const errorsByPath = new Map();
for (const { k, statuses } of rows) if (statuses.some((s) => s >= 400)) errorsByPath.set(k.split(" ")[1], true);
return { rows, errorPaths: [...errorsByPath.keys()], mapSize: counts.size, iterOrder: [...counts.keys()] };
