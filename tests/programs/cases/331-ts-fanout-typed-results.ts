type Settled<T> = { ok: true; value: T } | { ok: false; error: string };
async function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}
const ids: number[] = [2, 3, 5, 6, 8];
const results = await Promise.all(ids.map((id) => settle(tools.flaky.unstable({ id }) as Promise<{ id: number; value: number }>)));
const values = results.flatMap((r) => (r.ok ? [r.value.value] : []));
const errors = results.filter((r): r is { ok: false; error: string } => !r.ok).map((r) => r.error);
return { values, errors };
