const csv = `name,dept,salary,start
Ada,eng,120000,2019-03-01
Bo,ops,80000,2021-07-15
Cy,eng,135000,2017-01-09
Di,sales,70000,2022-11-30
Ed,ops,85000,2020-05-20`;
const [head, ...rows] = csv.split("\n").map((l) => l.split(","));
const records = rows.map((r) => Object.fromEntries(head.map((h, i) => [h, h === "salary" ? +r[i] : r[i]])));
const byDept = {};
for (const r of records) {
  const d = (byDept[r.dept] ??= { count: 0, total: 0, earliest: r.start });
  d.count++;
  d.total += r.salary;
  if (r.start < d.earliest) d.earliest = r.start;
}
const fmt = (n) => `$${Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
const lines = Object.keys(byDept).sort().map((d) => `${d.padEnd(6)}${String(byDept[d].count).padStart(3)}  ${fmt(byDept[d].total / byDept[d].count).padStart(9)}  since ${byDept[d].earliest}`);
lines.forEach((l) => console.log(l));
return lines;
