const data: unknown = { a: 1 };
const a = (data as { a: number }).a;
const cfg = { port: 80 } satisfies Record<string, number>;
const el: number[] | undefined = [1];
const n = el!.length;
const k = <string>'cast';
[a, cfg.port, n, k, (5 as const)]
