// Retry each key independently, in parallel.
async function fetchWithRetry(key, failTimes) {
  for (let n = 1; ; n++) {
    try {
      const r = await tools.flaky.fetch({ key, fail_times: failTimes });
      return { key, tries: n };
    } catch (e) {
      if (n === 4) return { key, tries: n, gaveUp: true };
      await sleep(5);
    }
  }
}
const keys = [["p172-a", 0], ["p172-b", 1], ["p172-c", 3], ["p172-d", 5]];
const out = await Promise.all(keys.map(([k, f]) => fetchWithRetry(k, f)));
return out;
