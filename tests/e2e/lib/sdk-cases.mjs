// The execute_code cases of the official TypeScript SDK client
// (@modelcontextprotocol/sdk Client, default protocol version), written once
// and run over each transport: stdio (sdk-client.test.mjs), Streamable HTTP
// and legacy HTTP+SSE (sdk-http.test.mjs). Connect, listTools, callTool
// results and errors, console capture, timeouts, argument errors, progress,
// logging notifications, concurrency and cancellation. One server per call
// of executeCodeCases(); every message is schema-validated by the file's audit.
//
// Transport notes. stdio-only behaviour (stdout purity, EOF, signals, framing)
// is in protocol.test.mjs and lifecycle.test.mjs; HTTP-only behaviour
// (statuses, sessions, disconnects, DNS rebinding) in http-*.test.mjs. Over
// Streamable HTTP, progress and log notifications travel on the POST's own
// reply, which becomes an SSE stream; over legacy SSE they travel on the
// session's GET stream with the reply; on stdio, on stdout. In all three the
// SDK dispatches notifications in a microtask and a reply synchronously, so
// notifications that arrive in the same read as the reply can be seen after
// the call resolved: the logging case waits for them (up to 1 s).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { isAlive, runningWorkers, settledWorkers } from './procs.mjs';
import { sleep } from './raw.mjs';
import { connectSdk } from './sdk.mjs';

/** Waits until pred() holds (true) or ms pass (false). */
async function waitFor(pred, ms = 1000) {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) return false;
    await sleep(10);
  }
  return true;
}

