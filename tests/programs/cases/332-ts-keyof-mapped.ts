interface Stats { reads: number; writes: number; errors: number }
type Deltas = { [K in keyof Stats as `${K}Delta`]: number };
const before: Stats = { reads: 10, writes: 4, errors: 1 };
const after: Stats = { reads: 25, writes: 4, errors: 3 };
const keys = Object.keys(before) as (keyof Stats)[];
const deltas = Object.fromEntries(keys.map((k) => [`${k}Delta`, after[k] - before[k]])) as Deltas;
const changed = keys.filter((k) => after[k] !== before[k]);
return { deltas, changed };
