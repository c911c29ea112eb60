// Wrap a tool failure in a domain error with context, then report it.
class SyncError extends Error {
  constructor(step, cause) {
    super(`${step} failed: ${cause.message}`);
    this.name = "SyncError";
    this.step = step;
    this.causeName = cause.name;
  }
}
async function step(name, fn) {
  try {
    return await fn();
  } catch (e) {
    throw new SyncError(name, e);
  }
}
try {
  await step("load", () => tools.db.select({ table: "users", limit: 1 }));
  await step("enrich", () => tools.weather.current({ city: "Narnia" }));
  return "done";
} catch (e) {
  return { name: e.name, message: e.message, step: e.step, causeName: e.causeName, isError: e instanceof Error };
}
