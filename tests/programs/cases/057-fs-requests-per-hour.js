const logs = await tools.fs.search_files({ path: "/logs", pattern: "app-*.log" });
const perHour = new Map();
for (const path of logs) {
  const text = await tools.fs.read_file({ path });
  for (const line of text.split("\n").filter(Boolean)) {
    const hour = line.slice(0, 13) + ":00";
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
  }
}
const rows = [...perHour.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const busiest = rows.reduce((best, r) => (r[1] > best[1] ? r : best));
console.log(`busiest hour: ${busiest[0]} with ${busiest[1]} requests`);
return { hours: rows.length, busiest: busiest[0], firstThree: rows.slice(0, 3) };
