// Downstream faults on the wire (issue 16): a stdio server that sends half a
// reply then EOF, a 50 MB line, invalid UTF-8, a reply to an id we never sent,
// a reply twice, closes its stdout but stays alive, or exits without
// answering; and a Streamable HTTP server whose reply is a 500, a stream
// cut in the middle of an event, a slow drip, a wrong content type, or a
// redirect loop. Each time the program's call ends promptly (a result, or a
// ToolError naming the server; never a hang until the time limit), the host
// stays up, and the next call to the same server works. At the end the host
// holds no more file descriptors or children than before, and its RSS has
// not grown past a bound.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, eventually, serve, tempDir, valueOf, writeConfig, NODE } from './lib/downstream.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { childrenOf, fdList, isAlive, fdCount } from './lib/procs.mjs';

const FAULTY = path.join(REPO_ROOT, 'tests/fixtures/servers/faulty.mjs');
const HTTP_FIXTURE = path.join(REPO_ROOT, 'tests/fixtures/servers/http-mcp.mjs');
const TMP = tempDir('codemode-faults-');
const CALL_TIMEOUT_MS = 3000;

let s, baseline, web;

/** The HTTP fixture on a free port: resolves with its port once it listens. */
function startWeb() {
  web = spawn(NODE, [HTTP_FIXTURE, '--mode', 'streamable', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: web.stdout }).on('line', (l) => {
      const m = /^PORT (\d+)$/.exec(l);
      if (m) resolve(Number(m[1]));
    });
    web.on('exit', (c) => reject(new Error(`the HTTP fixture exited (${c})`)));
  });
}

const fds = fdCount; // the state database, opened on first use and kept, apart
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

before(async () => {
  const port = await startWeb();
  const config = writeConfig(TMP, {
    mcpServers: {
      faulty: { command: NODE, args: [FAULTY], timeoutMs: CALL_TIMEOUT_MS },
      web: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, timeoutMs: CALL_TIMEOUT_MS },
    },
  });
  s = await serve(config, { label: 'faults', args: ['--log-level', 'warning'] });
  await echoWorks();
  await echoWorks('web'); // the HTTP server's connection is part of the steady state
  baseline = { fds: fds(s.pid), children: childrenOf(s.pid).length, rss: rssKiB(s.pid), list: fdList(s.pid) };
});
after(async () => {
  web?.kill('SIGTERM');
  await assertClean(s);
});

/** The next call to the same server works (after a restart, if it went down). */
async function echoWorks(server = 'faulty') {
  const echo = server === 'faulty' ? '{ n: 7 }' : '{ text: "7" }';
  await eventually(async () => (await s.exec(`return await tools.${server}.echo(${echo})`)).ok, {
    timeout: 8000, every: 100, what: `a working call to ${server} after the fault`,
  });
  assert.ok(isAlive(s.pid), 'the host is still running');
}

/** Runs fault(mode) in a program: {value} or {error: {name, message}}, and how long it took. */
async function fault(mode, server = 'faulty') {
  const t0 = Date.now();
  const r = valueOf(await s.exec(`
    try { return { value: await tools.${server}.fault({ mode: ${JSON.stringify(mode)} }) }; }
    catch (e) { return { error: { name: e.name, message: e.message } }; }`, { timeoutMs: 20000 }));
  return { ...r, ms: Date.now() - t0 };
}

/** The call failed at once, with a ToolError naming the server. */
function failedPromptly(r, re, server = 'faulty') {
  assert.ok(r.error, `expected an error, got ${JSON.stringify(r)}`);
  assert.equal(r.error.name, 'ToolError');
  assert.match(r.error.message, new RegExp(`server '${server}'`));
  assert.match(r.error.message, re);
  assert.ok(r.ms < CALL_TIMEOUT_MS, `failed after ${r.ms} ms: before the call timeout (${CALL_TIMEOUT_MS} ms), not by it`);
}

test('half a reply, then EOF: a ToolError at once, and the server is started again', async () => {
  // the half reply names the call's id: it fails as unreadable at once, or the exit comes first
  failedPromptly(await fault('partial_eof'), /went down during the call to 'fault'|its response to tools\/call could not be read/);
  await echoWorks();
});

