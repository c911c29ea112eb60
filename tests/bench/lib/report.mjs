// Plain-text formatting for benchmark reports: milliseconds, MiB with spread,
// ratios, and left-aligned tables with a header rule.

/** Milliseconds with precision that suits the magnitude. */
export function fmtMs(ms) {
    if (!Number.isFinite(ms)) return 'n/a';
    if (ms < 1) return `${ms.toFixed(3)} ms`;
    if (ms < 10) return `${ms.toFixed(2)} ms`;
    return `${ms.toFixed(1)} ms`;
}

/** {median, p10, p90} in MiB as "m [p10-p90]". */
export function fmtMiB(s) {
    return `${s.median.toFixed(2)} [${s.p10.toFixed(2)}-${s.p90.toFixed(2)}]`;
}

/** A p10-p90 spread in milliseconds: "0.52-1.34 ms". */
export function fmtSpread(lo, hi) {
    return `${fmtMs(lo).replace(' ms', '')}-${fmtMs(hi)}`;
}

export function fmtRatio(x) {
    return Number.isFinite(x) ? `${x.toFixed(2)}x` : 'n/a';
}

/** Prints rows of strings under headers, columns padded, indented 3 spaces. */
export function table(headers, rows) {
    const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
    const line = (cells) => '   ' + cells.map((c, i) => String(c).padEnd(widths[i])).join('  ').trimEnd();
    console.log(line(headers));
    console.log(line(widths.map((w) => '-'.repeat(w))));
    for (const r of rows) console.log(line(r));
}
