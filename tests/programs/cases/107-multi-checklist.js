// A deployment checklist: every check runs in parallel; report pass/fail.
const checks = {
  "api operational": async () => (await tools.flaky.status({ service: "api" })) === "operational",
  "db healthy": async () => !(await tools.flaky.status({ service: "db" })).startsWith("degraded"),
  "package has build script": async () => "build" in (await tools.fs.read_file({ path: "/project/package.json" })).scripts,
  "no high-priority bugs": async () => (await tools.github.list_issues({ repo: "acme/billing", labels: ["priority:high", "bug"] })).length === 0,
  "weather ok in Berlin": async () => (await tools.weather.current({ city: "Berlin" })).wind_kph < 50,
};
const names = Object.keys(checks);
const results = await Promise.all(names.map((n) => checks[n]()));
names.forEach((n, i) => console.log(`${results[i] ? "PASS" : "FAIL"} ${n}`));
return { passed: results.filter(Boolean).length, failed: names.filter((_, i) => !results[i]) };
