// Hostile programs against the resource limits: CPU loops, memory bombs,
// deep recursion, catastrophic regexes, long native calls, huge console
// output and results, a worker killed from outside, floods of concurrent
// executions against codemode.sandbox.maxWorkers and maxConcurrentPerPrincipal.
// Each must end with a clear error (or a capped result) and leave the server
// able to run the next program. One server for the file, with small limits
// (and one more per flood, with small caps).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auditSchemas } from './lib/audit.mjs';
import { assertError, assertStillServes, runTimed } from './lib/hostile.mjs';
import { HttpServer, recordingFetch, writeConfig } from './lib/http.mjs';
import { worstPingDuring } from './lib/latency.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { childrenOf, isAlive, runningWorkers, zygoteOf } from './lib/procs.mjs';
import { sleep, startServer } from './lib/raw.mjs';
import { Wire } from './lib/wire.mjs';

const LOG_LIMIT = 4096;
const RESULT_LIMIT = 4096;
let srv;

before(async () => {
  srv = startServer(['--memory-limit-mb', '16', '--max-log-bytes', String(LOG_LIMIT),
    '--max-result-bytes', String(RESULT_LIMIT), '--pool-size', '2', '--timeout-ms', '5000'], { label: 'hostile-limits' });
  await srv.initialize('2025-11-25');
});

test('while(true){} ends with a TimeoutError at its time limit', async () => {
  const res = await runTimed(srv, 'var i = 0;\nwhile (true) { i++; }', { timeoutMs: 300 });
  assertError(res, 'TimeoutError', /300 ms/);
  assert.equal(res.sc.error.line, 2);
  assert.ok(res.ms >= 290 && res.ms < 1500, `${res.ms} ms`);
  await assertStillServes(srv);
});

test('an integer loop (sum, bit test, compare and branch) ends with a TimeoutError at its time limit', async () => {
  // runs in the engine's integer block (Duktape patch 0041), which counts
  // instructions against the interrupt counter in a local of its own
  const code = 'let s = 0, c = 0;\nfor (let i = 0; ; i = (i + 1) | 0) {\n  s = (s + i) & 0xffff;\n  if ((i & 7) === 3) c++;\n}';
  const res = await runTimed(srv, code, { timeoutMs: 300 });
  assertError(res, 'TimeoutError', /300 ms/);
  assert.ok([2, 3, 4].includes(res.sc.error.line), `line ${res.sc.error.line}`);
  assert.ok(res.ms >= 290 && res.ms < 1500, `${res.ms} ms`);
  await assertStillServes(srv);
});

test('a memory bomb of distinct strings ends with RangeError: out of memory (16 MiB)', async () => {
  const res = await runTimed(srv, "var a = []; while (1) a.push('x'.repeat(1e5) + a.length)");
  assertError(res, 'RangeError', /out of memory.*16 MiB/);
  assert.ok(res.ms < 3000, `${res.ms} ms`);
  await assertStillServes(srv);
});

test('a 100 MB string ends with RangeError: out of memory', async () => {
  const res = await runTimed(srv, "return 'x'.repeat(1e8).length");
  assertError(res, 'RangeError', /out of memory/);
  await assertStillServes(srv);
});

test('a doubling string ends with RangeError: out of memory', async () => {
  const res = await runTimed(srv, "var s = 'x'; for (var i = 0; i < 40; i++) s = s + s; return s.length");
  assertError(res, 'RangeError', /out of memory/);
  await assertStillServes(srv);
});

test('deep recursion ends with a RangeError', async () => {
  const res = await runTimed(srv, 'function f() { return f() + 1 }\nf()');
  assertError(res, 'RangeError');
  assert.equal(res.sc.error.line, 1);
  await assertStillServes(srv);
});

