// The stdio benchmark (issue 2): mcp-codemode against a reference Node
// node:vm server, in the same run, over real stdio clients.
//   1. spawn -> initialize response, and spawn -> first execute_code result
//   2. `return 1+1` latency over sequential calls (raw line client and the
//      official SDK client), back to back and paced, at several pool sizes
//   3. idle memory of the whole process tree: RSS, PSS and USS sums
//   4. CPU time per call of the whole tree (C client, wait4)
//   5. RSS growth of the tree over many executions in one session (the
//      workers of one client are reused: nothing may accumulate)
// Prints medians over repeated runs with the p10-p90 spread; BENCH_OUT=FILE
// also writes the raw numbers as JSON. A benchmark, not a test: a missed
// target is reported, never fatal; the exit status is 1 only when something
// is broken (a call failed, a server died).
//
// Knobs (env): BENCH_ROUNDS (5), BENCH_CALLS (200), BENCH_SPAWNS (20),
// BENCH_WARMUP (20), BENCH_CPU_CALLS (1000), BENCH_GAP_MS (5), BENCH_POOLS ("1,2,4"),
// BENCH_GROWTH_CALLS (10000; 0 skips section 5), BENCH_QUICK=1
// (a fast smoke run), MCP_CODEMODE_BIN (default build/mcp-codemode),
// BENCH_BASE_BIN (another build, e.g. main's, run interleaved as "base pool 2").
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { RawClient } from './lib/raw_client.mjs';
import { SdkClient } from './lib/sdk_client.mjs';
import { combineRounds, median, percentile, summarize } from './lib/stats.mjs';
import { treeMemory } from './lib/proc.mjs';
import { ours, ref, waitIdle, BIN } from './lib/targets.mjs';
import { sleep } from './lib/clock.mjs';
import { fmtMs, fmtMiB, fmtRatio, fmtSpread, table } from './lib/report.mjs';
import { cClientAvailable, runCClient, C_CLIENT } from './lib/c_client.mjs';
import { describeMachine, probeMachine } from './lib/machine.mjs';

const quick = process.env.BENCH_QUICK === '1';
const num = (name, dflt, quickValue) => Number(process.env[name] ?? (quick ? quickValue : dflt));
const CFG = {
    rounds: num('BENCH_ROUNDS', 5, 2),
    calls: num('BENCH_CALLS', 200, 50),
    spawns: num('BENCH_SPAWNS', 20, 5),
    warmup: num('BENCH_WARMUP', 20, 5),
    cpuCalls: num('BENCH_CPU_CALLS', 1000, 200),
    gapMs: num('BENCH_GAP_MS', 5, 5),
    pools: (process.env.BENCH_POOLS ?? '1,2,4').split(',').map(Number),
    growthCalls: num('BENCH_GROWTH_CALLS', 10000, 2000),
};
const DEFAULT_POOL = 2;
const BASE_KEY = `base pool ${DEFAULT_POOL}`;
const CODE = 'return 1+1';
const EXPECT = '2';
// Issue 2's targets, and issue 13's, judged against this run's reference:
// p50 <= 0.25x the reference's, CPU per call of the tree <= 0.3 ms, RSS
// growth over 10,000 executions in one session < 2 MiB.
const TARGETS = { spawnMs: 20, p50Ms: 0.5, speedup: 2.7, idleMiB: 12, p50Ratio: 0.25, cpuMs: 0.3, growthMiB: 2 };

const failures = [];
function fail(what, err) {
    failures.push({ what, error: String(err?.message ?? err) });
    console.error(`bench: FAILED ${what}: ${err?.message ?? err}`);
}

// --- 1. spawn -> initialize ----------------------------------------------------------------

async function spawnOnce(target) {
    const c = new RawClient(target.command, target.args, target.env);
    try {
        const init = await c.initialize();
        const first = await c.execute(CODE, EXPECT);
        return { initMs: init.tRecv - c.tSpawn, firstResultMs: first.tRecv - c.tSpawn };
    } catch (err) {
        throw new Error(`${err.message}${c.stderrNote()}`);
    } finally {
        const st = await c.close();
        if (st.signal === 'SIGKILL') fail(`${target.name}: exit at EOF`, 'did not exit within 3 s of stdin closing');
    }
}

