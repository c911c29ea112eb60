// The data-work benchmark (issue 26): the programs in tests/bench/data/*.js -
// records (build 20,000 records, JSON round trip, Map, Set, regex filter,
// sort, Object.fromEntries), nested grouping, string building with +=,
// sorting 60,000 objects by two keys, Array.from({length}) pipelines, regex
// extraction over 1 MB of text, and a plain integer loop - each run through
// mcp-codemode and through the node:vm reference server
// (tests/bench/ref_vm_server.mjs) in the same run, interleaved round by round.
// Each program times its own work (Date.now() around it) and returns
// {ms, check, parts?}; the `check` values must be equal on every target (a
// mismatch is a failure: the benchmark would compare different work).
// Prints per program the medians over rounds (inside the program, and the
// execute_code round trip), the ratio to node:vm and the target met or
// missed; the records program's parts (JSON.parse, Map in for...of, ...) too.
// A benchmark, not a test: a missed target is reported, never fatal; the exit
// status is 1 only when something is broken.
//
// Knobs (env): BENCH_ROUNDS (5), BENCH_WARMUP (2 runs of each program per
// target before measuring: node:vm's JIT), BENCH_DATA_ONLY (comma-separated
// program names), BENCH_DATA_REF (1: include node:vm), BENCH_BASE_BIN
// (another build run interleaved as "base"), BENCH_QUICK=1 (2 rounds, 1
// warm-up), MCP_CODEMODE_BIN, BENCH_OUT (write the raw numbers as JSON).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RawClient } from './lib/raw_client.mjs';
import { median, percentile } from './lib/stats.mjs';
import { BIN, REF, waitIdle } from './lib/targets.mjs';
import { describeMachine, probeMachine } from './lib/machine.mjs';
import { fmtMs, fmtRatio, table } from './lib/report.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.env.BENCH_QUICK === '1';
const num = (name, dflt, quickValue) => Number(process.env[name] ?? (quick ? quickValue : dflt));
const CFG = {
    rounds: num('BENCH_ROUNDS', 5, 2),
    warmup: num('BENCH_WARMUP', 2, 1),
    ref: process.env.BENCH_DATA_REF !== '0',
    only: process.env.BENCH_DATA_ONLY ? process.env.BENCH_DATA_ONLY.split(',').map((s) => s.trim()) : null,
};
// The targets, as the largest ratio to node:vm's time inside the program.
const TARGET_RATIO = { intloop: 12 };
const DEFAULT_TARGET_RATIO = 2.5;
const POOL = 1;

const failures = [];
function fail(what, err) {
    failures.push({ what, error: String(err?.message ?? err) });
    console.error(`bench: FAILED ${what}: ${err?.message ?? err}`);
}

const DATA = join(here, 'data');
const programs = readdirSync(DATA)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ name: f.slice(0, -3), code: readFileSync(join(DATA, f), 'utf8') }))
    .filter((p) => !CFG.only || CFG.only.includes(p.name));

function cleanEnv() {
    const env = { ...process.env };
    delete env.MCP_CODEMODE_CONFIG;
    return env;
}

function oursTarget(bin, label) {
    return { name: `${label} (${bin} --pool-size ${POOL})`, short: label, kind: 'ours', poolSize: POOL, command: bin,
        args: ['--stdio', '--pool-size', String(POOL), '--max-timeout-ms', '600000'], env: cleanEnv() };
}

const targets = [oursTarget(BIN, 'ours')];
if (process.env.BENCH_BASE_BIN) targets.push(oursTarget(process.env.BENCH_BASE_BIN, 'base'));
if (CFG.ref) targets.push({ name: 'reference Node server (SDK McpServer + node:vm)', short: 'node:vm', kind: 'ref',
    command: process.execPath, args: [REF], env: cleanEnv() });

/** Runs one program; resolves {ms, totalMs, check, parts}; throws unless it succeeded. */
async function execute(c, code) {
    const r = await c.request('tools/call', { name: 'execute_code', arguments: { code, timeoutMs: 600000 } });
    const res = r.msg.result;
    const text = res?.content?.[0]?.text;
    if (res?.isError) throw new Error(`execute_code failed: ${String(text).slice(0, 500)}`);
    const v = JSON.parse(text);
    if (typeof v?.ms !== 'number') throw new Error(`the program returned ${String(text).slice(0, 200)}`);
    return { ms: v.ms, totalMs: r.ms, check: JSON.stringify(v.check), parts: v.parts ?? null };
}

// --- run: one server per target for the whole run, rounds interleaved ------------------------------------