test('a sort comparator that loops, allocates without end or recurses ends with its error, and the server serves on', async () => {
  // 5000 elements: the sort in C, past its first block of 2048.
  const arr = 'var a = []; for (var i = 0; i < 5000; i++) a.push({ k: (i * 7919) % 5000 });\n';
  const loop = await runTimed(srv, arr + 'var n = 0;\na.sort(function (x, y) { if (++n > 20000) while (true) {} return x.k - y.k; });',
    { timeoutMs: 300 });
  assertError(loop, 'TimeoutError', /300 ms/);
  assert.equal(loop.sc.error.line, 3);
  const bomb = await runTimed(srv, arr + 'var keep = [];\na.sort(function (x, y) { keep.push("x".repeat(1e4) + keep.length); return x.k - y.k; });');
  // The limit can also strike while Duktape builds the RangeError itself
  // (DoubleError), as it did before the sort's call path changed.
  assert.equal(bomb.r.isError, true, bomb.raw.slice(0, 300));
  assert.ok(/^(RangeError|DoubleError)$/.test(bomb.sc.error.name), bomb.raw.slice(0, 300));
  assert.ok(bomb.sc.stats.memoryPeakBytes > 15 * 1024 * 1024, bomb.raw.slice(0, 300));
  const deep = await runTimed(srv, arr + 'function cmp(x, y) { return a.slice(0, 3).sort(cmp) && x.k - y.k; }\na.sort(cmp);');
  assertError(deep, 'RangeError');
  const ok = await runTimed(srv, arr + 'a.sort(function (x, y) { return x.k - y.k; }); return [a[0].k, a[4999].k];');
  assert.ok(!ok.r.isError, ok.raw.slice(0, 300));
  assert.deepEqual(ok.sc.result, [0, 4999]);
  await assertStillServes(srv);
});

test('deep recursion through a getter and through JSON.stringify of a deep object end with errors', async () => {
  const g = await runTimed(srv, 'var o = {}; Object.defineProperty(o, "x", {get: function () { return this.x }}); return o.x');
  assertError(g, 'RangeError');
  const deep = await runTimed(srv, 'var o = {}; for (var i = 0; i < 1e5; i++) o = {a: o}; return JSON.stringify(o).length');
  assert.equal(deep.r.isError, true, deep.raw.slice(0, 300));
  assert.match(deep.sc.error.name, /RangeError|Error/);
  await assertStillServes(srv);
});

test('catastrophic regex backtracking ends with a TimeoutError within the time limit', async () => {
  const res = await runTimed(srv, "return /(a+)+b/.test('a'.repeat(40))", { timeoutMs: 500 });
  assertError(res, 'TimeoutError');
  assert.ok(res.ms >= 490 && res.ms < 1500, `${res.ms} ms`);
  await assertStillServes(srv);
});

test('a long native call is killed at the hard deadline with a TimeoutError', async () => {
  const res = await runTimed(srv, "return new Array(1e8).join('x').length", { timeoutMs: 500 });
  assertError(res, 'TimeoutError', /500 ms/);
  // the soft deadline cannot interrupt the built-in; the hard one (time limit + grace) kills the worker
  assert.ok(res.ms >= 490 && res.ms < 2500, `${res.ms} ms`);
  await assertStillServes(srv);
});

test('a microtask flood and a timer flood end with a TimeoutError', async () => {
  // (no `return` in f: a chain of promises each waiting on the next would be a memory bomb instead)
  const micro = await runTimed(srv, 'function f() { Promise.resolve().then(f) }\nf();\n__await(sleep(100000));', { timeoutMs: 400 });
  assertError(micro, 'TimeoutError');
  assert.ok(micro.ms < 2000, `${micro.ms} ms`);
  const timers = await runTimed(srv, 'setInterval(function () { for (var i = 0; i < 1e5; i++); }, 0);\n__await(sleep(100000));', { timeoutMs: 400 });
  assertError(timers, 'TimeoutError');
  assert.ok(timers.ms < 2000, `${timers.ms} ms`);
  await assertStillServes(srv);
});

test('a promise that can never settle ends with an error at once', async () => {
  const res = await runTimed(srv, '__await(new Promise(function () {})); return 1');
  assertError(res, 'Error', /never settle/);
  assert.ok(res.ms < 1000, `${res.ms} ms`);
  await assertStillServes(srv);
});