/** Spawns interleave the targets and the two clients, so load drift hits them alike. */
async function benchSpawn(targets) {
    const useC = cClientAvailable();
    const blank = () => ({ initMs: [], firstResultMs: [] });
    const out = new Map(targets.map((t) => [t, { node: blank(), c: useC ? blank() : null }]));
    const add = (into, r) => {
        into.initMs.push(r.initMs);
        into.firstResultMs.push(r.firstResultMs);
    };
    for (let i = 0; i < CFG.spawns; i++) {
        for (const t of targets) {
            try {
                add(out.get(t).node, await spawnOnce(t));
                await sleep(20); // let the previous tree die away
                if (useC) for (const r of await runCClient(t, 1, 0)) add(out.get(t).c, r);
            } catch (err) {
                fail(`${t.name}: spawn run ${i}`, err);
            }
        }
    }
    return out;
}

// --- 2 and 3. latency rounds with memory ------------------------------------------------------

async function timedCalls(c, n, gapMs) {
    const ms = [];
    for (let i = 0; i < n; i++) {
        if (gapMs) await sleep(gapMs);
        ms.push((await c.execute(CODE, EXPECT)).ms);
    }
    return ms;
}

/** One fresh server: idle memory, warm-up, back-to-back calls, idle memory again, paced calls. */
async function rawRound(target) {
    const c = new RawClient(target.command, target.args, target.env);
    try {
        await c.initialize();
        await waitIdle(target, c.pid);
        const memFresh = treeMemory(c.pid);
        await timedCalls(c, CFG.warmup, 0);
        const b2b = await timedCalls(c, CFG.calls, 0);
        await waitIdle(target, c.pid);
        const memAfter = treeMemory(c.pid);
        const ping = [];
        for (let i = 0; i < CFG.calls; i++) ping.push((await c.request('ping', {})).ms);
        const paced = await timedCalls(c, CFG.calls, CFG.gapMs);
        return { b2b, ping, paced, memFresh, memAfter };
    } catch (err) {
        throw new Error(`${err.message}${c.stderrNote()}`);
    } finally {
        await c.close();
    }
}

async function sdkRound(target) {
    const c = await SdkClient.connect(target.command, target.args, target.env);
    try {
        for (let i = 0; i < CFG.warmup; i++) await c.execute(CODE, EXPECT);
        const ms = [];
        for (let i = 0; i < CFG.calls; i++) ms.push((await c.execute(CODE, EXPECT)).ms);
        return ms;
    } catch (err) {
        throw new Error(`${err.message}${c.stderr ? `; its stderr:\n${c.stderr.slice(-2000)}` : ''}`);
    } finally {
        await c.close();
    }
}

/** Rounds interleave the targets, so drift in machine load hits them alike. */
async function benchLatency(rawTargets, sdkTargets) {
    const raw = new Map(rawTargets.map((t) => [t, { b2b: [], ping: [], paced: [], memFresh: [], memAfter: [] }]));
    const sdk = new Map(sdkTargets.map((t) => [t, []]));
    for (let r = 0; r < CFG.rounds; r++) {
        for (const t of rawTargets) {
            try {
                const x = await rawRound(t);
                for (const k of Object.keys(x)) raw.get(t)[k].push(x[k]);
            } catch (err) {
                fail(`${t.name}: raw round ${r}`, err);
            }
        }
        for (const t of sdkTargets) {
            try {
                sdk.get(t).push(await sdkRound(t));
            } catch (err) {
                fail(`${t.name}: sdk round ${r}`, err);
            }
        }
    }
    return { raw, sdk };
}

// --- 4. CPU per call and the C client's latency ------------------------------------------------------

/**
 * CPU time of the server's whole tree per call: a run of N calls minus a run
 * of none (start-up, one call, exit), over N. Rounds interleave the targets.
 */