/** Defines the cases (with their before/after hooks) for one transport of SDK_TRANSPORTS. */
export function executeCodeCases(transport) {
  let c; // {client, wire, pid, ...}
  const logMessages = [];

  before(async () => {
    c = await connectSdk(['--pool-size', '2'], { label: `sdk ${transport}`, transport });
    c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logMessages.push(n.params); });
  });

  after(async () => {
    await c.close();
    assert.deepEqual(c.errors.map(String), [], 'the SDK transport reported no errors');
  });

  const run = (code, extra = {}, options) =>
    c.client.callTool({ name: 'execute_code', arguments: { code, ...extra } }, undefined, options);

  test('connect: the SDK negotiates its latest version, sees tools and serverInfo', () => {
    assert.equal(c.wire.session, '2025-11-25');
    assert.equal(c.client.getServerVersion().name, 'mcp-codemode');
    const caps = c.client.getServerCapabilities();
    assert.ok(caps.tools);
    assert.ok(caps.logging, 'logging is declared (the server emits notifications/message)');
    assert.equal(typeof c.client.getInstructions(), 'string');
  });

  test('listTools: execute_code with inputSchema {code: string (required), timeoutMs?, allow?, dryRun?, maxToolCalls?}', async () => {
    const { tools } = await c.client.listTools();
    assert.equal(tools.length, 1);
    const t = tools[0];
    assert.equal(t.name, 'execute_code');
    assert.ok(t.description.length > 100);
    assert.equal(t.inputSchema.type, 'object');
    assert.deepEqual(t.inputSchema.required, ['code']);
    assert.equal(t.inputSchema.properties.code.type, 'string');
    assert.equal(t.inputSchema.properties.timeoutMs.type, 'integer');
    assert.deepEqual(Object.keys(t.inputSchema.properties).sort(), ['allow', 'code', 'dryRun', 'maxToolCalls', 'timeoutMs']);
    assert.equal(t.inputSchema.properties.allow.type, 'array');
    assert.equal(t.inputSchema.properties.dryRun.type, 'boolean');
    assert.equal(t.inputSchema.properties.maxToolCalls.type, 'integer');
  });

  test('callTool: return 1+1 gives text "2" and structuredContent {result: 2, logs: [], stats}', async () => {
    const r = await run('return 1+1');
    assert.equal(r.isError, undefined);
    assert.deepEqual(r.content, [{ type: 'text', text: '2' }]);
    assert.equal(r.structuredContent.result, 2);
    assert.deepEqual(r.structuredContent.logs, []);
    const s = r.structuredContent.stats;
    assert.equal(typeof s.durationMs, 'number');
    assert.equal(s.toolCalls, 0);
    assert.deepEqual(Object.keys(r.structuredContent).sort(), ['logs', 'result', 'stats']);
  });

  test('callTool: values of every JSON type round-trip, undefined is explained', async () => {
    const r = await run('return {s: "é€ \\" \\\\ \\n\\t", n: -1.5, b: false, z: null, a: [1, {x: []}]}');
    assert.deepEqual(r.structuredContent.result, { s: 'é€ " \\ \n\t', n: -1.5, b: false, z: null, a: [1, { x: [] }] });
    assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent.result);
    const u = await run('var x = 1;');
    assert.equal(u.isError, undefined);
    assert.equal('result' in u.structuredContent, false);
    assert.match(u.content[0].text, /^undefined/);
  });

  test('console capture: strings as is, objects as JSON, errors as String(err), levels prefixed', async () => {
    const r = await run([
      'console.log("plain", 42, true, null, undefined, {a: 1, b: [2]}, [1, "x"]);',
      'console.info("info line");',
      'console.warn("careful");',
      'console.error(new TypeError("bad thing"));',
      'console.debug("details", {d: 1});',
      'var o = {}; o.self = o; console.log(o);',
      'return "ok";',
    ].join('\n'));
    const expected = [
      'plain 42 true null undefined {"a":1,"b":[2]} [1,"x"]',
      'info line',
      '[warn] careful',
      '[error] TypeError: bad thing',
      '[debug] details {"d":1}',
      '{"self":"[Circular]"}',
    ];
    assert.deepEqual(r.structuredContent.logs, expected);
    assert.equal(r.structuredContent.result, 'ok');
    assert.equal(r.content.length, 2);
    assert.equal(r.content[1].text, 'console output:\n' + expected.join('\n'));
  });

  test('a thrown error: isError, name, message, line and excerpt', async () => {
    const r = await run('var a = 1;\nvar b = a + 1;\nthrow new RangeError("nope " + b);');
    assert.equal(r.isError, true);
    const e = r.structuredContent.error;
    assert.equal(e.name, 'RangeError');
    assert.equal(e.message, 'nope 2');
    assert.equal(e.line, 3);
    assert.match(e.excerpt, /> 3 \| throw new RangeError\("nope " \+ b\);/);
    assert.match(r.content[0].text, /^RangeError: nope 2\n\s+at line 3/);
    assert.equal('result' in r.structuredContent, false);
    assert.deepEqual(r.structuredContent.logs, []);
  });

  test('a thrown non-Error value is reported as Uncaught <value>', async () => {
    const r = await run('throw "just a string"');
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.error.name, 'Error');
    assert.equal(r.structuredContent.error.message, 'Uncaught "just a string"');
    const o = await run('throw {code: 7}');
    assert.equal(o.structuredContent.error.message, 'Uncaught {"code":7}');
  });

  test('an error thrown inside a function names its line; console output before it is kept', async () => {
    const r = await run('console.log("before");\nfunction f(x) {\n  return x.y.z;\n}\nf({});');
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.error.name, 'TypeError');
    assert.equal(r.structuredContent.error.line, 3);
    assert.deepEqual(r.structuredContent.logs, ['before']);
  });

  test('a syntax error: SyntaxError with its line', async () => {
    const r = await run('var ok = 1;\nvar x = ;\nreturn x;');
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.error.name, 'SyntaxError');
    assert.equal(r.structuredContent.error.line, 2);
    assert.match(r.content[0].text, /^SyntaxError: /);
  });

  test('a timeout: while(true){} with timeoutMs 300 ends with a TimeoutError naming the line', async () => {
    const t0 = Date.now();
    const r = await run('var n = 0;\nwhile (true) { n++; }', { timeoutMs: 300 });
    const ms = Date.now() - t0;
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.error.name, 'TimeoutError');
    assert.equal(r.structuredContent.error.line, 2);
    assert.match(r.structuredContent.error.message, /300 ms/);
    assert.ok(ms >= 290 && ms < 1500, `took ${ms} ms`);
  });

  test('invalid arguments are a tool error the model can correct (isError, not a protocol error)', async () => {
    const bad = await run('return 1', { timeoutMs: 0 });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /timeoutMs/);
    const extra = await run('return 1', { language: 'python' });
    assert.equal(extra.isError, true);
    assert.match(extra.content[0].text, /language/);
    const none = await c.client.callTool({ name: 'execute_code', arguments: {} });
    assert.equal(none.isError, true);
    assert.match(none.content[0].text, /code/);
  });

  test('progress: every console line is a progress notification with increasing progress', async () => {
    // The sleeps matter: SDK 1.32's Protocol handles a response synchronously but
    // notifications in a microtask, and drops the progress handler with the
    // response, so progress lines that arrive in the same read as the result are
    // lost by the client (20 runs out of 20 without the sleeps). The server's
    // side of the ordering (every progress line before the reply) is asserted
    // over raw stdio in concurrency.test.mjs and raw HTTP in http-execute.test.mjs.
    const seen = [];
    const code = 'console.log("step 1");\n__await(sleep(40));\nconsole.log("step 2");\n__await(sleep(40));\n' +
      'console.warn("step 3");\n__await(sleep(40));\nreturn "done";';
    const r = await run(code, {}, { onprogress: (p) => seen.push(p) });
    assert.equal(r.structuredContent.result, 'done');
    assert.equal(seen.length, 3, JSON.stringify(seen));
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress);
    assert.deepEqual(seen.map((p) => p.message), ['step 1', 'step 2', 'step 3']);
  });

  test('logging/setLevel: console lines become notifications/message at or above the level', async () => {
    const expectLogs = async (code, expected, pick) => {
      logMessages.length = 0;
      await run(code);
      await waitFor(() => logMessages.length >= expected.length);
      await sleep(20); // and nothing more comes
      assert.deepEqual(logMessages.map(pick), expected);
    };
    await c.client.setLoggingLevel('info');
    await expectLogs('console.log("a"); console.warn("b"); console.error("c"); console.debug("d"); return 0',
      [['info', 'a', 'execute_code'], ['warning', 'b', 'execute_code'], ['error', 'c', 'execute_code']],
      (m) => [m.level, m.data, m.logger]);
    await c.client.setLoggingLevel('debug');
    await expectLogs('console.debug("d2"); return 0', [['debug', 'd2']], (m) => [m.level, m.data]);
    await c.client.setLoggingLevel('error');
    await expectLogs('console.log("x"); console.warn("y"); console.error("z"); return 0', [['error', 'z']], (m) => [m.level, m.data]);
  });

  test('concurrency: 6 calls sleeping 200 ms each with --pool-size 2 are in flight at once', async () => {
    const t0 = Date.now();
    const rs = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => run(`await sleep(200); return ${i}`)));
    const ms = Date.now() - t0;
    assert.deepEqual(rs.map((r) => r.structuredContent.result), [0, 1, 2, 3, 4, 5]);
    assert.ok(ms < 900, `6 concurrent calls took ${ms} ms`);
  });

  test('a busy program does not hold up quick ones', async () => {
    const busy = run('while (true) {}', { timeoutMs: 1500 });
    await sleep(50);
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      const r = await run(`return "quick ${i}"`);
      assert.equal(r.structuredContent.result, `quick ${i}`);
      assert.ok(Date.now() - t0 < 500, `quick call took ${Date.now() - t0} ms`);
    }
    assert.equal((await busy).structuredContent.error.name, 'TimeoutError');
  });

  test('cancellation: an aborted call gets no reply, its worker is killed, the next call is prompt', async () => {
    const ac = new AbortController();
    const sentBefore = c.wire.sent.length;
    const p = run('while (true) {}', { timeoutMs: 60000 }, { signal: ac.signal });
    const outcome = p.then(() => 'resolved', (e) => e);
    await sleep(300);
    const call = c.wire.sent.slice(sentBefore).find((s) => s.method === 'tools/call');
    assert.ok(call, 'the call was sent');
    // a replacement worker the pool is starting also shows activity for a
    // while (long under the sanitizers): sample until it has settled
    const workers = await settledWorkers(c.pid, 1);
    assert.equal(workers.length, 1, 'exactly one worker is running the program');
    ac.abort('test cancels');
    const err = await outcome;
    assert.notEqual(err, 'resolved');
    const cancelledAt = Date.now();

    // the worker dies promptly
    while (isAlive(workers[0]) && Date.now() - cancelledAt < 1000) await sleep(10);
    assert.equal(isAlive(workers[0]), false, 'the worker was killed');

    // a following call works quickly
    const t0 = Date.now();
    const r = await run('return "after"');
    assert.equal(r.structuredContent.result, 'after');
    assert.ok(Date.now() - t0 < 1000, `next call took ${Date.now() - t0} ms`);

    // and nothing was ever sent for the cancelled id
    await sleep(100);
    const forIt = c.wire.lines.filter((l) => l.msg && l.msg.id !== undefined && JSON.stringify(l.msg.id) === call.raw);
    assert.deepEqual(forIt.map((l) => l.raw), []);
  });

  test('cancelling one of three concurrent calls: the other two answer; its worker is gone, theirs are kept', async () => {
    const ac = new AbortController();
    const calls = [1, 2, 3].map((i) => run(`await sleep(1500); return ${i}`, {}, i === 2 ? { signal: ac.signal } : undefined));
    const second = calls[1].then(() => 'resolved', (e) => e);
    let workers = [];
    for (let i = 0; i < 60 && workers.length !== 3; i++) workers = await runningWorkers(c.pid, 50);
    assert.equal(workers.length, 3, 'three workers run the three programs');
    ac.abort('test cancels one');
    assert.notEqual(await second, 'resolved');
    const [r1, r3] = await Promise.all([calls[0], calls[2]]);
    assert.equal(r1.structuredContent.result, 1);
    assert.equal(r3.structuredContent.result, 3);
    // The cancelled call's worker is killed; the two that finished wait, idle,
    // for this client's next call (worker reuse within a principal).
    await waitFor(() => workers.filter(isAlive).length === 2);
    assert.equal(workers.filter(isAlive).length, 2, 'the cancelled call\'s worker is gone, the two others are kept');
    assert.deepEqual((await runningWorkers(c.pid, 50)).filter((w) => workers.includes(w)), [], 'the kept workers are idle');
  });
}
