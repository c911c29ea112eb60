// users.csv is plain text (not JSON): parse it and aggregate per team.
const csv = await tools.fs.read_file({ path: "/project/data/users.csv" });
const [header, ...lines] = csv.trim().split("\n");
const cols = header.split(",");
const rows = lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [cols[i], cols[i] === "score" ? Number(v) : v])));
const teams = {};
for (const r of rows) {
  const t = (teams[r.team] ??= { members: [], total: 0 });
  t.members.push(r.name);
  t.total += r.score;
}
const ranking = Object.entries(teams)
  .map(([team, t]) => ({ team, avg: +(t.total / t.members.length).toFixed(1), members: t.members }))
  .sort((a, b) => b.avg - a.avg);
console.log(typeof csv, rows.length, "rows");
return ranking;