async function benchCpu(targets) {
    const out = new Map(targets.map((t) => [t, { cpuPerCallMs: [], calls: [] }]));
    if (!cClientAvailable()) return out;
    for (let r = 0; r < CFG.rounds; r++) {
        for (const t of targets) {
            try {
                const [base] = await runCClient(t, 1, 0);
                const [run] = await runCClient(t, 1, CFG.cpuCalls);
                out.get(t).cpuPerCallMs.push((run.cpuMs - base.cpuMs) / CFG.cpuCalls);
                out.get(t).calls.push(run.calls.slice(CFG.warmup));
            } catch (err) {
                fail(`${t.name}: cpu round ${r}`, err);
            }
        }
    }
    return out;
}

// --- summaries ---------------------------------------------------------------------------------

function memSummary(list) {
    const pick = (k) => list.map((m) => m[k] / 1024);
    const s = (k) => ({ median: median(pick(k)), p10: percentile(pick(k), 10), p90: percentile(pick(k), 90) });
    return { procs: median(list.map((m) => m.procs)), rssMiB: s('rssKiB'), pssMiB: s('pssKiB'), ussMiB: s('ussKiB'),
        lastRows: list.at(-1)?.rows.map((r) => ({ pid: r.pid, depth: r.depth, role: r.cmdline.slice(1, 2).join(' '),
            rssKiB: r.rssKiB, pssKiB: r.pssKiB, ussKiB: r.ussKiB })) };
}

function summarizeAll(spawn, lat, cpu) {
    const out = { config: CFG, binary: BIN, baseBinary: process.env.BENCH_BASE_BIN ?? null, node: process.version,
        spawn: {}, raw: {}, sdk: {}, c: {}, cpu: {}, memory: {} };
    for (const [t, v] of cpu) {
        if (v.cpuPerCallMs.length === 0) continue;
        out.c[t.short] = combineRounds(v.calls);
        out.cpu[t.short] = { median: median(v.cpuPerCallMs), p10: percentile(v.cpuPerCallMs, 10),
            p90: percentile(v.cpuPerCallMs, 90), rounds: v.cpuPerCallMs };
    }
    const sum = (v) => ({ initMs: summarize(v.initMs), firstResultMs: summarize(v.firstResultMs), samples: v });
    for (const [t, v] of spawn) out.spawn[t.short] = { node: sum(v.node), c: v.c ? sum(v.c) : null };
    for (const [t, v] of lat.raw) {
        if (v.b2b.length === 0) continue;
        out.raw[t.short] = { backToBack: combineRounds(v.b2b), ping: combineRounds(v.ping), paced: combineRounds(v.paced),
            gapMs: CFG.gapMs };
        out.memory[t.short] = { fresh: memSummary(v.memFresh), afterCalls: memSummary(v.memAfter) };
    }
    for (const [t, v] of lat.sdk) if (v.length) out.sdk[t.short] = combineRounds(v);
    return out;
}

// --- report ----------------------------------------------------------------------------------

const verdict = (ok) => (ok ? 'met' : 'MISSED');

function spawnCell(v) {
    return v ? `${fmtMs(v.p50)} [${fmtSpread(v.p10, v.p90)}]` : 'n/a';
}

function printSpawn(s, oursKey, refKey) {
    console.log(`\n1. Spawn to initialize response and to the first execute_code result (${CFG.spawns} spawns each; median [p10-p90])`);
    const rows = [];
    for (const client of ['c', 'node']) {
        const label = client === 'c' ? 'C posix_spawn' : 'Node raw';
        for (const [k, v] of Object.entries(s))
            if (v[client]) rows.push([label, k, spawnCell(v[client].initMs), spawnCell(v[client].firstResultMs)]);
        const o = s[oursKey]?.[client], r = s[refKey]?.[client];
        if (o && r) rows.push([label, 'ref/ours', fmtRatio(r.initMs.p50 / o.initMs.p50), fmtRatio(r.firstResultMs.p50 / o.firstResultMs.p50)]);
    }
    table(['client', 'server', 'spawn->initialize', 'spawn->first result'], rows);
    if (!s[oursKey]?.c) console.log(`   (no C client: build ${C_CLIENT} with scripts/run-bench.sh for figures without Node's own fork cost)`);
    console.log('   Node raw includes Node forking itself (child_process.spawn of a ~45 MiB process), as an Electron/Node host would.');
    const best = s[oursKey]?.c ?? s[oursKey]?.node;
    if (best) console.log(`   target: initialize <= ${TARGETS.spawnMs} ms: ${verdict(best.initMs.p50 <= TARGETS.spawnMs)}` +
        ` (C client ${fmtMs(s[oursKey]?.c?.initMs.p50)}, Node client ${fmtMs(s[oursKey]?.node?.initMs.p50)})`);
}

