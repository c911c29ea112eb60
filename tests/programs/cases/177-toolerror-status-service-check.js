const services = ["api", "db", "queue", "cdn", "auth"];
const results = {};
for (const service of services) {
  try {
    results[service] = await tools.flaky.status({ service });
  } catch (e) {
    results[service] = e instanceof ToolArgumentError ? "unknown service" : "error";
  }
}
const degraded = Object.entries(results).filter(([, s]) => s !== "operational" && s !== "unknown service").map(([k]) => k);
return { results, degraded };
