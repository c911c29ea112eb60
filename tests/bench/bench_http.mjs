// The HTTP benchmark (issue 5, section 4): mcp-codemode served with --http
// against a reference Node server over Streamable HTTP (ref_vm_http_server.mjs:
// the SDK's McpServer + StreamableHTTPServerTransport, node:vm per call), in
// the same run, targets interleaved per round.
//   1. load: 50 concurrent clients, each with its own session, 20 sequential
//      `return 1+1` execute_code calls each (1000 calls): throughput (calls/s
//      over the wall time of the 1000 calls) and per-call latency p50/p99;
//      with the official SDK client (Client + StreamableHTTPClientTransport),
//      a raw fetch client (JSON-RPC by hand, less client overhead) and a raw
//      node:http client (one keep-alive connection per session: the least
//      client CPU in Node, so the closest to the server's own limit);
//      --pool-size 2 and 4; CPU time of the server tree and of this (client)
//      process per call
//   2. memory with 1000 idle sessions: the server process's VmRSS and Pss
//      before, with 1000 sessions opened by raw initialize POSTs (connections
//      closed), and after DELETE of all of them
// Prints medians over rounds with their spread; BENCH_OUT=FILE also writes the
// raw numbers as JSON. A benchmark, not a test: a missed target is reported,
// never fatal; the exit status is 1 only when something is broken.
//
// Knobs (env): BENCH_ROUNDS (5), BENCH_CLIENTS (50), BENCH_CALLS (20 per client),
// BENCH_POOLS ("2,4"), BENCH_SESSIONS (1000), BENCH_QUICK=1 (2 rounds),
// BENCH_KINDS (clients to run, "sdk,fetch,http"), BENCH_REF=0 (no reference
// server), BENCH_MEM=0 (no idle-sessions memory section),
// MCP_CODEMODE_BIN (default build/mcp-codemode), BENCH_BASE_BIN (another build,
// e.g. main's, run interleaved as "base pool 2"), REF_JSON_RESPONSE=1 (the
// reference answers with JSON instead of the SDK's default SSE replies).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { nowMs, sleep } from './lib/clock.mjs';
import { memory, tree } from './lib/proc.mjs';
import { describeMachine, probeMachine } from './lib/machine.mjs';
import { fmtMs, fmtRatio, table } from './lib/report.mjs';
import { combineRounds, median } from './lib/stats.mjs';
import { BIN, liveWorkers } from './lib/targets.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const REF_HTTP = resolve(here, 'ref_vm_http_server.mjs');
const quick = process.env.BENCH_QUICK === '1';
const num = (name, dflt, quickValue = dflt) => Number(process.env[name] ?? (quick ? quickValue : dflt));
const CFG = {
    rounds: num('BENCH_ROUNDS', 5, 2),
    clients: num('BENCH_CLIENTS', 50),
    calls: num('BENCH_CALLS', 20),
    sessions: num('BENCH_SESSIONS', 1000),
    pools: (process.env.BENCH_POOLS ?? '2,4').split(',').map(Number),
    kinds: (process.env.BENCH_KINDS ?? 'sdk,fetch,http').split(','),
    ref: process.env.BENCH_REF !== '0',
    mem: process.env.BENCH_MEM !== '0',
};
const CODE = 'return 1+1';
const EXPECT = '2';
const VERSION = '2025-11-25';
// Targets of the issue: 5x the reference's throughput (336 calls/s measured on
// this machine when the issue was written), p99 <= 50 ms, bounded memory.
// Issue 13: CPU per call of the whole server tree <= 0.3 ms.
const TARGETS = { speedup: 5, issueRefPerS: 336, p99Ms: 50, kibPerSession: 64, treeCpuMs: 0.3 };
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

const failures = [];
function fail(what, err) {
    failures.push({ what, error: String(err?.message ?? err) });
    console.error(`bench: FAILED ${what}: ${err?.message ?? err}`);
}

// --- servers -------------------------------------------------------------------------------------

function cleanEnv() {
    const env = { ...process.env };
    delete env.MCP_CODEMODE_CONFIG;
    return env;
}

const oursTarget = (pool, bin = BIN, label = 'ours') => ({ key: `${label} pool ${pool}`, kind: 'ours', poolSize: pool, command: bin, args: ['--http', '127.0.0.1:0', '--pool-size', String(pool)] });
const refTarget = () => ({ key: 'ref node:vm', kind: 'ref', command: process.execPath, args: [REF_HTTP] });

