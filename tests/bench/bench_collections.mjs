// What Map and Set cost a program, against node:vm: each case builds its data,
// then times its body REPS times inside the engine (performance.now) and
// returns the median; every case runs in BENCH_ROUNDS fresh processes of
// `mcp-codemode run` and of node:vm (a fresh context per round), and the
// table prints the medians over the rounds and their ratio. A benchmark, not
// a test: the exit status is 1 only when a case fails to run.
//
// Knobs (env): BENCH_ROUNDS (5), MCP_CODEMODE_BIN (default build/mcp-codemode),
// BENCH_BASE_BIN (another build to compare, e.g. a baseline's binary).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { median } from './lib/stats.mjs';
import { BIN } from './lib/targets.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BASE = process.env.BENCH_BASE_BIN;

// Shared data: 20,000 records with 500 labels and 2,000 users.
const RECORDS = `
const records = [];
for (let i = 0; i < 20000; i++)
    records.push({ id: i, label: 'label-' + (i % 500), user: 'user' + (i * 7 % 2000), value: i % 97 });`;

const CASES = [
    {
        name: 'Map get/set in for...of, 20k records',
        reps: 5,
        setup: RECORDS,
        body: `
const byLabel = new Map();
for (const r of records) {
    const list = byLabel.get(r.label);
    if (list) list.push(r); else byLabel.set(r.label, [r]);
}
sink = byLabel.size;`,
    },
    {
        name: 'Map counter (has/get/set), 20k records',
        reps: 5,
        setup: RECORDS,
        body: `
const counts = new Map();
for (const r of records) counts.set(r.user, (counts.has(r.user) ? counts.get(r.user) : 0) + 1);
sink = counts.size;`,
    },
    {
        name: 'new Set(array.map(...)), 100k',
        reps: 5,
        setup: `const big = []; for (let i = 0; i < 100000; i++) big.push({ user: 'u' + (i % 5000), n: i });`,
        body: `sink = new Set(big.map(x => x.user)).size;`,
    },
    {
        name: 'Set of numbers add/has, 100k',
        reps: 5,
        setup: '',
        body: `
const s = new Set();
for (let i = 0; i < 100000; i++) s.add(i * 3);
let hits = 0;
for (let i = 0; i < 100000; i++) if (s.has(i)) hits++;
sink = hits;`,
    },
    {
        name: 'Map for...of [k, v], 20k entries x5',
        reps: 5,
        setup: `const m = new Map(); for (let i = 0; i < 20000; i++) m.set('k' + i, i);`,
        body: `
let total = 0;
for (let r = 0; r < 5; r++) for (const [k, v] of m) total += v + k.length;
sink = total;`,
    },
    {
        name: 'Map keys()/values()/forEach, 20k entries x5',
        reps: 5,
        setup: `const m = new Map(); for (let i = 0; i < 20000; i++) m.set(i, 'v' + i);`,
        body: `
let total = 0;
for (let r = 0; r < 5; r++) {
    for (const k of m.keys()) total += k;
    for (const v of m.values()) total += v.length;
    m.forEach((v, k) => { total += k; });
}
sink = total;`,
    },
    {
        name: '[...set], Array.from(map), 100k entries',
        reps: 5,
        setup: `const s = new Set(); for (let i = 0; i < 100000; i++) s.add(i); const m2 = new Map(); for (let i = 0; i < 20000; i++) m2.set(i, i);`,
        body: `sink = [...s].length + Array.from(m2).length;`,
    },
];

function program(c) {
    return `let sink = 0;
${c.setup}
const times = [];
for (let rep = 0; rep < ${c.reps}; rep++) {
    const t0 = performance.now();
    {${c.body}}
    times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
return times[times.length >> 1];`;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-coll-'));

function runOurs(bin, c) {
    const file = join(dir, 'case.js');
    writeFileSync(file, program(c));
    const r = spawnSync(bin, ['run', file, '--json'], { encoding: 'utf8', timeout: 300000 });
    const out = r.stdout.trim();
    let v;
    try {
        const j = JSON.parse(out);
        v = typeof j === 'number' ? j : j.result ?? j.value;
    } catch {
        v = Number(out);
    }
    if (typeof v !== 'number' || Number.isNaN(v)) throw new Error(`${c.name}: ${bin} gave ${out} ${r.stderr}`);
    return v;
}

function runNode(c) {
    const ctx = vm.createContext({ performance });
    return vm.runInContext(`(function () { ${program(c)} })()`, ctx);
}

let failed = false;
const rows = [];
for (const c of CASES) {
    try {
        const node = [], ours = [], base = [];
        for (let r = 0; r < ROUNDS; r++) {
            node.push(runNode(c));
            ours.push(runOurs(BIN, c));
            if (BASE) base.push(runOurs(BASE, c));
        }
        rows.push({ name: c.name, node: median(node), ours: median(ours), base: BASE ? median(base) : null });
    } catch (e) {
        failed = true;
        console.error(String(e.message || e));
    }
}
rmSync(dir, { recursive: true, force: true });

const f = (x) => x.toFixed(1).padStart(8);
console.log(`bench_collections: medians of ${ROUNDS} rounds, ms per repetition (each round: median of the case's repetitions)`);
console.log(`${'case'.padEnd(46)}${'node:vm'.padStart(8)}${'ours'.padStart(8)}  ratio${BASE ? `${'base'.padStart(9)}  ratio  speedup` : ''}`);
for (const r of rows) {
    let line = `${r.name.padEnd(46)}${f(r.node)}${f(r.ours)}  ${(r.ours / Math.max(r.node, 0.05)).toFixed(1).padStart(5)}x`;
    if (r.base !== null)
        line += ` ${f(r.base)}  ${(r.base / Math.max(r.node, 0.05)).toFixed(1).padStart(5)}x  ${(r.base / Math.max(r.ours, 0.05)).toFixed(1).padStart(5)}x`;
    console.log(line);
}
process.exit(failed ? 1 : 0);
