const rows = [
  { name: "alpha", count: 3, ratio: 0.5 },
  { name: "beta-longer", count: 12, ratio: 0.125 },
  { name: "g", count: 100, ratio: 1 },
];
const cols = ["name", "count", "ratio"];
const cell = (r, c) => (c === "ratio" ? `${(r[c] * 100).toFixed(1)}%` : String(r[c]));
const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)));
const line = (vals) => "| " + vals.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join(" | ") + " |";
const out = [line(cols), "|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|", ...rows.map((r) => line(cols.map((c) => cell(r, c))))];
out.forEach((l) => console.log(l));
return out.length;
