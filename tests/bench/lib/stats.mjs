// Order statistics for the benchmarks: percentiles with linear interpolation,
// summaries of sample sets, and the median of per-round figures. Every figure
// we print is a median or a percentile, never a single run.

/** The p-th percentile (0..100) of an array of numbers; NaN when empty. */
export function percentile(values, p) {
    if (values.length === 0) return NaN;
    const s = Float64Array.from(values).sort();
    const pos = (s.length - 1) * (p / 100);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export const median = (values) => percentile(values, 50);

/** Summary of a sample set: count, min, p10, p50, p90, p95, p99, max, mean. */
export function summarize(values) {
    const out = { n: values.length };
    for (const p of [10, 50, 90, 95, 99]) out[`p${p}`] = percentile(values, p);
    out.min = values.length ? Math.min(...values) : NaN;
    out.max = values.length ? Math.max(...values) : NaN;
    out.mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
    return out;
}

/**
 * Combines rounds of samples: the median over rounds of each round's p50, p95
 * and p99, and the p10-p90 spread of all samples pooled.
 */
export function combineRounds(rounds) {
    const per = rounds.map(summarize);
    const all = rounds.flat();
    const pooled = summarize(all);
    return {
        rounds: per.length,
        n: all.length,
        p50: median(per.map((r) => r.p50)),
        p95: median(per.map((r) => r.p95)),
        p99: median(per.map((r) => r.p99)),
        p10: pooled.p10,
        p90: pooled.p90,
        min: pooled.min,
        max: pooled.max,
        perRound: per,
    };
}