const machine = await probeMachine();
console.log(describeMachine(machine));
console.log(`data programs: ${programs.map((p) => p.name).join(', ')}; ${CFG.rounds} rounds after ${CFG.warmup} warm-up run(s) each`);

const clients = new Map();
const samples = new Map(); // `${target}/${program}` -> [{ms, totalMs, parts}]
const checks = new Map(); // program -> {target, check}
try {
    for (const t of targets) {
        const c = new RawClient(t.command, t.args, t.env);
        await c.initialize();
        clients.set(t.short, c);
        for (const p of programs) for (let i = 0; i < CFG.warmup; i++) await execute(c, p.code);
        await waitIdle(t, c.pid);
    }
    for (let round = 0; round < CFG.rounds; round++) {
        for (const p of programs) {
            for (const t of targets) {
                const c = clients.get(t.short);
                try {
                    const r = await execute(c, p.code);
                    const key = `${t.short}/${p.name}`;
                    if (!samples.has(key)) samples.set(key, []);
                    samples.get(key).push(r);
                    const seen = checks.get(p.name);
                    if (!seen) checks.set(p.name, { target: t.short, check: r.check });
                    else if (seen.check !== r.check)
                        fail(`${p.name} on ${t.short}`, `check ${r.check} differs from ${seen.target}'s ${seen.check}`);
                    await waitIdle(t, c.pid);
                } catch (err) {
                    fail(`${p.name} on ${t.short}`, `${err.message}${c.stderrNote()}`);
                }
            }
        }
        process.stdout.write(`round ${round + 1}/${CFG.rounds} done\n`);
    }
} catch (err) {
    fail('setup', err);
} finally {
    for (const c of clients.values()) await c.close();
}

// --- report ---------------------------------------------------------------------------------------------

const stat = (xs) => ({ n: xs.length, median: median(xs), p10: percentile(xs, 10), p90: percentile(xs, 90) });
const cell = (s) => (s && s.n ? `${fmtMs(s.median)} [${s.p10.toFixed(0)}-${s.p90.toFixed(0)}]` : 'n/a');
const out = { config: CFG, binary: BIN, baseBinary: process.env.BENCH_BASE_BIN ?? null, node: process.version, machine, programs: {} };
for (const p of programs) {
    const o = (out.programs[p.name] = { targetRatio: TARGET_RATIO[p.name] ?? DEFAULT_TARGET_RATIO, targets: {} });
    for (const t of targets) {
        const xs = samples.get(`${t.short}/${p.name}`) ?? [];
        const parts = {};
        for (const k of Object.keys(xs[0]?.parts ?? {})) parts[k] = stat(xs.map((x) => x.parts[k]));
        o.targets[t.short] = { inside: stat(xs.map((x) => x.ms)), roundTrip: stat(xs.map((x) => x.totalMs)), parts };
    }
}

const shorts = targets.map((t) => t.short);
const hasRef = shorts.includes('node:vm');
console.log(`\nTime inside each program, median over ${CFG.rounds} rounds [p10-p90] (Date.now() resolution: 1 ms)`);
const rows = [];
for (const [name, o] of Object.entries(out.programs)) {
    const ref = o.targets['node:vm']?.inside.median;
    const ratio = o.targets.ours.inside.median / ref;
    const row = [name, ...shorts.map((s) => cell(o.targets[s].inside))];
    if (hasRef) row.push(fmtRatio(ratio), `<= ${o.targetRatio}x`, ratio <= o.targetRatio ? 'met' : 'MISSED');
    if (out.baseBinary) row.push(fmtRatio(o.targets.ours.inside.median / o.targets.base.inside.median));
    rows.push(row);
}
table(['program', ...shorts, ...(hasRef ? ['ours/node:vm', 'target', ''] : []), ...(out.baseBinary ? ['ours/base'] : [])], rows);

console.log('\nexecute_code round trip (median)');
table(['program', ...shorts], Object.entries(out.programs).map(([name, o]) => [name, ...shorts.map((s) => fmtMs(o.targets[s].roundTrip.median))]));

for (const [name, o] of Object.entries(out.programs)) {
    const keys = Object.keys(o.targets.ours.parts);
    if (!keys.length) continue;
    console.log(`\n${name}: its parts (median ms)`);
    table(['part', ...shorts, ...(hasRef ? ['ours/node:vm'] : [])], keys.map((k) => [k, ...shorts.map((s) => fmtMs(o.targets[s].parts[k]?.median)),
        ...(hasRef ? [fmtRatio(o.targets.ours.parts[k].median / o.targets['node:vm'].parts[k].median)] : [])]));
}

out.failures = failures;
if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify(out, null, 1));
process.exit(failures.length ? 1 : 0);
