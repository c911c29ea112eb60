// A misbehaving downstream through the product (issue 4): a server that
// crashes mid-call, hangs (short timeoutMs), prints garbage on stdout,
// returns 20 MB (and 40 MB), or changes its tool list. Each time the host
// stays up, the program gets a clear error naming the server, and the next
// execute_code works. Also cancellation: aborting an execute_code call (SDK
// AbortSignal) while its program waits on a hanging downstream call sends
// notifications/cancelled for that call to the downstream server, and so
// does a program that ends with a call still pending. The list_changed case
// runs on a raw stdio client, to see the exact line.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { isAlive } from './lib/procs.mjs';
import { startServer } from './lib/raw.mjs';
import { assertClean, assertNoSanitizerReport, entry, eventually, readLog, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-ds-mis-');
const LOG = path.join(TMP, 'rec.log');
const CONFIG = writeConfig(TMP, {
  mcpServers: {
    mis: entry.misbehaving([], { timeoutMs: 400 }),
    huge: entry.misbehaving(), // big results: the default call timeout, not 400 ms
    rec: entry.recorder(['--log', LOG]),
  },
});

let s;
before(async () => {
  s = await serve(CONFIG, { label: 'misbehaving', args: ['--log-level', 'info'] });
});
after(() => assertClean(s));

// The host is up and a plain program and a downstream call still work.
async function stillWorks() {
  assert.ok(isAlive(s.pid), 'the host is still running');
  assert.equal(valueOf(await s.exec('return 6 * 7')), 42);
  assert.deepEqual(valueOf(await s.exec('return (await tools.rec.echo({ i: 1 })).args')), { i: 1 });
}

test('crash mid-call: a ToolError naming the server; the host stays up and the server comes back', async () => {
  const caught = valueOf(await s.exec(`
    try { await tools.mis.crash({ delay_ms: 30 }); return "no error"; }
    catch (e) { return { name: e.name, tool: e.tool, message: e.message }; }`));
  assert.deepEqual(caught, {
    name: 'ToolError',
    tool: 'mis.crash',
    message: "server 'mis' went down during the call to 'crash': it exited with status 3; its last stderr line: \"crashing on purpose\"",
  });
  assert.match(s.stderr(), /^mcp-codemode\[\d+\]: info: server 'mis': crashing on purpose$/m, 'its stderr, logged under its name at info');
  await stillWorks();
  await eventually(async () => (await s.exec('return await tools.mis.add({ a: 1, b: 2 })')).ok, { timeout: 5000, every: 100, what: 'the restart of mis' });
  const uncaught = await s.exec('await tools.mis.crash({});\nreturn 1;');
  assert.equal(uncaught.ok, false);
  assert.match(uncaught.text, /^ToolError: server 'mis' went down during the call to 'crash'/);
  await stillWorks();
  await eventually(async () => (await s.exec('return await tools.mis.add({ a: 1, b: 2 })')).ok, { timeout: 5000, every: 100, what: 'the second restart of mis' });
});

test('hang: the call fails after the entry\'s timeoutMs, the server is told to cancel it', async () => {
  const r = valueOf(await s.exec(`
    const t0 = Date.now();
    try { await tools.mis.hang({}); } catch (e) { return { name: e.name, message: e.message, ms: Date.now() - t0 }; }`));
  assert.equal(r.name, 'ToolError');
  assert.equal(r.message, "server 'mis' did not return a result for 'hang' within 400 ms; the call was cancelled");
  assert.ok(r.ms >= 390 && r.ms < 1500, `${r.ms} ms`);
  const cancelled = valueOf(await s.exec('return await tools.mis.cancellations()'));
  assert.ok(cancelled.length >= 1 && cancelled.every((id) => typeof id === 'number'), JSON.stringify(cancelled));
  await stillWorks();
});

async function stderrMatches(re, timeout = 5000) {
  const end = Date.now() + timeout;
  while (!re.test(s.stderr()) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  assert.match(s.stderr(), re);
}

test('garbage on stdout: the lines are skipped with a warning and the real reply gets through', async () => {
  const r = valueOf(await s.exec('return [await tools.mis.garbage(), await tools.mis.add({ a: 20, b: 22 })]'));
  assert.deepEqual(r, ['after the garbage', { sum: 42 }]);
  // stderr is another pipe than stdout: the warning may arrive after the reply.
  await stderrMatches(/warning: server 'mis': skipped a line from the server \(Parse error: the message is not valid JSON\): this is not json/);
  await stderrMatches(/server 'mis': skipped a line from the server \(Invalid Request: "jsonrpc" must be "2\.0"\)/);
  await stillWorks();
});

test('a 20 MB result: the program can use it; returning it keeps execute_code under its own cap', async () => {
  const used = valueOf(await s.exec(`
    const big = await tools.huge.big({ bytes: 20000000 });
    return { length: big.length, head: big.slice(0, 5), allX: /^x+$/.test(big) };`, { timeoutMs: 30000 }));
  assert.deepEqual(used, { length: 20000000, head: 'xxxxx', allX: true });
  const from = s.wire.lines.length;
  const returned = await s.exec('return await tools.huge.big({ bytes: 20000000 })', { timeoutMs: 30000 });
  assert.equal(returned.ok, true, returned.text?.slice(0, 300));
  assert.deepEqual(returned.raw.structuredContent.result, null);
  assert.equal(returned.raw.structuredContent.resultTruncated.limit, 1048576);
  assert.match(returned.text, /\n\[result truncated: its JSON is 20000002 bytes, over the limit of 1048576 bytes; the whole result can be read for a while as the resource codemode:\/\/stash\/[0-9a-f]{32}\]$/);
  const line = s.wire.lines.slice(from).find((l) => l.msg?.result?.structuredContent);
  assert.ok(line.raw.length < 2.5 * 1048576, `the response line is ${line.raw.length} bytes`);
  const tooBig = valueOf(await s.exec(`
    try { await tools.huge.big({ bytes: 40000000 }); } catch (e) { return { name: e.name, message: e.message }; }`, { timeoutMs: 30000 }));
  assert.equal(tooBig.name, 'ToolError');
  assert.match(tooBig.message, /^server 'huge': the result of 'big' is too large \(4000\d{4} bytes; the limit is 33554432 bytes\)$/);
  await stillWorks();
});

test('cancellation: aborting execute_code sends notifications/cancelled for the pending downstream call', async () => {
  const controller = new AbortController();
  const from = readLog(LOG).length;
  const pending = s.exec('await tools.rec.hang({ tag: "abort-me" }); return "unreachable";', { signal: controller.signal });
  const call = await eventually(() => readLog(LOG).slice(from).find((m) => m.method === 'tools/call' && m.params.arguments.tag === 'abort-me'),
    { what: 'the hang call at the recorder' });
  const t0 = Date.now();
  controller.abort();
  await assert.rejects(pending, /AbortError|aborted/i);
  const cancel = await eventually(() => readLog(LOG).slice(from).find((m) => m.method === 'notifications/cancelled'),
    { what: 'notifications/cancelled at the recorder', timeout: 3000 });
  assert.equal(cancel.params.requestId, call.id, 'the cancellation names the downstream request');
  assert.equal(typeof cancel.params.reason, 'string');
  assert.ok(Date.now() - t0 < 1000, `cancelled within ${Date.now() - t0} ms`);
  await stillWorks();
});

test('cancellation: a program that ends with a call pending cancels it downstream', async () => {
  const from = readLog(LOG).length;
  assert.equal(valueOf(await s.exec('tools.rec.hang({ tag: "left-behind" }); await sleep(50); return "done";')), 'done');
  const log = await eventually(() => {
    const l = readLog(LOG).slice(from);
    return l.some((m) => m.method === 'notifications/cancelled') && l;
  }, { what: 'notifications/cancelled for the abandoned call', timeout: 3000 });
  const call = log.find((m) => m.method === 'tools/call');
  const cancel = log.find((m) => m.method === 'notifications/cancelled');
  assert.equal(call.params.arguments.tag, 'left-behind');
  assert.equal(cancel.params.requestId, call.id);
  assert.match(cancel.params.reason, /program .* has ended/);
});

test('list_changed (raw stdio): exactly one notifications/tools/list_changed line, then the new tool is declared', async () => {
  const raw = startServer(['--config', CONFIG, '--pool-size', '1'], { label: 'raw-list-changed' });
  await raw.initialize('2025-11-25');
  const first = await raw.request('tools/list', {});
  assert.doesNotMatch(first.msg.result.tools[0].description, /added_1/);
  const mark = raw.mark;
  const r = await raw.call('return await tools.mis.change_tools()');
  assert.equal(r.msg.result.structuredContent.result, 'added_1');
  await raw.wire.waitFor((l) => l.msg?.method === 'notifications/tools/list_changed', { from: mark, timeout: 3000, what: 'list_changed' });
  await new Promise((res) => setTimeout(res, 200)); // room for a duplicate to show up
  const notes = raw.linesSince(mark).filter((l) => l.msg?.method);
  assert.deepEqual(notes.map((l) => l.raw), ['{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}']);
  const second = await raw.request('tools/list', {});
  assert.match(second.msg.result.tools[0].description, /added_1\(args\?: \{\}\): Promise<unknown>;/);
  const still = await raw.call('return await tools.mis.add({ a: 1, b: 1 })');
  assert.deepEqual(still.msg.result.structuredContent.result, { sum: 2 });
  const exit = await raw.stop();
  assert.equal(exit.code, 0);
  assertNoSanitizerReport(raw.stderr, 'raw-list-changed');
});

test('a server retrying after a failed start is reported with the reason it failed, not as "still starting"', async () => {
  // exits 1 on its first start; the retry hangs before answering initialize
  const dir = tempDir('codemode-ds-retry-');
  const flag = path.join(dir, 'started-once');
  const cfg = writeConfig(dir, {
    mcpServers: {
      flaky: { command: 'sh', args: ['-c', `if [ -e '${flag}' ]; then exec sleep 600; else touch '${flag}'; echo 'first start fails' >&2; exit 1; fi`] },
      rec: entry.recorder(),
    },
  });
  const t = await serve(cfg, { label: 'retrying' });
  try {
    await eventually(async () => {
      const r = await t.exec('try { await tools.flaky.anything({}); } catch (e) { return e.message; }');
      return /exited with status 1/.test(valueOf(r)) && r;
      // the wait, not the property: a loaded machine (make test runs files two at
      // a time) can take seconds to start the two servers and the first workers
    }, { timeout: 15000, every: 100, what: 'the first failure to be reported' });
    // past the 500 ms backoff, the retry is connecting (and hangs there)
    await new Promise((res) => setTimeout(res, 900));
    const msg = valueOf(await t.exec('try { await tools.flaky.anything({}); } catch (e) { return e.message; }'));
    assert.match(msg, /server "flaky" are not available: .*exited with status 1/);
    assert.doesNotMatch(msg, /still starting/);
    assert.deepEqual(valueOf(await t.exec('return (await tools.rec.echo({ i: 2 })).args')), { i: 2 });
  } finally {
    await assertClean(t);
  }
});

auditSchemas();