test('exit without answering: a ToolError at once naming the exit status', async () => {
  failedPromptly(await fault('exit'), /exited with status 4/);
  await echoWorks();
});

test('a 50 MB line: skipped without holding it, and the real reply that follows gets through', async () => {
  const r = await fault('huge_line');
  assert.deepEqual(r.value, { survived: 'huge_line' }, JSON.stringify(r));
  await echoWorks();
});

test('invalid UTF-8 in a reply: the call resolves at once and our output stays valid UTF-8', async () => {
  const r = await fault('bad_utf8');
  assert.ok(r.ms < CALL_TIMEOUT_MS, `${r.ms} ms`);
  if (r.error) failedPromptly(r, /./);
  else assert.match(String(r.value), /^a.*b$/su, 'the bytes that are not UTF-8 are replaced, the rest is kept');
  await echoWorks();
});

test('a reply to an id never sent is ignored; the real reply gets through', async () => {
  assert.deepEqual((await fault('unknown_id')).value, { survived: 'unknown_id' });
  await echoWorks();
});

test('the same reply twice: the first settles the call, the second is ignored', async () => {
  assert.deepEqual((await fault('twice')).value, { survived: 'twice' });
  await echoWorks();
});

test('stdout closed while the process stays alive: the call fails at once and the server is replaced', async () => {
  const before = valueOf(await s.exec('return await tools.faulty.pid({})'));
  failedPromptly(await fault('close_stdout'), /went down during the call to 'fault': it closed its output \(stdout\) but kept running, so it was stopped/);
  await echoWorks();
  const now = valueOf(await s.exec('return await tools.faulty.pid({})'));
  assert.notEqual(now, before, 'a new server process answers');
  assert.ok(!isAlive(before), 'the silent process was stopped, not left behind');
});

test('HTTP 500: a ToolError at once with the status', async (t) => {
  const r = await fault('http500', 'web');
  t.diagnostic(JSON.stringify(r));
  failedPromptly(r, /500/, 'web');
  await echoWorks('web');
});

test('an SSE reply cut in the middle of an event: a ToolError at once', async (t) => {
  const r = await fault('cut_mid_event', 'web');
  t.diagnostic(JSON.stringify(r));
  failedPromptly(r, /./, 'web');
  await echoWorks('web');
});

test('a reply dripping 8 bytes every 15 ms still arrives whole', async () => {
  assert.deepEqual((await fault('drip', 'web')).value, { survived: 'drip' });
  await echoWorks('web');
});

test('a 200 with text/html instead of JSON or SSE: a ToolError at once naming the content type', async (t) => {
  const r = await fault('wrong_type', 'web');
  t.diagnostic(JSON.stringify(r));
  failedPromptly(r, /text\/html/, 'web');
  await echoWorks('web');
});

test('a redirect loop: a ToolError at once, not a hang', async (t) => {
  const r = await fault('redirect_loop', 'web');
  t.diagnostic(JSON.stringify(r));
  failedPromptly(r, /./, 'web');
  await echoWorks('web');
});

test('after every fault: no descriptor, child or memory left behind', async () => {
  await eventually(() => fds(s.pid) <= baseline.fds, { timeout: 5000, every: 100, what: `fds back to ${baseline.fds} (now ${fds(s.pid)}: ${fdList(s.pid)}; at the start: ${baseline.list})` });
  await eventually(() => childrenOf(s.pid).length <= baseline.children, { timeout: 5000, every: 100, what: 'children back to the baseline' });
  const grown = rssKiB(s.pid) - baseline.rss;
  // AddressSanitizer keeps freed memory in quarantine (up to 256 MiB): RSS says nothing there
  if (!/libasan/.test(readFileSync(`/proc/${s.pid}/maps`, 'utf8')))
    assert.ok(grown < 16 * 1024, `RSS grew by ${grown} KiB across the faults (a 50 MB line must not be held)`);
});

auditSchemas();
