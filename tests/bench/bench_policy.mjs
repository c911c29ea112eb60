// The cost of the policy check on an allowed call (issue 14): the same C
// echo server behind mcp-codemode with no policy, with 40 rules (the echo
// tool allowed by an exact rule among globs for other servers, plus a
// per-server policy), the same with a per-execution grant (allow), and with
// the audit log on (arguments hashed). Every variant runs in the same
// process run, in many short rounds; within a round each variant runs once,
// in a rotating order, so a load drift hits them alike. Per call: the host
// process's CPU time (schedstat: where the check runs, much steadier than
// wall time on a shared machine) and the wall time inside the program
// (Date.now() around N sequential calls). The ratio that judges the target
// is computed per round (variant / no policy, the same round) and its
// median over the rounds is reported with the 25th-75th percentiles: a
// burst of load that slows one round cancels out in that round's ratio
// instead of moving a median of raw times. The no-policy config runs twice:
// its ratio is the noise of the run (its quartiles show how far one round
// strays). Target: <= 1.05 for rules and grants, on host CPU per call (the
// audit log does real work per call: reported, no target). A benchmark,
// not a test: a missed target is reported, never fatal; exit 1 only when a
// call failed.
//
// Knobs (env): BENCH_ROUNDS (31), BENCH_POLICY_CALLS (1500), BENCH_QUICK=1,
// MCP_CODEMODE_BIN, BENCH_ECHO_SERVER (scripts/run-bench.sh builds it),
// BENCH_OUT (raw numbers as JSON).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RawClient } from './lib/raw_client.mjs';
import { median, percentile } from './lib/stats.mjs';
import { cpuMs } from './lib/proc.mjs';
import { BIN } from './lib/targets.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 7 : 31));
const CALLS = Number(process.env.BENCH_POLICY_CALLS ?? (quick ? 500 : 1500));
const ECHO = process.env.BENCH_ECHO_SERVER || resolve(here, '../../build/bench/echo_server');
const TARGET = 1.05;
const dir = mkdtempSync(join(tmpdir(), 'mcp-codemode-bench-policy-'));

function rules() {
    const r = {};
    for (let i = 0; i < 36; i++) r[`svc${i}.*`] = i % 3 === 0 ? 'deny' : 'ask';
    r['*.delete_*'] = 'deny';
    r['*'] = 'ask';
    r['echo.*'] = 'ask';
    r['echo.echo'] = 'allow';
    return r;
}

function config(name, { policy = false, audit = false } = {}) {
    const codemode = { maxToolCalls: 1000000, timeoutMs: 300000, maxTimeoutMs: 300000 };
    const echo = { command: ECHO };
    if (policy) {
        codemode.policy = { rules: rules() };
        echo.policy = { 'drop_*': 'deny', 'get_*': 'allow' };
    }
    if (audit) codemode.audit = { path: join(dir, `${name}.audit.jsonl`), arguments: 'hash' };
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ mcpServers: { echo }, codemode }));
    return file;
}

const VARIANTS = [
    { name: 'no policy', config: config('plain') },
    { name: '40 rules', config: config('rules', { policy: true }) },
    { name: '40 rules + grant', config: config('grant', { policy: true }), extra: { allow: ['echo.ec*', 'svc1.*'] } },
    { name: '40 rules + audit log', config: config('audit', { policy: true, audit: true }), audit: true },
    { name: 'no policy (again)', config: config('plain2'), noise: true },
];

const program = (n) => `const t0 = Date.now();
for (let i = 0; i < ${n}; i++) {
    const r = await tools.echo.echo({ message: 'x', n: i });
    if (r.n !== i) throw new Error('echo answered ' + JSON.stringify(r));
}
return Date.now() - t0;`;

