// execute_code over HTTP: results and errors as JSON, progress and log
// notifications as an SSE stream that ends with the result (the SDK's
// onprogress sees them), cancellation, many calls and sessions at once, and
// what a client disconnect means: nothing in a 2025 session (the program runs
// on, unheard), a cancellation in 2026-07-28 (the worker is killed).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { auditSchemas } from './lib/audit.mjs';
import { HttpServer, JSON_HEADERS, MODERN, RawSession, modernMeta, recordingFetch, request } from './lib/http.mjs';
import { isAlive, runningWorkers, settledWorkers } from './lib/procs.mjs';
import { sleep } from './lib/raw.mjs';
import { Wire } from './lib/wire.mjs';

let srv, client, transport;
const logs = [];
const errors = [];

before(async () => {
  srv = await HttpServer.start(['--pool-size', '2'], { label: 'http-execute' });
  const wire = new Wire('sdk');
  transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { fetch: recordingFetch(srv, wire) });
  transport.onerror = (e) => errors.push(e);
  client = new Client({ name: 'e2e-http', version: '1.0.0' });
  await client.connect(transport);
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params); });
});

after(async () => {
  await client.close();
  assert.deepEqual(errors.map(String), [], 'the SDK transport reported no errors');
});

const run = (code, extra = {}, options) => client.callTool({ name: 'execute_code', arguments: { code, ...extra } }, undefined, options);

test('success and error results come back as JSON', async () => {
  const ok = await run('const o = {a: [1, 2]}; return o');
  assert.deepEqual(ok.structuredContent.result, { a: [1, 2] });
  const bad = await run('const x = 1;\nnull.f();');
  assert.equal(bad.isError, true);
  assert.equal(bad.structuredContent.error.name, 'TypeError');
  assert.match(bad.content[0].text, /line 2/);
  const syntax = await run('return (;');
  assert.equal(syntax.isError, true);
  assert.equal(syntax.structuredContent.error.name, 'SyntaxError');
});

test('progress: the reply turns into an SSE stream; every console line arrives before the result', async () => {
  const seen = [];
  const code = 'for (let i = 1; i <= 4; i++) { console.log("step " + i); await sleep(40); }\nreturn "done";';
  const r = await run(code, {}, { onprogress: (p) => seen.push(p) });
  assert.equal(r.structuredContent.result, 'done');
  assert.deepEqual(seen.map((p) => p.message), ['step 1', 'step 2', 'step 3', 'step 4']);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress);
});

test('progress over raw HTTP: 200 text/event-stream, notifications then the reply, then the stream ends', async () => {
  const s = await RawSession.open(srv, '2025-06-18');
  const r = await s.call('tools/call', { name: 'execute_code', arguments: { code: 'console.log("a"); await sleep(30); console.log("b"); return 1' }, _meta: { progressToken: 'tok' } });
  assert.equal(r.status, 200);
  assert.match(r.headers['content-type'], /^text\/event-stream/);
  assert.equal(r.headers['x-accel-buffering'], 'no');
  assert.deepEqual(r.messages.map((m) => m.method ?? 'reply'), ['notifications/progress', 'notifications/progress', 'reply']);
  assert.equal(r.messages[2].result.structuredContent.result, 1);
  const plain = await s.call('tools/call', { name: 'execute_code', arguments: { code: 'console.log("quiet"); return 2' } });
  assert.match(plain.headers['content-type'], /^application\/json/, 'no progress token, no logging: plain JSON');
});

test('logging: console lines become notifications/message on the stream', async () => {
  await client.setLoggingLevel('info');
  logs.length = 0;
  await run('console.log("a"); await sleep(20); console.error("c"); return 0');
  await sleep(50);
  assert.deepEqual(logs.map((m) => [m.level, m.data]), [['info', 'a'], ['error', 'c']]);
  await client.setLoggingLevel('emergency');
});

test('concurrency: six 200 ms calls on one session with two workers, and eight sessions at once', async () => {
  const t0 = Date.now();
  const rs = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => run(`await sleep(200); return ${i}`)));
  assert.deepEqual(rs.map((r) => r.structuredContent.result), [1, 2, 3, 4, 5, 6]);
  assert.ok(Date.now() - t0 < 3000, `took ${Date.now() - t0} ms`);
  const sessions = await Promise.all([...Array(8).keys()].map(() => RawSession.open(srv, '2025-11-25')));
  const out = await Promise.all(sessions.map((s, i) => s.call('tools/call', { name: 'execute_code', arguments: { code: `return ${i} * 10` } })));
  assert.deepEqual(out.map((r) => r.messages[0].result.structuredContent.result), [0, 10, 20, 30, 40, 50, 60, 70]);
  await Promise.all(sessions.map((s) => s.delete()));
});

test('cancellation (2025): an aborted SDK call is cancelled, its worker killed, the next call prompt', async () => {
  const ac = new AbortController();
  const p = run('while (true) {}', { timeoutMs: 60000 }, { signal: ac.signal });
  const outcome = p.then(() => 'resolved', (e) => e);
  await sleep(300);
  const workers = await settledWorkers(srv.pid, 1);
  assert.equal(workers.length, 1);
  ac.abort('test cancels');
  assert.notEqual(await outcome, 'resolved');
  const t = Date.now();
  while (isAlive(workers[0]) && Date.now() - t < 1000) await sleep(10);
  assert.equal(isAlive(workers[0]), false, 'the worker was killed');
  const t0 = Date.now();
  assert.equal((await run('return "after"')).structuredContent.result, 'after');
  assert.ok(Date.now() - t0 < 1000);
});

test('disconnect (2025): not a cancellation, the program runs on', async () => {
  const s = await RawSession.open(srv, '2025-11-25');
  const ac = new AbortController();
  const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'const t = Date.now(); while (Date.now() - t < 1500) {} return 1' } } };
  const pending = request(srv, { headers: s.headers(), body, signal: ac.signal, wire: s.wire }).catch((e) => e);
  await sleep(300);
  const running = await settledWorkers(srv.pid, 1);
  assert.equal(running.length, 1, 'a worker runs the program');
  const [worker] = running;
  ac.abort();
  await pending;
  await sleep(200);
  assert.equal(isAlive(worker), true, 'still running after the client left');
  assert.equal((await runningWorkers(srv.pid)).includes(worker), true);
  s.wire.pending.get('7').answered = true; // its reply was dropped on purpose
});

test('disconnect (2026-07-28): a cancellation, the worker is killed', async () => {
  for (let i = 0; i < 40 && (await runningWorkers(srv.pid)).length > 0; i++) await sleep(50); // the previous program ends
  const ac = new AbortController();
  const wire = new Wire('modern disconnect');
  const body = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'while (true) {}', timeoutMs: 60000 }, _meta: modernMeta() } };
  const headers = { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': 'execute_code' };
  const pending = request(srv, { headers, body, signal: ac.signal, wire }).catch((e) => e);
  await sleep(300);
  const workers = await settledWorkers(srv.pid, 1);
  assert.equal(workers.length, 1);
  ac.abort();
  await pending;
  const t = Date.now();
  while (isAlive(workers[0]) && Date.now() - t < 1000) await sleep(10);
  assert.equal(isAlive(workers[0]), false, 'the worker was killed');
  wire.pending.get('8').answered = true; // cancelled: no reply, as required
});

auditSchemas({ minMessages: 30 });
