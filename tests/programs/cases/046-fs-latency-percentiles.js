const text = await tools.fs.read_file({ path: "/logs/app-2024-03-02.log" });
const ms = [...text.matchAll(/ms=(\d+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
const pct = (p) => ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)];
const byPath = {};
for (const line of text.trim().split("\n")) {
  const [, , , path] = line.split(" ");
  const v = Number(line.split("ms=")[1]);
  byPath[path] = Math.max(byPath[path] ?? 0, v);
}
console.log(`n=${ms.length}`);
return { p50: pct(50), p90: pct(90), p99: pct(99), max: ms.at(-1), slowestPerPath: byPath };
