// Exponential backoff around a tool that fails its first 3 calls.
async function retry(fn, { attempts = 5, base = 10 } = {}) {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i + 1 >= attempts || !(e instanceof ToolError)) throw e;
      const wait = base * 2 ** i;
      console.log(`attempt ${i + 1} failed (${e.message.split(" (")[0]}), retrying in ${wait} ms`);
      await sleep(wait);
    }
  }
}
const r = await retry(() => tools.flaky.fetch({ key: "p129", fail_times: 3 }));
return r;