test('huge console output is capped at --max-log-bytes with a truncation notice', async () => {
  const line = (i) => `line ${i} ${'y'.repeat(50)}`;
  const res = await runTimed(srv, "for (var i = 0; i < 1000; i++) console.log('line ' + i + ' ' + 'y'.repeat(50)); return 'done'");
  assert.equal(res.r.isError, undefined);
  assert.equal(res.sc.result, 'done');
  const logs = res.sc.logs;
  const kept = logs.filter((l) => l.startsWith('line '));
  assert.ok(kept.length > 0 && kept.length < 1000);
  kept.forEach((l, i) => assert.equal(l, line(i)));
  const bytes = kept.reduce((n, l) => n + Buffer.byteLength(l), 0);
  assert.ok(bytes <= LOG_LIMIT, `${bytes} bytes of console output kept`);
  const dropped = 1000 - kept.length;
  assert.equal(logs.length, kept.length + 1, 'one truncation notice after the kept lines');
  assert.match(logs[logs.length - 1], new RegExp(`${dropped} more console lines dropped`));
  assert.equal(res.sc.stats.logLinesDropped, dropped);
  assert.match(res.r.content[1].text, /console lines dropped/);
  await assertStillServes(srv);
});

test('a huge result is truncated at --max-result-bytes with a notice in the text', async () => {
  const res = await runTimed(srv, "return 'z'.repeat(100000)");
  assert.equal(res.r.isError, undefined);
  const text = res.r.content[0].text;
  assert.match(text, /\[result truncated: its JSON is 100002 bytes, over the limit of 4096 bytes/);
  assert.ok(text.length < RESULT_LIMIT + 400, `text of ${text.length} chars`);
  assert.equal(res.sc.result, null);
  const { uri, ...size } = res.sc.resultTruncated; // the whole result is stashed (content.test.mjs)
  assert.deepEqual(size, { bytes: 100002, limit: RESULT_LIMIT });
  assert.match(uri, /^codemode:\/\/stash\/[0-9a-f]{32}$/);
  assert.ok(res.raw.length < 2 * RESULT_LIMIT + 1000, `reply of ${res.raw.length} bytes`);
  const arr = await runTimed(srv, 'var a = []; for (var i = 0; i < 5000; i++) a.push({i: i}); return a');
  assert.match(arr.r.content[0].text, /\[result truncated/);
  await assertStillServes(srv);
});

test('a worker killed from outside (kill -9) gives an isError SandboxError, and the next call works', async () => {
  const mark = srv.mark;
  const pending = srv.call('__await(sleep(10000)); return "never"', { timeoutMs: 20000 });
  let workers = [];
  for (let i = 0; i < 20 && workers.length === 0; i++) workers = await runningWorkers(srv.pid, 50);
  assert.equal(workers.length, 1, 'one worker runs the program');
  const t0 = Date.now();
  process.kill(workers[0], 'SIGKILL');
  const line = await pending;
  const ms = Date.now() - t0;
  const r = line.msg.result;
  assert.equal(r.isError, true, line.raw);
  assert.equal(r.structuredContent.error.name, 'SandboxError');
  assert.match(r.structuredContent.error.message, /killed/);
  assert.ok(ms < 1000, `reply ${ms} ms after the kill`);
  assert.equal(isAlive(workers[0]), false);
  assert.equal(srv.linesSince(mark).length, 1);
  await assertStillServes(srv);
});

// What a worker sends is checked against a limit per kind of message before
// the host parses it. A worker that ignores its own limits (as a
// compromised one could: MCP_CODEMODE_TEST_WORKER_UNCAPPED makes ours do
// so) is stopped by the host's, with an error in that execution only.
let uncapped;
function uncappedServer() {
  uncapped ??= (async () => {
    const s = startServer(['--max-log-bytes', '4096', '--max-result-bytes', '4096',
      '--max-call-argument-bytes', '65536', '--pool-size', '1'],
    { label: 'hostile-uncapped', env: { ...process.env, MCP_CODEMODE_TEST_WORKER_UNCAPPED: '1' } });
    await s.initialize('2025-11-25');
    return s;
  })();
  return uncapped;
}

test('a worker sending a console line over its limit is stopped with a SandboxError; the next call works', async () => {
  const s = await uncappedServer();
  const small = await runTimed(s, "console.log('small'); return 1"); // the hook alone breaks nothing
  assert.equal(small.sc.result, 1);
  assert.deepEqual(small.sc.logs, ['small']);
  const res = await runTimed(s, "console.log('x'.repeat(100000)); return 1");
  assertError(res, 'SandboxError', /console line of (at least )?\d+ bytes, over its limit of 25600 bytes/);
  await assertStillServes(s);
});

test('a worker sending call arguments over maxCallArgumentBytes is stopped with a SandboxError; the next call works', async () => {
  const s = await uncappedServer();
  const ok = await runTimed(s, "return typeof (await content.stash('x'.repeat(60000)))");
  assert.equal(ok.sc.result, 'object', ok.raw.slice(0, 300));
  const res = await runTimed(s, "await content.stash('x'.repeat(100000)); return 1");
  assertError(res, 'SandboxError', /tool call arguments of \d+ bytes, over their limit of 65536 bytes \(maxCallArgumentBytes\)/);
  await assertStillServes(s);
  const big = await runTimed(s, "await searchTools('x'.repeat(300000)); return 1");
  assertError(big, 'SandboxError', /host call of at least \d+ bytes, over its limit of 131072 bytes/);
  await assertStillServes(s);
  const many = await runTimed(s, 'await content.stash(new Array(5000).fill(7)); return 1');
  assertError(many, 'SandboxError', /tool call arguments holding 5001 JSON values, over their limit of 4096 \(one per 16 bytes of maxCallArgumentBytes\)/);
  await assertStillServes(s);
});

test('a worker sending a result over its limit is stopped with a SandboxError; the next call works', async () => {
  const s = await uncappedServer();
  const res = await runTimed(s, "return 'z'.repeat(20000)");
  assertError(res, 'SandboxError', /result value of 20002 bytes, over its limit of 8192 bytes \(2 x maxResultBytes\)/);
  await assertStillServes(s);
});

test('call arguments over maxCallArgumentBytes throw in the program, which goes on', async () => {
  const s = startServer(['--max-call-argument-bytes', '65536', '--pool-size', '1'], { label: 'hostile-call-args' });
  await s.initialize('2025-11-25');
  const res = await runTimed(s, `
    let caught;
    try { await content.stash('x'.repeat(100000)); } catch (e) { caught = e.message; }
    let query;
    try { await searchTools('q'.repeat(100000)); } catch (e) { query = e.message; }
    let values;
    try { await content.stash(new Array(5000).fill(7)); } catch (e) { values = e.message; }
    return [caught, query, typeof (await content.stash('x'.repeat(60000))), values,
      typeof (await content.stash(new Array(4000).fill(7)))];`);
  assert.equal(res.r.isError, undefined, res.raw.slice(0, 300));
  assert.match(res.sc.result[0], /arguments of this call are 100002 bytes of JSON, over the limit of 65536 bytes \(maxCallArgumentBytes\)/);
  assert.match(res.sc.result[1], /name or query of this call is 100000 bytes, over the limit of 16384 bytes/);
  assert.equal(res.sc.result[2], 'object');
  // 10 KB of JSON, but 5,001 values: a tree of them would cost the host ~40 times its text
  assert.equal(res.sc.result[3], 'the arguments of this call hold 5001 JSON values, over the limit of 4096 (one per 16 bytes of maxCallArgumentBytes)');
  assert.equal(res.sc.result[4], 'object');
  await assertStillServes(s);
});

function statusKb(pid, key) {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
  return Number(m[1]);
}

test('a big result costs the host about its size, and the host answers pings while it comes', async () => {
  // 8 MiB of small numbers in an array: parsed into a tree it cost the host
  // ~40 bytes per byte and stopped its loop for seconds
  const s = startServer(['--memory-limit-mb', '512', '--max-result-bytes', '65536', '--pool-size', '1'],
    { label: 'hostile-big-result' });
  await s.initialize('2025-11-25');
  await assertStillServes(s);
  const ping = () => s.request('ping', {}, { timeout: 60000 });
  // the program's time limit and the reply's deadline (not the property under
  // test): an 8 MiB result under AddressSanitizer on a loaded machine, with a
  // ping every 2 ms, can take longer than the default 30 s and 20 s
  const deadlines = { timeoutMs: 120000, timeout: 120000 };
  // the baseline, in this run and under the machine's load of the moment: a
  // result of the same size in one string. The host's work per byte is the
  // same; a host that made a tree of the result pays for its 4 million
  // values on top
  const one = await worstPingDuring(ping, () => runTimed(s, 'return "x".repeat(8388607)', deadlines));
  assert.equal(one.value.sc.resultTruncated.bytes, 8388609, one.value.raw.slice(0, 300));
  const before = statusKb(s.pid, 'VmHWM');
  const { value: res, worst } = await worstPingDuring(ping, () => runTimed(s, 'return new Array(4194304).fill(1)', deadlines));
  assert.equal(res.r.isError, undefined, res.raw.slice(0, 300));
  assert.deepEqual(res.sc.resultTruncated.bytes, 8388609);
  const peak = statusKb(s.pid, 'VmHWM');
  assert.ok(peak - before < 80 * 1024, `the server's peak RSS grew by ${peak - before} kB for an 8 MiB result`);
  const bound = Math.max(150, 3 * one.worst);
  assert.ok(worst < bound, `a ping took ${worst.toFixed(1)} ms while an 8 MiB array came, ${one.worst.toFixed(1)} ms while an 8 MiB string came (bound ${bound.toFixed(1)} ms)`);
  // the whole result is kept, and reads back as the program's value
  const read = await s.request('resources/read', { uri: res.sc.resultTruncated.uri }, { timeout: 60000 });
  const text = read.msg.result.contents[0].text;
  assert.equal(text.length, 8388609);
  assert.ok(text.startsWith('[1,1,') && text.endsWith(',1]'));
  await assertStillServes(s);
});

test('a tool call with megabytes of arguments, echoed back, never holds the host\'s loop for long and leaves the host its size', async () => {
  // The largest call a program may make: ~4 MB in 250,000 values (the limit is
  // one value per 16 bytes of maxCallArgumentBytes), out to a downstream and
  // back. Parsed into trees on the loop (and copied twice) such calls stopped
  // the host for ~220 ms each way; 1.9M small numbers (3.8 MB) were accepted.
  const file = writeConfig({}, { rec: { command: process.execPath, args: [path.join(REPO_ROOT, 'tests/fixtures/servers/recorder.mjs')] } });
  const s = startServer(['--config', file, '--memory-limit-mb', '512', '--max-result-bytes', '65536', '--pool-size', '1'],
    { label: 'hostile-big-call' });
  await s.initialize('2025-11-25');
  await assertStillServes(s);
  const asan = /libasan/.test(readFileSync(`/proc/${s.pid}/maps`, 'utf8'));
  const refused = await runTimed(s, `try { await tools.rec.echo({ i: 0, big: new Array(1900000).fill(7) }); return 'sent'; }
    catch (e) { return e.message; }`, { timeout: 120000 });
  assert.equal(refused.sc.result, 'the arguments of this call hold 1900003 JSON values, over the limit of 262144 (one per 16 bytes of maxCallArgumentBytes)');
  // each round: the baseline, in this run and under the machine's load of the
  // moment, a call of the same size in one string (the host's work per byte
  // is the same; a host that made trees of the call pays for its 250,000
  // values on top), then the big call
  const call = (round, big, n) => runTimed(s, `const big = ${big};
      const r = await tools.rec.echo({ i: ${round}, big });
      const back = typeof r === 'string' ? JSON.parse(r) : r;
      return [back.args.i, back.args.big.length, back.args.big[${n - 1}], JSON.stringify({ big }).length]`,
    { timeoutMs: 120000, timeout: 120000 }); // deadlines for AddressSanitizer on a loaded machine, not the property under test
  const ping = () => s.request('ping', {}, { timeout: 60000 });
  const worsts = [], stringWorsts = [];
  for (let round = 0; round < 3; round++) {
    const one = await worstPingDuring(ping, () => call(round, "'v1000000abcd'.repeat(312500)", 3750000));
    assert.deepEqual(one.value.sc.result, [round, 3750000, 'd', 3750010], one.value.raw.slice(0, 300));
    stringWorsts.push(one.worst);
    const { value: res, worst } = await worstPingDuring(ping, () => call(round, "Array.from({ length: 250000 }, (_, k) => 'v' + (1000000 + k) + 'abcd')", 250000));
    assert.equal(res.r.isError, undefined, res.raw.slice(0, 300));
    assert.deepEqual(res.sc.result.slice(0, 3), [round, 250000, 'v1249999abcd']);
    assert.ok(res.sc.result[3] > 3.5e6, `the arguments are ${res.sc.result[3]} bytes`);
    worsts.push(worst);
  }
  // the medians of three rounds: one ping late for the machine's own reasons does not decide
  const median = (xs) => [...xs].sort((a, b) => a - b)[1];
  const bound = Math.max(100, 2 * median(stringWorsts));
  assert.ok(median(worsts) < bound, `pings took up to ${worsts.map((w) => w.toFixed(1)).join(', ')} ms while calls of 250,000 values came, ${stringWorsts.map((w) => w.toFixed(1)).join(', ')} ms while calls of one string of the same size came (bound ${bound.toFixed(1)} ms)`);
  // what is left after the calls: the trees are freed and their pages given back
  if (!asan) {
    const rss = statusKb(s.pid, 'VmRSS');
    const peak = statusKb(s.pid, 'VmHWM');
    assert.ok(rss < 100 * 1024, `the server keeps ${rss} kB after three big calls`);
    assert.ok(peak < 200 * 1024, `the server's peak was ${peak} kB for calls of 4 MB`);
  }
  await assertStillServes(s);
  await s.stop();
});

test('calls waiting for a person cost the host about their arguments\' size, not a tree of them', async () => {
  // 16 calls of an `ask` tool, each with 250,000 short strings (~2 MB, about
  // the most values a call may hold), all waiting for an answer that never
  // comes: kept as trees they cost ~90 bytes a value
  const file = writeConfig({ policy: { approvalTimeoutMs: 60000 } },
    { crm: { command: process.execPath, args: [path.join(REPO_ROOT, 'tests/fixtures/servers/annotated.mjs')] } });
  const s = startServer(['--config', file, '--memory-limit-mb', '512', '--pool-size', '1'],
    { label: 'hostile-approvals' });
  const init = await s.request('initialize', {
    protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'e2e-raw', version: '1' } });
  assert.ok(init.msg.result, init.raw);
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await assertStillServes(s);
  const before = statusKb(s.pid, 'VmHWM');
  const from = s.mark;
  s.post(`const ids = Array.from({ length: 250000 }, (_, k) => 'v' + k);
    await Promise.all(Array.from({ length: 16 }, (_, i) => tools.crm.delete_item({ id: String(i), ids })));`,
  { timeoutMs: 120000 });
  const asked = () => s.linesSince(from).filter((l) => l.msg?.method === 'elicitation/create').length;
  for (let i = 0; i < 600 && asked() < 16; i++) await sleep(50);
  assert.equal(asked(), 16, 'every call is waiting for a person');
  const peak = statusKb(s.pid, 'VmHWM');
  // 16 x 2 MB of JSON kept as text is 32 MB; as trees it is ~350 MB. Under
  // AddressSanitizer the freed trees of the calls stay in its quarantine: RSS means nothing there
  if (!/libasan/.test(readFileSync(`/proc/${s.pid}/maps`, 'utf8')))
    assert.ok(peak - before < 300 * 1024, `the server's peak RSS grew by ${peak - before} kB for 16 waiting calls`);
  await assertStillServes(s);
  await s.stop();
});

test('after all that, the server process is healthy and only its own children remain', async () => {
  await sleep(100);
  await assertStillServes(srv);
  assert.equal(isAlive(srv.pid), true);
});

// --- floods against codemode.sandbox.maxWorkers / maxConcurrentPerPrincipal ---------------

/** Samples the live workers below a server (children of its zygote) every 10 ms until stop(). */
function watchWorkers(serverPid) {
  const zygote = zygoteOf(serverPid);
  const w = { max: 0, samples: 0, stopped: false };
  w.done = (async () => {
    while (!w.stopped) {
      w.max = Math.max(w.max, childrenOf(zygote).length);
      w.samples++;
      await sleep(10);
    }
  })();
  w.stop = async () => { w.stopped = true; await w.done; return w; };
  return w;
}

async function zygoteReady(pid) {
  for (let i = 0; i < 100; i++) {
    try { return zygoteOf(pid); } catch { await sleep(20); }
  }
  return zygoteOf(pid);
}

/** An SDK client of `server` over legacy HTTP+SSE or Streamable HTTP, its traffic recorded. */
async function sdkClient(server, kind, label) {
  const wire = new Wire(label);
  const fetch = recordingFetch(server, wire);
  const transport = kind === 'sse'
    ? new SSEClientTransport(new URL(`${server.url}/sse`), { fetch })
    : new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { fetch });
  const client = new Client({ name: 'e2e-caps', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const sleeper = (i, ms) => `__await(sleep(${ms})); return ${i}`;

/** Splits a flood's results: the values of those that ran, and the refusals. */
function outcomes(results) {
  const ran = [], refused = [], other = [];
  results.forEach((r, i) => {
    const sc = r.structuredContent;
    if (!r.isError && sc?.result === i) ran.push(i);
    else if (r.isError && sc?.error?.name === 'CapacityError') refused.push({ i, r });
    else other.push({ i, r: JSON.stringify(r).slice(0, 300) });
  });
  return { ran, refused, other };
}

test('one stdio client fires 40 sleeping calls with maxWorkers 2, maxConcurrentPerPrincipal 2: 2 run at once, 32 queue and run, the last 6 are refused naming the setting', async () => {
  const cfg = writeConfig({ sandbox: { maxWorkers: 2, maxConcurrentPerPrincipal: 2 } });
  const s = startServer(['--config', cfg, '--pool-size', '2'], { label: 'caps-stdio' });
  await s.initialize('2025-11-25');
  await zygoteReady(s.pid);
  const watch = watchWorkers(s.pid);
  const mark = s.mark;
  const lines = Array.from({ length: 40 }, (_, i) => s.requestLine('tools/call',
    { name: 'execute_code', arguments: { code: sleeper(i, 100) } }, String(9000 + i)));
  for (const l of lines) s.wire.noteSent(l);
  const t0 = Date.now();
  s.write(lines.join('\n') + '\n'); // one write: all 40 arrive before any ends
  const replies = await Promise.all(lines.map((_, i) => s.wire.response(String(9000 + i), { from: mark, timeout: 30000 })));
  const ms = Date.now() - t0;
  await watch.stop();
  const { ran, refused, other } = outcomes(replies.map((r) => r.msg.result));
  assert.deepEqual(other, []);
  assert.deepEqual(ran, Array.from({ length: 34 }, (_, i) => i), '2 running + 32 queued (16 x maxConcurrentPerPrincipal) ran');
  assert.deepEqual(refused.map((x) => x.i), [34, 35, 36, 37, 38, 39]);
  for (const { r } of refused) {
    assert.match(r.structuredContent.error.message, /codemode\.sandbox\.maxConcurrentPerPrincipal/);
    assert.match(r.structuredContent.error.message, /did not run/);
    assert.match(r.content[0].text, /^CapacityError: too many executions of this client/);
  }
  assert.ok(ms >= 17 * 100 * 0.9, `34 calls of 100 ms, 2 at a time, took ${ms} ms`);
  assert.ok(watch.max <= 2, `${watch.max} workers alive at once (maxWorkers 2)`);
  // A queued call gives up after its own timeout; nothing of it ran.
  const long = [s.call(sleeper(0, 1500), { timeoutMs: 5000 }), s.call(sleeper(1, 1500), { timeoutMs: 5000 })];
  await sleep(100);
  const t1 = Date.now();
  const late = await s.call('console.log("ran"); return 2', { timeoutMs: 300 });
  assert.equal(late.msg.result.isError, true);
  assert.equal(late.msg.result.structuredContent.error.name, 'TimeoutError');
  assert.match(late.msg.result.structuredContent.error.message, /within the execution's timeout \(300 ms\).*did not run/s);
  assert.deepEqual(late.msg.result.structuredContent.logs, []);
  assert.ok(Date.now() - t1 < 1200, `gave up after ${Date.now() - t1} ms`);
  for (const r of await Promise.all(long)) assert.equal(r.msg.result.isError, undefined);
  await assertStillServes(s);
});

test('a legacy SSE session and a Streamable HTTP session fire 40 sleeping calls each (maxWorkers 3, maxConcurrentPerPrincipal 1): workers stay within the cap, one run per session at a time, the excess is refused, other principals are served meanwhile', async () => {
  const cfg = writeConfig({ sandbox: { maxWorkers: 3, maxConcurrentPerPrincipal: 1 } });
  const server = await HttpServer.start(['--config', cfg, '--pool-size', '2'], { label: 'caps-http' });
  const clients = [];
  try {
    await zygoteReady(server.pid);
    const sse = await sdkClient(server, 'sse', 'caps legacy SSE');
    const streamable = await sdkClient(server, 'streamable-http', 'caps streamable');
    clients.push(sse, streamable);
    const watch = watchWorkers(server.pid);
    const fire = (c) => Promise.all(Array.from({ length: 40 }, (_, i) =>
      c.callTool({ name: 'execute_code', arguments: { code: sleeper(i, 200) } })));
    const t0 = Date.now();
    const floods = [fire(sse), fire(streamable)];
    await sleep(300);
    // Two more principals while both floods run: the third takes the last
    // worker place, the fourth the place of the third's kept worker.
    for (const label of ['caps third', 'caps fourth']) {
      const c = await sdkClient(server, 'streamable-http', label);
      clients.push(c);
      const t1 = Date.now();
      const r = await c.callTool({ name: 'execute_code', arguments: { code: `return "${label}"` } });
      assert.equal(r.structuredContent.result, label);
      assert.ok(Date.now() - t1 < 2000, `${label}: ${Date.now() - t1} ms during the floods`);
    }
    const [a, b] = await Promise.all(floods);
    const ms = Date.now() - t0;
    await watch.stop();
    for (const [name, res] of [['sse', a], ['streamable', b]]) {
      const { ran, refused, other } = outcomes(res);
      assert.deepEqual(other, [], name);
      assert.ok(ran.length >= 17, `${name}: ${ran.length} ran (1 running + 16 queued at least)`);
      assert.ok(refused.length >= 1, `${name}: none refused`);
      assert.equal(ran.length + refused.length, 40);
      for (const { r } of refused) assert.match(r.structuredContent.error.message, /codemode\.sandbox\.maxConcurrentPerPrincipal/);
      // one at a time per session: its runs of 200 ms follow each other
      assert.ok(ms >= ran.length * 200 * 0.9, `${name}: ${ran.length} runs of 200 ms in ${ms} ms`);
    }
    assert.ok(watch.samples > 20);
    assert.ok(watch.max <= 3, `${watch.max} workers alive at once (maxWorkers 3)`);
    const after = await sse.callTool({ name: 'execute_code', arguments: { code: 'return "after"' } });
    assert.equal(after.structuredContent.result, 'after');
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    await server.stop();
  }
});

auditSchemas();
