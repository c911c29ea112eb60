// Allocation failure in the host (issue 16). tests/fault/failmalloc.c, preloaded
// into the server only, fails its Nth malloc/calloc/realloc/posix_memalign.
// A request mix (initialize, tools/list, execute_code with downstream tool
// calls and console output, a syntax error, resources/read, ping; over stdio,
// and over an HTTP session) runs with N = 1, 2, ... through the first
// allocations (start-up) and then at evenly spaced N up to the mix's whole
// count. The documented policy (docs/protocol.md, "Out of memory"): an
// allocation failure in the host is logged ("out of memory") and the process
// aborts; a failure inside a library that reports it is an error for that
// request only. So every run must either abort with that message, or finish
// with every request answered and the answers that succeeded correct: never
// another signal, a hang, or an abort without the message.
// FAULT_ALLOC_RUNS (default 400) sets the number of N tried per transport.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { BIN } from './lib/paths.mjs';

const PRELOAD = path.join(path.dirname(BIN), 'tests/failmalloc.so');
const MAZE = path.join(path.dirname(BIN), 'examples/maze-server');
const RUNS = Number(process.env.FAULT_ALLOC_RUNS ?? 400);
const TIMEOUT_MS = 15000;

function whySkip() {
  if (!existsSync(PRELOAD)) return `${PRELOAD} is not built (make test builds it)`;
  const probe = spawnSync(BIN, ['--version'], { env: { ...process.env, LD_PRELOAD: PRELOAD }, encoding: 'utf8' });
  if (probe.status !== 0) return `the binary does not run with a malloc preloaded (a sanitizer build: ${probe.stderr.split('\n')[0]})`;
  return false;
}
const skip = whySkip();

const dir = mkdtempSync(path.join(tmpdir(), 'mcp-codemode-alloc-'));
const config = path.join(dir, 'config.json');
writeFileSync(config, JSON.stringify({ mcpServers: { maze: { command: MAZE, args: ['--seed', '7'] } }, codemode: { poolSize: 1 } }));

const PROGRAM = 'const a = await tools.maze.look({}); console.log("at", a.position); return typeof a.position;';
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const MIX = [
  { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'alloc', version: '1' } } },
  { method: 'notifications/initialized' },
  { id: 2, method: 'tools/list' },
  { id: 3, method: 'tools/call', params: { name: 'execute_code', arguments: { code: PROGRAM } } },
  { id: 4, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'return (;' } } },
  { id: 5, method: 'resources/read', params: { uri: 'codemode://declarations.d.ts' } },
  { id: 6, method: 'ping' },
];

/** The answers that came back right (a request may also get an error reply). */
function checkAnswers(replies) {
  const problems = [];
  const byId = new Map(replies.filter((m) => m.id !== undefined).map((m) => [m.id, m]));
  for (const req of MIX.filter((m) => m.id !== undefined)) {
    const m = byId.get(req.id);
    if (!m) { problems.push(`no answer to ${req.method} (id ${req.id})`); continue; }
    if (m.error) continue; // an error reply is an allowed outcome
    if (req.id === 3 && !(m.result.isError || m.result.structuredContent?.result === 'object')) problems.push(`execute_code gave ${JSON.stringify(m.result).slice(0, 200)}`);
    if (req.id === 4 && m.result.isError !== true) problems.push('a syntax error was not an error');
    if (req.id === 2 && !m.result.tools?.some((t) => t.name === 'execute_code')) problems.push('tools/list without execute_code');
  }
  return problems;
}

/** One stdio run with the Nth allocation failing: {code, signal, stderr, replies, timedOut}. */
function runStdio(n, report = false) {
  return new Promise((resolve) => {
    const env = { ...process.env, LD_PRELOAD: PRELOAD, MCP_FAULT_ALLOC_AT: String(n), MCP_FAULT_ALLOC_REPORT: report ? '1' : '0' };
    const p = spawn(BIN, ['--config', config, '--log-level', 'error'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '', err = '', timedOut = false, sent = 0;
    const replies = [];
    const sendNext = () => {
      while (sent < MIX.length) {
        const m = MIX[sent++];
        p.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
        if (m.id !== undefined) return; // one request at a time
      }
      p.stdin.end();
    };
    p.stdout.on('data', (d) => {
      out += d;
      let i;
      while ((i = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, i);
        out = out.slice(i + 1);
        try { replies.push(JSON.parse(line)); } catch { replies.push({ notJson: line }); }
        if (replies.at(-1).id !== undefined) sendNext();
      }
    });
    p.stderr.on('data', (d) => (err += d));
    p.stdin.on('error', () => {});
    const timer = setTimeout(() => { timedOut = true; p.kill('SIGKILL'); }, TIMEOUT_MS);
    p.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stderr: err, replies, timedOut }); });
    sendNext();
  });
}

