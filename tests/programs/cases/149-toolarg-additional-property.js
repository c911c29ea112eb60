// A misspelled argument is rejected (additionalProperties: false) before the call is sent.
const key = "p149";
try {
  await tools.slow.enter({ key, ms: 10, timeout: 5 });
} catch (e) {
  console.log(e.name, e.violations.length, JSON.stringify(e.violations).includes("timeout"));
}
const { calls } = await tools.slow.peak({ key });
return { callsReachedHost: calls };
