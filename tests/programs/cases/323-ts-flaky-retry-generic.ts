interface RetryOptions { attempts: number; delayMs: number; factor?: number }
async function retry<T>(fn: () => Promise<T>, { attempts, delayMs, factor = 2 }: RetryOptions): Promise<{ value: T; tries: number }> {
  let wait = delayMs;
  for (let tries = 1; ; tries++) {
    try {
      return { value: await fn(), tries };
    } catch (e: unknown) {
      if (tries >= attempts || !(e instanceof ToolError)) throw e;
      await sleep(wait);
      wait *= factor;
    }
  }
}
type Fetched = { key: string; attempts: number; data: { checksum: number } };
const r = await retry(() => tools.flaky.fetch({ key: "p323", fail_times: 2 }) as Promise<Fetched>, { attempts: 4, delayMs: 5 });
return { tries: r.tries, serverAttempts: r.value.attempts };
