class TimeoutError extends Error {
  constructor(public readonly ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = "TimeoutError";
  }
}
function timeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new TimeoutError(ms)), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e: unknown) => { clearTimeout(t); reject(e); });
  });
}
type Waited = { label: string | null; ms: number };
const jobs: [number, number][] = [[10, 300], [800, 120], [40, 400]];
const outcomes: string[] = [];
for (const [ms, limit] of jobs) {
  try {
    const r = await timeout(tools.slow.wait({ ms, label: `job${ms}` }) as Promise<Waited>, limit);
    outcomes.push(`done ${r.label}`);
  } catch (e) {
    outcomes.push(e instanceof TimeoutError ? `timeout ${e.ms}` : "other");
  }
}
return outcomes;