/** The same mix over an HTTP session (initialize, then each request as a POST). */
function runHttp(n, report = false) {
  return new Promise((resolve) => {
    const env = { ...process.env, LD_PRELOAD: PRELOAD, MCP_FAULT_ALLOC_AT: String(n), MCP_FAULT_ALLOC_REPORT: report ? '1' : '0' };
    const p = spawn(BIN, ['--http', '127.0.0.1:0', '--config', config, '--log-level', 'error'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '', timedOut = false, started = false;
    const replies = [];
    const timer = setTimeout(() => { timedOut = true; p.kill('SIGKILL'); }, TIMEOUT_MS);
    p.stderr.on('data', async (d) => {
      err += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (!m || started) return;
      started = true;
      const port = Number(m[1]);
      let sid;
      for (const req of MIX) {
        const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Host: `127.0.0.1:${port}` };
        if (sid) Object.assign(headers, { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' });
        const body = JSON.stringify({ jsonrpc: '2.0', ...req });
        const r = await new Promise((ok) => {
          const q = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) }, agent: false }, (res) => {
            let t = '';
            res.on('data', (c) => (t += c));
            res.on('end', () => ok({ status: res.statusCode, headers: res.headers, text: t }));
            res.on('error', () => ok(null));
          });
          q.on('error', () => ok(null));
          q.end(body);
        });
        if (r === null) break; // the server went away
        sid ??= r.headers['mcp-session-id'];
        const msgs = /^text\/event-stream/.test(r.headers['content-type'] ?? '')
          ? r.text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)))
          : r.text ? [JSON.parse(r.text)] : [];
        replies.push(...msgs);
      }
      p.kill('SIGTERM');
    });
    p.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stderr: err, replies, timedOut, terminated: started }); });
  });
}

/** What is wrong with a run's outcome, or null. */
function judge(n, r, { http: overHttp = false } = {}) {
  if (r.timedOut) return `N=${n}: hung (killed after ${TIMEOUT_MS} ms)`;
  if (/AddressSanitizer|runtime error:/.test(r.stderr)) return `N=${n}: sanitizer report: ${r.stderr.slice(0, 500)}`;
  if (r.signal === 'SIGABRT') {
    return /out of memory/.test(r.stderr) ? null : `N=${n}: aborted without saying "out of memory": ${r.stderr.slice(-500)}`;
  }
  if (r.signal) return `N=${n}: died of ${r.signal}: ${r.stderr.slice(-500)}`;
  if (r.code === 1 && /out of memory|cannot allocate|ENOMEM/i.test(r.stderr) && r.replies.length === 0) return null; // a start-up failure, reported
  if (r.code !== 0) return `N=${n}: exited ${r.code}: ${r.stderr.slice(-500)}`;
  if (r.replies.some((m) => m.notJson !== undefined)) return `N=${n}: a stdout line that is not JSON`;
  const problems = checkAnswers(r.replies);
  return problems.length ? `N=${n}: ${problems.join('; ')}` : null;
}

/** Ns to try: every one of the first `head`, then evenly spaced to total. */
function plan(total, runs) {
  const head = Math.min(total, Math.floor(runs / 2));
  const ns = Array.from({ length: head }, (_, i) => i + 1);
  const rest = runs - head;
  for (let k = 1; k <= rest && head < total; k++) ns.push(head + Math.ceil(((total - head) * k) / rest));
  return [...new Set(ns)];
}

async function sweep(t, run, label) {
  const clean = await run(0, true);
  assert.equal(judge(0, clean), null, `${label}: the mix without a failure: ${judge(0, clean)}`);
  const total = Number(/failmalloc: (\d+) allocations/.exec(clean.stderr)?.[1]);
  assert.ok(total > 100, `${label}: counted ${total} allocations`);
  const ns = plan(total, RUNS);
  const problems = [];
  const outcomes = { aborted: 0, answered: 0 };
  for (let i = 0; i < ns.length; i += 2) {
    const batch = ns.slice(i, i + 2);
    const rs = await Promise.all(batch.map((n) => run(n)));
    rs.forEach((r, k) => {
      const p = judge(batch[k], r);
      if (p) problems.push(p);
      else outcomes[r.signal === 'SIGABRT' ? 'aborted' : 'answered']++;
    });
  }
  t.diagnostic(`${label}: ${total} allocations in the mix; ${ns.length} runs: ${outcomes.aborted} aborted with "out of memory", ${outcomes.answered} answered every request`);
  assert.deepEqual(problems, []);
}

test('stdio: a failed allocation anywhere in the mix aborts with "out of memory" or is an error for one request', { skip }, async (t) => {
  await sweep(t, runStdio, 'stdio');
});

test('HTTP session: the same', { skip }, async (t) => {
  await sweep(t, runHttp, 'http');
});