function latRow(client, key, v) {
    return [client, key, fmtMs(v.p50), fmtMs(v.p95), fmtMs(v.p99), fmtSpread(v.p10, v.p90)];
}

function printLatency(out, oursKey, refKey) {
    console.log(`\n2. execute_code \`${CODE}\` latency: ${CFG.calls} sequential calls x ${CFG.rounds} rounds`);
    console.log('   (p50/p95/p99 = median over rounds; spread = p10-p90 of all calls pooled;');
    console.log(`    raw = Node line client, sdk = official SDK Client, C = C line client, ${CFG.cpuCalls - CFG.warmup} calls a round)`);
    const rows = [];
    for (const [k, v] of Object.entries(out.raw)) rows.push(latRow('raw', `${k}, back to back`, v.backToBack));
    for (const [k, v] of Object.entries(out.raw)) rows.push(latRow('raw', `${k}, ${CFG.gapMs} ms apart`, v.paced));
    for (const [k, v] of Object.entries(out.raw)) rows.push(latRow('raw', `${k}, ping (no worker)`, v.ping));
    for (const [k, v] of Object.entries(out.sdk)) rows.push(latRow('sdk', `${k}, back to back`, v));
    for (const [k, v] of Object.entries(out.c)) rows.push(latRow('C', `${k}, back to back`, v));
    table(['client', 'server', 'p50', 'p95', 'p99', 'spread'], rows);
    const o = out.raw[oursKey]?.backToBack, r = out.raw[refKey]?.backToBack;
    const os = out.sdk[oursKey], rs = out.sdk[refKey];
    if (o && r) console.log(`   ref/ours p50, raw client: ${fmtRatio(r.p50 / o.p50)}; p99: ${fmtRatio(r.p99 / o.p99)}`);
    if (os && rs) console.log(`   ref/ours p50, SDK client: ${fmtRatio(rs.p50 / os.p50)}`);
    const oc = out.c[oursKey], rc = out.c[refKey];
    if (oc && rc) console.log(`   ref/ours p50, C client: ${fmtRatio(rc.p50 / oc.p50)}`);
    const b = out.raw[BASE_KEY], bc = out.c[BASE_KEY];
    if (b && o) console.log(`   base/ours p50: raw back to back ${fmtRatio(b.backToBack.p50 / o.p50)}, ` +
        `${CFG.gapMs} ms apart ${fmtRatio(b.paced.p50 / out.raw[oursKey].paced.p50)}` +
        (bc && oc ? `, C client ${fmtRatio(bc.p50 / oc.p50)}` : ''));
    if (o) {
        const paced = out.raw[oursKey].paced.p50;
        console.log(`   target: p50 <= ${TARGETS.p50Ms} ms (${oursKey}): raw client ${fmtMs(o.p50)} ${verdict(o.p50 <= TARGETS.p50Ms)}` +
            (oc ? `; C client ${fmtMs(oc.p50)} ${verdict(oc.p50 <= TARGETS.p50Ms)}` : '') +
            `; raw, ${CFG.gapMs} ms apart ${fmtMs(paced)} ${verdict(paced <= TARGETS.p50Ms)}`);
        if (r) console.log(`   target (issue 13): p50 <= ${TARGETS.p50Ratio}x this run's reference: raw client ` +
            `${(o.p50 / r.p50).toFixed(3)}x ${verdict(o.p50 / r.p50 <= TARGETS.p50Ratio)}` +
            (oc && rc ? `; C client ${(oc.p50 / rc.p50).toFixed(3)}x ${verdict(oc.p50 / rc.p50 <= TARGETS.p50Ratio)}` : ''));
        console.log(`   target: >= ${TARGETS.speedup}x faster than a node:vm server: this run's reference ` +
            `${r ? `${fmtRatio(r.p50 / o.p50)} ${verdict(r.p50 / o.p50 >= TARGETS.speedup)}` : 'n/a'}; ` +
            `the issue's 1.36 ms ${fmtRatio(1.36 / o.p50)} ${verdict(1.36 / o.p50 >= TARGETS.speedup)}`);
    }
}