/** Starts a target; resolves {pid, url, stop()} once it prints its URL (and, for ours, its pool is full). */
async function startServer(target) {
    const proc = spawn(target.command, target.args, { stdio: ['ignore', 'ignore', 'pipe'], env: cleanEnv() });
    let stderr = '';
    const exit = new Promise((r) => proc.on('exit', (code, signal) => r({ code, signal })));
    const url = await new Promise((ok, ko) => {
        proc.stderr.on('data', (b) => {
            stderr += b;
            const m = /listening on (http:\/\/\S+)/.exec(stderr);
            if (m) ok(`${m[1]}/mcp`);
        });
        exit.then((e) => ko(new Error(`${target.key}: exited (${e.code ?? e.signal}) before listening: ${stderr}`)));
    });
    if (target.kind === 'ours') {
        const t0 = nowMs();
        while (liveWorkers(proc.pid) < target.poolSize && nowMs() - t0 < 10000) await sleep(10);
    }
    await sleep(300);
    const stop = async () => {
        proc.kill('SIGTERM');
        const t = setTimeout(() => proc.kill('SIGKILL'), 10000);
        const e = await exit;
        clearTimeout(t);
        if (e.code !== 0) fail(`${target.key}: exit`, `status ${e.code ?? e.signal}: ${stderr.slice(-500)}`);
    };
    return { pid: proc.pid, url, stop };
}

/** CPU time (ms) of a process tree so far: its live members plus the children they reaped. */
function treeCpuMs(pid) {
    let ticks = 0;
    for (const p of tree(pid)) {
        try {
            const s = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
            const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
            ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]); // utime stime cutime cstime
        } catch { /* gone */ }
    }
    return (ticks * 1000) / CLK_TCK;
}

// --- clients -------------------------------------------------------------------------------------

const callBody = (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'execute_code', arguments: { code: CODE } } });

/** The JSON-RPC message with `id` in a reply, JSON or an SSE stream. */
function replyOf(contentType, text, id) {
    if (/json/.test(contentType ?? '')) return JSON.parse(text);
    for (const block of text.split(/\r?\n\r?\n/)) {
        const data = block.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
        if (!data) continue;
        const m = JSON.parse(data);
        if (m.id === id) return m;
    }
    throw new Error(`no reply with id ${id} in: ${text.slice(0, 300)}`);
}

/** A session driven with fetch: JSON-RPC written by hand, replies parsed as JSON or SSE. */
class FetchSession {
    constructor(url) {
        this.url = url;
        this.nextId = 1;
    }

    async post(body, sid) {
        const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
        if (sid) Object.assign(headers, { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': VERSION });
        const res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body) });
        const text = await res.text();
        if (res.status >= 300) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
        return { res, text };
    }

    static async open(url) {
        const s = new this(url);
        const init = { jsonrpc: '2.0', id: s.nextId++, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'bench-http', version: '1.0.0' } } };
        const { res } = await s.post(init);
        s.sid = res.headers.get('mcp-session-id');
        if (!s.sid) throw new Error('initialize: no Mcp-Session-Id');
        await s.post({ jsonrpc: '2.0', method: 'notifications/initialized' }, s.sid);
        return s;
    }

    async call() {
        const id = this.nextId++;
        const { res, text } = await this.post(callBody(id), this.sid);
        const m = replyOf(res.headers.get('content-type'), text, id);
        return m.result?.content?.[0]?.text;
    }

    async close() {
        await fetch(this.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': this.sid, 'MCP-Protocol-Version': VERSION } });
    }
}

/** A session driven with node:http over one keep-alive connection of its own (the least client overhead in Node). */
class NodeHttpSession extends FetchSession {
    async post(body, sid) {
        this.agent ??= new http.Agent({ keepAlive: true, maxSockets: 1 });
        const headers = sid ? { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': VERSION } : {};
        const r = await rawPost(this.url, this.agent, body, headers);
        if (r.status >= 300) throw new Error(`HTTP ${r.status}: ${r.text.slice(0, 200)}`);
        const get = (name) => r.headers[name];
        return { res: { status: r.status, headers: { get } }, text: r.text };
    }

    async close() {
        await rawPost(this.url, this.agent, undefined, { 'Mcp-Session-Id': this.sid, 'MCP-Protocol-Version': VERSION }, 'DELETE');
        this.agent.destroy();
    }
}

/** A session of the official SDK client. */
class SdkSession {
    static async open(url) {
        const s = new SdkSession();
        s.client = new Client({ name: 'bench-http-sdk', version: '1.0.0' });
        s.transport = new StreamableHTTPClientTransport(new URL(url));
        s.transport.onerror = () => {}; // the GET stream's abort at close is reported as an error
        await s.client.connect(s.transport);
        return s;
    }

