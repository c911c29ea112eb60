// The soak (`make soak`): a mixed load over stdio and HTTP until
// SOAK_EXECUTIONS executions have run (default 100,000) or SOAK_SECONDS have
// passed (default 1800), whichever comes first. The mix: plain programs, tool
// calls to a downstream stdio server, thrown errors, time-outs, cancellations
// (client-side aborts), large results and console output. Every few seconds
// it prints, per server, the server process's RSS and descriptor count and the
// RSS of its whole process tree (zygote and workers included), and at the end
// it fails when, between the end of the warm-up (the first 10% of executions)
// and the end, a server's RSS grew by more than SOAK_RSS_MIB (default 8) or
// its descriptors by more than 4, when a server died, or when an answer was
// wrong. Not part of `make test`: it takes minutes.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.resolve(process.env.MCP_CODEMODE_BIN ?? path.join(ROOT, 'build/mcp-codemode'));
const RECORDER = path.join(ROOT, 'tests/fixtures/servers/recorder.mjs');
const TOTAL = Number(process.env.SOAK_EXECUTIONS ?? 100000);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 1800);
const RSS_BOUND_MIB = Number(process.env.SOAK_RSS_MIB ?? 8);
const FD_BOUND = 4;
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 4); // per client
const SAMPLE_MS = 5000;

// --- the mix -----------------------------------------------------------------------------------
// Each kind: the program, its arguments, and a check of the outcome.
const KINDS = [
  { name: 'plain', weight: 40, code: 'return [1, 2, 3].map((x) => x * 2).reduce((a, b) => a + b)', check: (r) => !r.isError && r.structuredContent.result === 12 },
  { name: 'tools', weight: 20, code: 'const r = await Promise.all([1, 2, 3].map((i) => tools.rec.echo({ i }))); return r.map((x) => x.args.i)', check: (r) => !r.isError && JSON.stringify(r.structuredContent.result) === '[1,2,3]' },
  { name: 'error', weight: 10, code: 'throw new TypeError("on purpose")', check: (r) => r.isError && r.structuredContent.error.name === 'TypeError' },
  { name: 'timeout', weight: 4, code: 'while (true) {}', args: { timeoutMs: 50 }, check: (r) => r.isError && r.structuredContent.error.name === 'TimeoutError' },
  { name: 'cancel', weight: 4, code: 'await sleep(10000); return 1', abortMs: 30, check: (r) => r === 'aborted' },
  { name: 'large', weight: 10, code: 'return "x".repeat(200000)', check: (r) => !r.isError && r.structuredContent.result.length === 200000 },
  { name: 'console', weight: 12, code: 'for (let i = 0; i < 50; i++) console.log("line", i, { i }); return "ok"', check: (r) => !r.isError && r.structuredContent.logs.length === 50 },
];
const WHEEL = KINDS.flatMap((k) => Array(k.weight).fill(k));