function printCpu(out, oursKey, refKey) {
    if (Object.keys(out.cpu).length === 0) return;
    console.log(`\n4. CPU time per call of the whole server tree (C client, wait4; (run of ${CFG.cpuCalls} calls - run of none) / ${CFG.cpuCalls})`);
    console.log('   On 2 cores, back-to-back latency cannot stay below about half of this: it bounds throughput.');
    const rows = Object.entries(out.cpu).map(([k, v]) => [k, `${fmtMs(v.median)} [${fmtSpread(v.p10, v.p90)}]`]);
    const o = out.cpu[oursKey], r = out.cpu[refKey], b = out.cpu[BASE_KEY];
    if (o && r) rows.push(['ref/ours', fmtRatio(r.median / o.median)]);
    if (o && b) rows.push(['base/ours', fmtRatio(b.median / o.median)]);
    table(['server', 'CPU per call'], rows);
    if (o) console.log(`   target (issue 13): <= ${TARGETS.cpuMs} ms per call (${oursKey}): ${fmtMs(o.median)} ` +
        `${verdict(o.median <= TARGETS.cpuMs)}`);
}

// --- 5. RSS growth over many executions in one session ---------------------------------------------

/**
 * One session of many `return 1+1` calls: the tree's idle memory after the
 * warm-up (the client's worker kept) and after growthCalls more calls.
 */
async function benchGrowth(target) {
    if (CFG.growthCalls <= 0) return null;
    const c = new RawClient(target.command, target.args, target.env);
    try {
        await c.initialize();
        await waitIdle(target, c.pid);
        const fresh = treeMemory(c.pid);
        await timedCalls(c, CFG.warmup, 0);
        await waitIdle(target, c.pid);
        const warm = treeMemory(c.pid);
        const t0 = Date.now();
        await timedCalls(c, CFG.growthCalls, 0);
        const wallMs = Date.now() - t0;
        await waitIdle(target, c.pid);
        const after = treeMemory(c.pid);
        return { fresh, warm, after, wallMs };
    } catch (err) {
        fail(`${target.name}: growth`, `${err.message}${c.stderrNote()}`);
        return null;
    } finally {
        await c.close();
    }
}

function printGrowth(g, key) {
    if (g === null) return;
    const mib = (m) => (m.rssKiB / 1024).toFixed(2);
    const grow = (g.after.rssKiB - g.warm.rssKiB) / 1024;
    console.log(`\n5. RSS of the tree in one session (${key}): ${CFG.growthCalls} calls after a warm-up of ${CFG.warmup} ` +
        `(${(g.wallMs / CFG.growthCalls).toFixed(3)} ms a call)`);
    table(['when', 'procs', 'RSS sum MiB', 'PSS sum MiB'], [
        ['fresh, pool full', String(g.fresh.procs), mib(g.fresh), (g.fresh.pssKiB / 1024).toFixed(2)],
        [`after ${CFG.warmup} calls`, String(g.warm.procs), mib(g.warm), (g.warm.pssKiB / 1024).toFixed(2)],
        [`after ${CFG.warmup + CFG.growthCalls} calls`, String(g.after.procs), mib(g.after), (g.after.pssKiB / 1024).toFixed(2)],
    ]);
    console.log(`   target (issue 13): RSS grows < ${TARGETS.growthMiB} MiB over ${CFG.growthCalls} executions: ` +
        `${grow.toFixed(2)} MiB since the warm-up ${verdict(grow < TARGETS.growthMiB)}; ` +
        `${((g.after.rssKiB - g.fresh.rssKiB) / 1024).toFixed(2)} MiB since the fresh server; ` +
        `idle RSS after them <= ${TARGETS.idleMiB} MiB ${verdict(g.after.rssKiB / 1024 <= TARGETS.idleMiB)}`);
}