    async call() {
        const r = await this.client.callTool({ name: 'execute_code', arguments: { code: CODE } });
        return r.content?.[0]?.text;
    }

    async close() {
        await this.transport.terminateSession().catch(() => {});
        await this.client.close();
    }
}

const CLIENTS = { sdk: SdkSession, fetch: FetchSession, http: NodeHttpSession };
const CLIENT_NAMES = { sdk: 'SDK client', fetch: 'raw fetch', http: 'raw node:http' };

/** Opens n sessions, `jobs` at a time. */
async function openSessions(Kind, url, n, jobs = 10) {
    const out = [];
    while (out.length < n) {
        const batch = Math.min(jobs, n - out.length);
        out.push(...(await Promise.all(Array.from({ length: batch }, () => Kind.open(url)))));
    }
    return out;
}

// --- 1. load -------------------------------------------------------------------------------------

/** One load run: CFG.clients sessions, CFG.calls calls each, all clients at once. */
async function loadRun(server, clientKind) {
    const sessions = await openSessions(CLIENTS[clientKind], server.url, CFG.clients);
    await Promise.all(sessions.map((s) => s.call())); // warm-up: connections, JIT, the pool
    await sleep(200);
    const lat = [];
    let bad = 0;
    const cpu0 = treeCpuMs(server.pid);
    const self0 = process.cpuUsage();
    const t0 = nowMs();
    await Promise.all(sessions.map(async (s) => {
        for (let i = 0; i < CFG.calls; i++) {
            const t = nowMs();
            const text = await s.call();
            lat.push(nowMs() - t);
            if (text !== EXPECT) bad++;
        }
    }));
    const wall = nowMs() - t0;
    const self = process.cpuUsage(self0);
    const serverCpu = treeCpuMs(server.pid) - cpu0;
    await Promise.all(sessions.map((s) => s.close().catch(() => {})));
    if (bad) throw new Error(`${bad} calls did not return ${EXPECT}`);
    const n = lat.length;
    return { perS: (n * 1000) / wall, wallMs: wall, lat, serverCpuMsPerCall: serverCpu / n, clientCpuMsPerCall: (self.user + self.system) / 1000 / n };
}

async function benchLoad(targets) {
    const res = new Map(); // `${target} / ${client}` -> [round results]
    const add = (k, r) => (res.get(k) ?? res.set(k, []).get(k)).push(r);
    for (let round = 0; round < CFG.rounds; round++) {
        const order = round % 2 ? [...targets].reverse() : targets;
        for (const t of order) {
            let server;
            try {
                server = await startServer(t);
                const kinds = Object.keys(CLIENTS).filter((k) => CFG.kinds.includes(k));
                for (const c of round % 2 ? kinds.reverse() : kinds) add(`${t.key} / ${c}`, await loadRun(server, c));
            } catch (err) {
                fail(`${t.key}: load round ${round + 1}`, err);
            } finally {
                await server?.stop();
            }
        }
        process.stderr.write(`bench: load round ${round + 1}/${CFG.rounds} done\n`);
    }
    const out = {};
    for (const [k, rounds] of res) {
        const lat = combineRounds(rounds.map((r) => r.lat));
        const perS = rounds.map((r) => r.perS);
        out[k] = {
            perS: median(perS), perSMin: Math.min(...perS), perSMax: Math.max(...perS),
            p50: lat.p50, p99: lat.p99, p10: lat.p10, p90: lat.p90, max: lat.max,
            serverCpuMsPerCall: median(rounds.map((r) => r.serverCpuMsPerCall)),
            clientCpuMsPerCall: median(rounds.map((r) => r.clientCpuMsPerCall)),
            rounds: rounds.map(({ lat: l, ...r }) => ({ ...r, p50: combineRounds([l]).p50, p99: combineRounds([l]).p99 })),
        };
    }
    return out;
}

// --- 2. memory with idle sessions -----------------------------------------------------------------

/** POSTs a JSON body (or sends `method`) with node:http on `agent`; resolves {status, headers, text}. */
function rawPost(url, agent, body, headers = {}, method = 'POST') {
    const u = new URL(url);
    const text = body === undefined ? '' : JSON.stringify(body);
    return new Promise((ok, ko) => {
        const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method, agent, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Content-Length': Buffer.byteLength(text), ...headers } }, (res) => {
            let out = '';
            res.setEncoding('utf8');
            res.on('data', (c) => { out += c; });
            res.on('end', () => ok({ status: res.statusCode, headers: res.headers, text: out }));
            res.on('error', ko);
        });
        req.on('error', ko);
        req.end(text);
    });
}