// --- process accounting ------------------------------------------------------------------------
function statusOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
}
/** RSS in KiB; 0 for a process that is gone or a zombie (its status has no VmRSS line). */
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(statusOf(pid) ?? '')?.[1] ?? 0);
const fdCount = (pid) => {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return -1;
  }
};
function descendants(pid) {
  const kids = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const m = /\nPPid:\s+(\d+)/.exec(statusOf(name) ?? '');
    if (m) (kids.get(Number(m[1])) ?? kids.set(Number(m[1]), []).get(Number(m[1]))).push(Number(name));
  }
  const out = [];
  const walk = (p) => (kids.get(p) ?? []).forEach((c) => { out.push(c); walk(c); });
  walk(pid);
  return out;
}
/** RSS of the server and its sandbox (zygote and workers; downstream servers are not ours). */
function treeRssKiB(pid) {
  const sandbox = descendants(pid).filter((p) => {
    try {
      return /__zygote|mcp-codemode/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  });
  return [pid, ...sandbox].reduce((a, p) => a + rssKiB(p), 0);
}

// --- servers and clients -----------------------------------------------------------------------
const dir = mkdtempSync(path.join(tmpdir(), 'mcp-codemode-soak-'));
const config = path.join(dir, 'config.json');
writeFileSync(config, JSON.stringify({ mcpServers: { rec: { command: process.execPath, args: [RECORDER] } }, codemode: { poolSize: 2 } }));

async function stdioClient() {
  const transport = new StdioClientTransport({ command: BIN, args: ['--config', config, '--log-level', 'error'], stderr: 'inherit' });
  const client = new Client({ name: 'soak-stdio', version: '1.0.0' });
  await client.connect(transport);
  return { label: 'stdio', client, pid: () => transport.pid, close: () => client.close() };
}

async function httpServer() {
  const proc = spawn(BIN, ['--http', '127.0.0.1:0', '--config', config, '--log-level', 'error'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (c) => reject(new Error(`the HTTP server exited (${c}): ${err}`)));
  });
  const client = new Client({ name: 'soak-http', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
  await client.connect(transport);
  return { label: 'http', client, pid: () => proc.pid, proc, close: async () => { await client.close(); proc.kill('SIGTERM'); } };
}

// --- the run -----------------------------------------------------------------------------------
const counts = Object.fromEntries(KINDS.map((k) => [k.name, 0]));
const wrong = [];
let started = 0, finished = 0;
const t0 = Date.now();
const timeUp = () => (Date.now() - t0) / 1000 > SECONDS;

async function one(target, kind) {
  const ac = new AbortController();
  const timer = kind.abortMs ? setTimeout(() => ac.abort(), kind.abortMs) : null;
  let r;
  try {
    r = await target.client.callTool({ name: 'execute_code', arguments: { code: kind.code, ...(kind.args ?? {}) } }, undefined, { signal: ac.signal, timeout: 60000 });
  } catch (e) {
    r = ac.signal.aborted ? 'aborted' : e;
  }
  clearTimeout(timer);
  counts[kind.name]++;
  if (!kind.check(r)) wrong.push({ target: target.label, kind: kind.name, got: r instanceof Error ? String(r) : JSON.stringify(r).slice(0, 300) });
}

async function loop(target, seed) {
  let i = seed;
  while (started < TOTAL && !timeUp() && wrong.length < 20) {
    started++;
    i = (i * 1103515245 + 12345) % 2147483648;
    await one(target, WHEEL[i % WHEEL.length]);
    finished++;
  }
}

const targets = [await stdioClient(), await httpServer()];
const samples = [];
function sample() {
  const row = { t: Math.round((Date.now() - t0) / 1000), done: finished };
  for (const tg of targets) row[tg.label] = { rss: rssKiB(tg.pid()), fds: fdCount(tg.pid()), tree: treeRssKiB(tg.pid()) };
  samples.push(row);
  const fmt = (x) => `${(x.rss / 1024).toFixed(1)} MiB, ${x.fds} fds, tree ${(x.tree / 1024).toFixed(1)} MiB`;
  console.log(`soak: ${String(row.t).padStart(5)} s  ${String(row.done).padStart(7)} done   stdio ${fmt(row.stdio)}   http ${fmt(row.http)}`);
}
console.log(`soak: ${TOTAL} executions at most, ${SECONDS} s at most, ${CONCURRENCY} concurrent per client, over stdio and Streamable HTTP (${BIN})`);
sample();
const ticker = setInterval(sample, SAMPLE_MS);
let warm = null;
const warmWatch = setInterval(() => {
  if (!warm && finished >= TOTAL / 10) {
    warm = samples.length;
    sample();
  }
}, 200);
await Promise.all(targets.flatMap((tg, n) => Array.from({ length: CONCURRENCY }, (_, k) => loop(tg, 7 + n * 100 + k))));
clearInterval(ticker);
clearInterval(warmWatch);
await new Promise((r) => setTimeout(r, 1000)); // let the last workers settle
sample();

// --- verdict -----------------------------------------------------------------------------------
const problems = [];
const first = samples[warm ?? 1] ?? samples[0];
const last = samples.at(-1);
for (const tg of targets) {
  const a = first[tg.label], b = last[tg.label];
  if (b.rss === 0) problems.push(`${tg.label}: the server is gone`);
  const grew = (b.rss - a.rss) / 1024;
  console.log(`soak: ${tg.label}: RSS ${(a.rss / 1024).toFixed(1)} -> ${(b.rss / 1024).toFixed(1)} MiB (${grew >= 0 ? '+' : ''}${grew.toFixed(1)}), fds ${a.fds} -> ${b.fds}, tree ${(a.tree / 1024).toFixed(1)} -> ${(b.tree / 1024).toFixed(1)} MiB after the warm-up`);
  if (grew > RSS_BOUND_MIB) problems.push(`${tg.label}: RSS grew ${grew.toFixed(1)} MiB after the warm-up (bound ${RSS_BOUND_MIB})`);
  if (b.fds - a.fds > FD_BOUND) problems.push(`${tg.label}: ${b.fds - a.fds} more descriptors after the warm-up (bound ${FD_BOUND})`);
}
const secs = (Date.now() - t0) / 1000;
console.log(`soak: ${finished} executions in ${secs.toFixed(0)} s (${(finished / secs).toFixed(0)}/s): ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
if (wrong.length) problems.push(`${wrong.length} wrong outcome(s): ${JSON.stringify(wrong.slice(0, 5))}`);
for (const tg of targets) await tg.close().catch(() => {});
if (problems.length) {
  console.log(`soak: FAILED\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('soak: passed');
process.exit(0);
