function run<T>(f: () => T): T { return f(); }
const r = run<{ ok: boolean }>(() => ({ ok: true }));
const s = run(() => 'str');
[r, s]