async function openIdleSession(url, agent, i) {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: `idle-${i}`, version: '1.0.0' } } };
    const r = await rawPost(url, agent, init);
    const sid = r.headers['mcp-session-id'];
    if (r.status !== 200 || !sid) throw new Error(`initialize ${i}: HTTP ${r.status}`);
    const h = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': VERSION };
    const n = await rawPost(url, agent, { jsonrpc: '2.0', method: 'notifications/initialized' }, h);
    if (n.status !== 202) throw new Error(`initialized ${i}: HTTP ${n.status}`);
    return sid;
}

/** Runs fn(i) for i < n, `jobs` at a time. */
async function each(n, jobs, fn) {
    let next = 0;
    const out = new Array(n);
    await Promise.all(Array.from({ length: jobs }, async () => {
        while (next < n) {
            const i = next++;
            out[i] = await fn(i);
        }
    }));
    return out;
}

/** Memory of the server process (and its tree's PSS) as sessions come and go. */
async function sessionsMemory(target) {
    const server = await startServer(target);
    const sample = async () => {
        await sleep(500);
        const m = memory(server.pid);
        const treePss = tree(server.pid).reduce((a, p) => a + (memory(p.pid)?.pssKiB ?? 0), 0);
        return { ...m, treePssKiB: treePss };
    };
    try {
        const before = await sample();
        const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
        const sids = await each(CFG.sessions, 16, (i) => openIdleSession(server.url, agent, i));
        agent.destroy(); // idle sessions, no open connections
        const open = await sample();
        const agent2 = new http.Agent({ keepAlive: true, maxSockets: 16 });
        await each(sids.length, 16, (i) => rawPost(server.url, agent2, undefined, { 'Mcp-Session-Id': sids[i], 'MCP-Protocol-Version': VERSION }, 'DELETE'));
        agent2.destroy();
        const deleted = await sample();
        return { before, open, deleted, kibPerSession: (open.rssKiB - before.rssKiB) / sids.length, pssKibPerSession: (open.pssKiB - before.pssKiB) / sids.length };
    } finally {
        await server.stop();
    }
}

// --- report --------------------------------------------------------------------------------------

const verdict = (ok) => (ok ? '**met**' : 'MISSED');

/** What 5x the reference's throughput leaves per call on this machine's cores, against a bare fork + exit. */
function budgetLine(ours, ref, machine) {
    const need = TARGETS.speedup * ref.perS;
    const cpuMs = (availableParallelism() * 1000) / need;
    const floor = machine ? `; a bare fork + exit + wait takes ${fmtMs(machine.forkExitUs / 1000)} here` : '';
    return `     budget: ${TARGETS.speedup}x this run's reference is ${need.toFixed(0)} calls/s, so at most ${fmtMs(cpuMs)} of CPU per call ` +
        `on ${availableParallelism()} cores for the server tree and the client together (this run: ${fmtMs(ours.serverCpuMsPerCall)} + ` +
        `${fmtMs(ours.clientCpuMsPerCall)})${floor}`;
}