/** Runs n calls; returns [wall us per call (inside the program), host CPU us per call]. */
async function run(c, v, n) {
    const cpu0 = cpuMs(c.pid);
    const r = await c.request('tools/call', { name: 'execute_code', arguments: { code: program(n), timeoutMs: 300000, ...v.extra } });
    const cpu1 = cpuMs(c.pid);
    const res = r.msg.result;
    if (res?.isError) throw new Error(`${v.name}: ${res.content?.[0]?.text}`);
    return [Number(res.content[0].text) * 1000 / n, (cpu1 - cpu0) * 1000 / n];
}

async function main() {
    const clients = [];
    let failed = false;
    try {
        for (const v of VARIANTS) {
            const env = { ...process.env };
            delete env.MCP_CODEMODE_CONFIG;
            const c = new RawClient(BIN, ['--stdio', '--pool-size', '2', '--config', v.config], env);
            await c.initialize();
            for (let i = 0; i < 200; i++) { // the echo server starts in the background
                try { await run(c, v, 1); break; } catch (e) { if (i === 199) throw e; await new Promise((r) => setTimeout(r, 50)); }
            }
            await run(c, v, CALLS); // warm-up
            clients.push({ v, c, us: [], cpu: [] });
        }
        for (let round = 0; round < ROUNDS; round++) // the order rotates: no variant is always first
            for (const x of clients.map((_, i) => clients[(i + round) % clients.length])) {
                const [us, cpu] = await run(x.c, x.v, CALLS);
                x.us.push(us);
                x.cpu.push(cpu);
            }
    } catch (e) {
        console.error(`bench_policy: FAILED: ${e.message}`);
        failed = true;
    } finally {
        for (const x of clients) await x.c.close();
        rmSync(dir, { recursive: true, force: true });
    }
    if (failed) process.exit(1);
    const base = clients[0];
    const perRound = (x, k) => x[k].map((v, i) => v / base[k][i]);
    const quart = (a) => `${percentile(a, 25).toFixed(3)}-${percentile(a, 75).toFixed(3)}`;
    // 95% interval of the median ratio: 2000 bootstrap resamples of the rounds
    const ci = (a) => {
        let seed = 12345;
        const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
        const meds = Array.from({ length: 2000 }, () => median(a.map(() => a[Math.floor(rnd() * a.length)])));
        return [percentile(meds, 2.5), percentile(meds, 97.5)];
    };
    console.log(`policy check cost per allowed call: ${CALLS} sequential echo calls per execution, ${ROUNDS} rounds, variants interleaved`);
    console.log('variant                host CPU us/call  ratio: median of per-round (p25-p75), 95% interval of that median | wall us/call  ratio: median of per-round (p25-p75)');
    const out = [];
    for (const x of clients) {
        const cpu = median(x.cpu), wall = median(x.us);
        const cpuRatios = perRound(x, 'cpu'), wallRatios = perRound(x, 'us');
        const cpuRatio = median(cpuRatios), wallRatio = median(wallRatios);
        const verdict = x === base ? '' : x.v.noise ? '(the same config twice: the noise of this run)'
            : x.v.audit ? '(no target: writes a line per call)'
            : cpuRatio <= TARGET ? `(target <= ${TARGET}: met)` : `(target <= ${TARGET}: MISSED)`;
        const [lo, hi] = ci(cpuRatios);
        console.log(`${x.v.name.padEnd(22)} ${cpu.toFixed(2).padStart(8)}          ${cpuRatio.toFixed(3)} (${quart(cpuRatios)}) 95%: ${lo.toFixed(3)}-${hi.toFixed(3)} | ` +
            `${wall.toFixed(1).padStart(8)}      ${wallRatio.toFixed(3)} (${quart(wallRatios)}) ${verdict}`);
        out.push({ variant: x.v.name, hostCpuUs: cpu, cpuRatio, cpuRatioQuartiles: [percentile(cpuRatios, 25), percentile(cpuRatios, 75)], cpuRatioCi95: [lo, hi],
            wallUs: wall, wallRatio, cpuSamples: x.cpu, wallSamples: x.us });
    }
    if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify({ calls: CALLS, rounds: ROUNDS, variants: out }, null, 2));
}

main();