function memRows(out, when) {
    return Object.entries(out.memory).map(([k, v]) => {
        const m = v[when];
        return [k, String(m.procs), fmtMiB(m.rssMiB), fmtMiB(m.pssMiB), fmtMiB(m.ussMiB)];
    });
}

function printMemory(out, oursKey, refKey) {
    console.log(`\n3. Idle memory of the whole tree (server + zygote + idle workers), MiB, median [p10-p90] over ${CFG.rounds} rounds`);
    console.log('   PSS is the honest sum (shared copy-on-write pages split among sharers); RSS sums count them once per process');
    table(['server (fresh, pool full)', 'procs', 'RSS sum', 'PSS sum', 'USS sum'], memRows(out, 'fresh'));
    table([`after ${CFG.warmup + CFG.calls} calls, idle again`, 'procs', 'RSS sum', 'PSS sum', 'USS sum'], memRows(out, 'afterCalls'));
    const o = out.memory[oursKey]?.fresh, r = out.memory[refKey]?.fresh;
    if (o && r) console.log(`   ref/ours: RSS ${fmtRatio(r.rssMiB.median / o.rssMiB.median)}, PSS ${fmtRatio(r.pssMiB.median / o.pssMiB.median)}`);
    if (o) console.log(`   target: <= ${TARGETS.idleMiB} MiB (${oursKey}): PSS ${verdict(o.pssMiB.median <= TARGETS.idleMiB)}, ` +
        `RSS ${verdict(o.rssMiB.median <= TARGETS.idleMiB)}`);
}

function loadavg() {
    try {
        return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    } catch {
        return 'n/a';
    }
}

const cpus = () => availableParallelism();

// --- main ----------------------------------------------------------------------------------------

async function main() {
    const oursTargets = CFG.pools.map((n) => ours(n));
    const refTarget = ref();
    const dflt = oursTargets.find((t) => t.poolSize === DEFAULT_POOL) ?? oursTargets[0];
    const load0 = loadavg();
    console.log(`mcp-codemode stdio benchmark: ${BIN}`);
    if (process.env.BENCH_BASE_BIN) console.log(`baseline ("base", interleaved): ${process.env.BENCH_BASE_BIN}`);
    console.log(`node ${process.version}; rounds=${CFG.rounds} calls=${CFG.calls} warmup=${CFG.warmup} spawns=${CFG.spawns} pools=${CFG.pools}`);
    const machine = await probeMachine();
    console.log(describeMachine(machine));
    const base = process.env.BENCH_BASE_BIN ? [ours(DEFAULT_POOL, process.env.BENCH_BASE_BIN, 'base')] : [];
    const spawn = await benchSpawn([dflt, ...base, refTarget]);
    const lat = await benchLatency([...oursTargets, ...base, refTarget], [dflt, ...base, refTarget]);
    const cpu = await benchCpu([...oursTargets, ...base, refTarget]);
    const growth = await benchGrowth(dflt);
    const out = summarizeAll(spawn, lat, cpu);
    out.growth = growth;
    out.failures = failures;
    out.machine = machine;
    out.loadavg = { start: load0, end: loadavg() };
    printSpawn(out.spawn, dflt.short, refTarget.short);
    printLatency(out, dflt.short, refTarget.short);
    printMemory(out, dflt.short, refTarget.short);
    printCpu(out, dflt.short, refTarget.short);
    printGrowth(growth, dflt.short);
    console.log(`\nload average (1, 5, 15 min): ${out.loadavg.start} at start, ${out.loadavg.end} at end (${cpus()} CPUs)`);
    if (process.env.BENCH_OUT) {
        writeFileSync(process.env.BENCH_OUT, JSON.stringify(out, null, 1) + '\n');
        console.log(`\nraw numbers: ${process.env.BENCH_OUT}`);
    }
    if (failures.length) {
        console.log(`\n${failures.length} failure(s): the numbers above are incomplete`);
        process.exitCode = 1;
    }
}

// Exits explicitly: a server that misbehaved must not keep the benchmark alive.
main().then(
    () => process.exit(process.exitCode ?? 0),
    (err) => {
        console.error(`bench: ${err.stack ?? err}`);
        process.exit(1);
    },
);