function report(load, mem, targets, machine) {
    console.log(`\n1. load: ${CFG.clients} clients x ${CFG.calls} calls of \`${CODE}\`, each client its own session; ${CFG.rounds} rounds`);
    console.log('   throughput: median over rounds [min-max]; latency: median over rounds of each round\'s p50/p99, p10-p90 pooled\n');
    const rows = [];
    for (const t of targets) {
        for (const c of Object.keys(CLIENTS)) {
            const r = load[`${t.key} / ${c}`];
            if (!r) continue;
            rows.push([t.key, CLIENT_NAMES[c], `${r.perS.toFixed(0)} [${r.perSMin.toFixed(0)}-${r.perSMax.toFixed(0)}]`,
                fmtMs(r.p50), fmtMs(r.p99), `${fmtMs(r.p10)}-${fmtMs(r.p90)}`, fmtMs(r.max), fmtMs(r.serverCpuMsPerCall), fmtMs(r.clientCpuMsPerCall)]);
        }
    }
    table(['server', 'client', 'calls/s', 'p50', 'p99', 'p10-p90', 'max', 'server CPU/call', 'client CPU/call'], rows);
    console.log('\n   targets (ours pool 2):');
    for (const c of Object.keys(CLIENTS)) {
        const o = load[`ours pool 2 / ${c}`], r = load[`ref node:vm / ${c}`];
        if (!o || !r) continue;
        const x = o.perS / r.perS;
        console.log(`   ${CLIENT_NAMES[c]}: ${fmtRatio(x)} the reference's throughput in this run (>= ${TARGETS.speedup}x: ${verdict(x >= TARGETS.speedup)}); ` +
            `${fmtRatio(o.perS / TARGETS.issueRefPerS)} the issue's ${TARGETS.issueRefPerS} calls/s (${verdict(o.perS >= TARGETS.speedup * TARGETS.issueRefPerS)}); ` +
            `p99 ${fmtMs(o.p99)} (<= ${TARGETS.p99Ms} ms: ${verdict(o.p99 <= TARGETS.p99Ms)}); ` +
            `server tree CPU per call ${fmtMs(o.serverCpuMsPerCall)} (<= ${TARGETS.treeCpuMs} ms: ${verdict(o.serverCpuMsPerCall <= TARGETS.treeCpuMs)})`);
        console.log(budgetLine(o, r, machine));
    }
    console.log(`\n2. memory of the server process with ${CFG.sessions} idle sessions (opened by raw initialize POSTs, connections closed)\n`);
    const mrows = [];
    for (const [key, m] of Object.entries(mem)) {
        const mib = (k) => (k / 1024).toFixed(2);
        mrows.push([key, `${mib(m.before.rssKiB)} / ${mib(m.before.pssKiB)}`, `${mib(m.open.rssKiB)} / ${mib(m.open.pssKiB)}`, `${mib(m.deleted.rssKiB)} / ${mib(m.deleted.pssKiB)}`,
            m.kibPerSession.toFixed(1), m.pssKibPerSession.toFixed(1), `${mib(m.before.treePssKiB)} -> ${mib(m.open.treePssKiB)}`]);
    }
    table(['server', 'idle RSS/PSS MiB', `${CFG.sessions} sessions`, 'after DELETE', 'RSS KiB/session', 'PSS KiB/session', 'tree PSS MiB'], mrows);
    const om = mem['ours pool 2'];
    if (om) console.log(`\n   target: bounded (<= ${TARGETS.kibPerSession} KiB of RSS per idle session): ${om.kibPerSession.toFixed(1)} KiB: ${verdict(om.kibPerSession <= TARGETS.kibPerSession)}`);
}

async function main() {
    const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(`bench_http: ${BIN}; ref ${REF_HTTP}${process.env.REF_JSON_RESPONSE === '1' ? ' (JSON replies)' : ' (SDK default: SSE replies)'}; load ${load1}`);
    const machine = await probeMachine();
    console.log(describeMachine(machine));
    const targets = [...CFG.pools.map((p) => oursTarget(p)), ...(CFG.ref ? [refTarget()] : [])];
    if (process.env.BENCH_BASE_BIN) targets.splice(1, 0, oursTarget(2, resolve(process.env.BENCH_BASE_BIN), 'base'));
    const load = await benchLoad(targets);
    const mem = {};
    for (const t of targets.filter((x) => CFG.mem && (x.poolSize === 2 || x.kind === 'ref'))) {
        try {
            mem[t.key] = await sessionsMemory(t);
        } catch (err) {
            fail(`${t.key}: sessions memory`, err);
        }
    }
    report(load, mem, targets, machine);
    console.log(`\n   load average: ${load1} at start, ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} at end`);
    if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify({ cfg: CFG, machine, load, mem, failures }, null, 1));
    process.exit(failures.length ? 1 : 0);
}

main().catch((err) => {
    console.error(err);
    process.exit(1);
});
