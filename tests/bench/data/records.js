// The records program: 20,000 records to ~2.8 MB of JSON and back, a Map keyed by
// label filled in a for...of, a Set of users, filter with a regex, sort, Object.fromEntries.
// Returns per-part times too.
const T = () => Date.now();
const parts = {};
let t = T();
const t0 = t;
const labels = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
const recs = [];
for (let i = 0; i < 20000; i++) {
    recs.push({ id: i, user: 'user' + (i % 997), label: labels[i % 8] + '-' + (i % 37),
        score: (i * 7919) % 1000 / 10, active: i % 3 !== 0, tags: ['t' + (i % 5), 't' + (i % 11)],
        note: 'record number ' + i + ' of the benchmark set' });
}
const text = JSON.stringify(recs);
parts.build = T() - t; t = T();
const rows = JSON.parse(text);
parts.parse = T() - t; t = T();
const byLabel = new Map();
for (const r of rows) {
    const g = byLabel.get(r.label);
    if (g) { g.n++; g.sum += r.score; } else byLabel.set(r.label, { n: 1, sum: r.score });
}
parts.map = T() - t; t = T();
const users = new Set(rows.map((r) => r.user));
parts.set = T() - t; t = T();
const picked = rows.filter((r) => /^(alpha|gamma)-1\d$/.test(r.label) && r.active);
parts.filter = T() - t; t = T();
picked.sort((a, b) => b.score - a.score || a.id - b.id);
parts.sort = T() - t; t = T();
const summary = Object.fromEntries([...byLabel].map(([k, g]) => [k, Math.round(g.sum / g.n)]));
parts.entries = T() - t;
return { ms: T() - t0, parts, check: [text.length, byLabel.size, users.size, picked.length, picked[0].id, Object.keys(summary).length, summary['beta-5']] };
