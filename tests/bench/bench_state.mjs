// The state store benchmark (issue 29): state.get and state.set round trips
// on the SQLite file and on PostgreSQL on loopback (a throwaway cluster,
// tests/lib/pg_cluster.sh), in the same run, over the raw stdio client.
// Each call is one execute_code that makes OPS operations in a row; the
// baseline is the same call without them (`return 1`), so that
//   per operation = (call - baseline) / OPS
// is what one round trip to the store costs a program (p50 and p99 of the
// calls). Target: PostgreSQL adds at most 1 ms p50 per operation over SQLite.
// Then CONC operations at once from one program (Promise.all of state.get,
// of state.set on distinct keys): more than the pool's connections, so
// PostgreSQL's pool queues them; with pipeline mode (libpq 14+) the queued
// ones share a connection's pipeline. And one content.stash per call (the
// shared stash's write: a transaction of several statements, one round trip
// in a pipeline). PostgreSQL runs twice in the same run,
// pipeline on and off (MCP_CODEMODE_PG_PIPELINE=0), and the ratio is printed.
// A benchmark, not a test: a missed target is reported, never fatal.
//
// Knobs (env): BENCH_CALLS (300), BENCH_OPS (10), BENCH_CONC (100),
// BENCH_WARMUP (30), MCP_CODEMODE_BIN (default build/mcp-codemode).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RawClient } from './lib/raw_client.mjs';
import { nowMs } from './lib/clock.mjs';
import { percentile } from './lib/stats.mjs';
import { fmtMs, table } from './lib/report.mjs';
import { BIN } from './lib/targets.mjs';
import { pgAvailable, startCluster } from '../e2e/lib/pg.mjs';

const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const OPS = Number(process.env.BENCH_OPS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const CONC = Number(process.env.BENCH_CONC ?? 100);

if (!pgAvailable()) {
    console.log('bench_state: PostgreSQL (initdb, pg_ctl) is not installed: scripts/setup.sh --npm');
    process.exit(0);
}

const dir = mkdtempSync(path.join(tmpdir(), 'bench-state-'));
const cluster = startCluster();
const db = cluster.database('bench_state');

function config(name, codemode) {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ mcpServers: {}, codemode: { poolSize: 1, ...codemode } }));
    return file;
}

const pgFile = config('pg', { store: { url: cluster.url(db) } });
const targets = [
    ['SQLite', config('sqlite', { state: { path: path.join(dir, 'state.db') } }), {}],
    ['PostgreSQL', pgFile, {}],
    ['PostgreSQL, no pipeline', pgFile, { MCP_CODEMODE_PG_PIPELINE: '0' }],
];

const programs = {
    baseline: 'return 1',
    get: `let v; for (let i = 0; i < ${OPS}; i++) v = await state.get("k"); return v;`,
    set: `let v; for (let i = 0; i < ${OPS}; i++) v = await state.set("k", 1); return v > 0 ? 1 : 0;`,
    [`get x${CONC} at once`]: `const v = await Promise.all(Array.from({ length: ${CONC} }, () => state.get("k"))); return v.length;`,
    [`set x${CONC} at once`]: `const v = await Promise.all(Array.from({ length: ${CONC} }, (_, i) => state.set("c" + i, i))); return v.length;`,
    // one entry kept: on PostgreSQL a transaction of 6 statements (lock,
    // expiry, insert, eviction), one round trip with a pipeline; on SQLite
    // the stash stays in memory
    'stash put': `return await content.stash("v")`,
};
const sequential = ['get', 'set'];
const opsOf = (what) => (sequential.includes(what) ? OPS : what === 'stash put' ? 1 : CONC);

async function timeCalls(client, code) {
    const out = [];
    for (let i = 0; i < CALLS; i++) {
        const t0 = nowMs();
        await client.execute(code);
        out.push(nowMs() - t0);
    }
    return out;
}

const results = {};
const clients = [];
for (const [name, file, env] of targets) {
    const c = new RawClient(BIN, ['--config', file, '--stdio'], { ...process.env, ...env });
    await c.initialize();
    await c.execute('return await state.set("k", 1)');
    for (let i = 0; i < WARMUP; i++) for (const code of Object.values(programs)) await c.execute(code);
    clients.push([name, c]);
    results[name] = Object.fromEntries(Object.keys(programs).map((k) => [k, []]));
}
// interleaved, so that both see the same machine
for (let round = 0; round < 3; round++)
    for (const [name, c] of clients)
        for (const [what, code] of Object.entries(programs)) results[name][what].push(...(await timeCalls(c, code)));
for (const [, c] of clients) await c.close();

const rows = [];
const perOp = {};
for (const [name] of targets) {
    const r = results[name];
    const base50 = percentile(r.baseline, 50), base99 = percentile(r.baseline, 99);
    rows.push([name, 'baseline (no state)', fmtMs(base50), fmtMs(base99), '']);
    for (const what of Object.keys(programs).filter((k) => k !== 'baseline')) {
        const ops = opsOf(what);
        const p50 = percentile(r[what], 50), p99 = percentile(r[what], 99);
        const op50 = (p50 - base50) / ops, op99 = (p99 - base99) / ops;
        perOp[`${name} ${what}`] = { p50: op50, p99: op99, call50: p50, call99: p99 };
        const label = sequential.includes(what) ? `${OPS}x state.${what}` : what === 'stash put' ? 'content.stash' : `state.${what}`;
        rows.push([name, label, fmtMs(p50), fmtMs(p99), `${fmtMs(op50)} p50, ${fmtMs(op99)} p99`]);
    }
}
console.log(`state store round trips (${CALLS * 3} calls each, ${OPS} operations per call in a row or ${CONC} at once, stdio, pool 1, 4 PostgreSQL connections)`);
table(['store', 'program', 'call p50', 'call p99', 'per operation'], rows);
for (const what of ['get', 'set']) {
    const extra = perOp[`PostgreSQL ${what}`].p50 - perOp[`SQLite ${what}`].p50;
    console.log(`   PostgreSQL adds ${fmtMs(extra)} p50 per state.${what} over SQLite (target <= 1 ms): ${extra <= 1 ? 'met' : 'MISSED'}`);
}
for (const what of Object.keys(programs).filter((k) => !sequential.includes(k) && k !== 'baseline')) {
    const on = perOp[`PostgreSQL ${what}`], off = perOp[`PostgreSQL, no pipeline ${what}`];
    const sq = perOp[`SQLite ${what}`];
    console.log(`   ${what}: call p50 pipeline on ${fmtMs(on.call50)}, off ${fmtMs(off.call50)} (off/on ${(off.call50 / on.call50).toFixed(2)}x); ` +
        `p99 on ${fmtMs(on.call99)}, off ${fmtMs(off.call99)}; SQLite p50 ${fmtMs(sq.call50)}`);
}
rmSync(dir, { recursive: true, force: true });
