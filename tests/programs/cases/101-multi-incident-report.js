// Correlate server errors in the logs with the service status and open an issue.
const [log, api, db] = await Promise.all([
  tools.fs.read_file({ path: "/logs/app-2024-03-03.log" }),
  tools.flaky.status({ service: "api" }),
  tools.flaky.status({ service: "db" }),
]);
const errors = log.split("\n").filter((l) => / ERROR /.test(l));
const paths = [...new Set(errors.map((l) => l.split(" ")[3]))].sort();
const issue = await tools.github.create_issue({
  repo: "acme/api-server",
  title: `Incident: ${errors.length} server errors on 2024-03-03`,
  body: `Affected: ${paths.join(", ")}\nAPI: ${api}\nDB: ${db}`,
  labels: ["bug", "incident"],
});
console.log(`opened #${issue.number}`);
return { errors: errors.length, paths, api, db, labels: issue.labels };
