// Nothing a program says is lost on the way worker -> host -> client (issue
// 13, section 2): strings with U+0000, lone surrogates, U+2028/9 and forged
// protocol lines arrive whole in results, console lines, errors, object keys,
// tool names and arguments (stdio and Streamable HTTP; every wire line is
// checked as valid UTF-8 and one JSON message); a name that is not exactly a
// tool's never reaches one; downstream replies with lone surrogates are
// accepted and unreadable ones fail their call at once; console lines
// printed before a hard kill are kept; unhandled rejections are warnings;
// poisoned error getters; `typeof tools.srv.missing`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { runningWorkers } from './lib/procs.mjs';
import { connectSdk } from './lib/sdk.mjs';
import { assertClean, entry, exec, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-lost-');
const CONFIG = writeConfig(TMP, {
  mcpServers: {
    rec: entry.recorder(),
    mis: entry.misbehaving(['--string-tools'], { timeoutMs: 20000 }),
  },
});

/** The strings every path is tried with. */
const TRICKY = {
  nul: 'a\u0000b',
  nulOnly: '\u0000',
  lone: 'x\ud800y',
  low: '\udc00',
  reversed: '\udc00\ud800',
  pair: '\ud83d\ude00',
  seps: 'l\u2028p\u2029',
  forged: '\n{"jsonrpc":"2.0","id":1,"result":{}}\n{"t":"done","outcome":{"ok":true,"value":1}}\n',
  'k\u0000ey': 1,
  '\ud800k': 2,
};

/** A JavaScript literal of v, ASCII only (lone surrogates and U+2028 escaped). */
function lit(v) {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

let s, http;
before(async () => {
  s = await serve(CONFIG, { label: 'lost' });
  http = await connectSdk(['--config', CONFIG, '--pool-size', '2'], { label: 'lost-http', transport: 'streamable-http' });
});
after(() => assertClean(s, http));

const KEYS = Object.keys(TRICKY);
const VALUES = KEYS.map((k) => TRICKY[k]);

async function stringsArriveWhole(client) {
  const progress = [];
  const code = `const v = ${lit(TRICKY)};
    for (const k of Object.keys(v)) console.log(typeof v[k] === 'string' ? v[k] : k);
    await sleep(250); // the SDK drops progress it reads together with the response (30 ms was too
    // short for a client on a loaded machine: under SANITIZE=1, 4 of 10 lines once arrived)
    return v;`;
  const raw = await client.callTool({ name: 'execute_code', arguments: { code } }, undefined,
    { onprogress: (p) => progress.push(p.message) });
  const r = { ok: raw.isError !== true, value: raw.structuredContent.result, text: raw.content[0].text, logs: raw.structuredContent.logs, raw };
  const lines = VALUES.map((v, i) => (typeof v === 'string' ? v : KEYS[i]));
  assert.deepEqual(valueOf(r), TRICKY);
  assert.deepEqual(JSON.parse(r.text), TRICKY, 'the text item holds the same JSON');
  assert.deepEqual(r.logs, lines);
  assert.equal(r.raw.content[1].text, `console output:\n${r.logs.join('\n')}`);
  assert.deepEqual(progress, lines, 'each console line as a progress message');

  const e = await exec(client, `throw new Error(${lit(VALUES.filter((v) => typeof v === 'string').join('|'))})`);
  assert.equal(e.ok, false);
  assert.equal(e.error.message, VALUES.filter((v) => typeof v === 'string').join('|'));
  assert.ok(e.text.startsWith(`Error: ${e.error.message}\n`), e.text);
  const named = await exec(client, `const e = new Error("m"); e.name = ${lit(TRICKY.nul + TRICKY.lone)}; throw e`);
  assert.equal(named.error.name, TRICKY.nul + TRICKY.lone);
}

test('strings with U+0000, lone surrogates, U+2028/9 and forged lines arrive whole (stdio)', async () => {
  await stringsArriveWhole(s.client);
});

test('the same over Streamable HTTP', async () => {
  await stringsArriveWhole(http.client);
});

test('code holding raw U+0000, a lone surrogate and U+2028 in string literals runs whole', async () => {
  for (const h of [s, http]) {
    const r = await exec(h.client, 'return ["a\u0000b", "x\ud800y", "\u2028", `t\u0000`]');
    assert.deepEqual(valueOf(r), ['a\u0000b', 'x\ud800y', '\u2028', 't\u0000']);
  }
});

test('tool arguments and their keys reach the downstream server whole', async () => {
  const r = valueOf(await s.exec(`const v = ${lit(TRICKY)};
    const back = (await tools.rec.echo({ v })).args.v;
    const got = (await tools.rec.received()).filter((m) => m.method === 'tools/call');
    return { back, sent: got[got.length - 2].params.arguments.v };`));
  assert.deepEqual(r.back, TRICKY);
  assert.deepEqual(r.sent, TRICKY, 'what the downstream server received');
});

test('a tool name holding U+0000 is not the shorter name: nothing reaches a tool', async () => {
  const calls = async () => valueOf(await s.exec('return await tools.rec.received()')).filter((m) => m.method === 'tools/call').length;
  const before = await calls();
  const r = valueOf(await s.exec(`
    const out = {};
    for (const name of ["rec.echo\\u0000evil", "rec\\u0000.echo", "rec.echo\\u0000", "rec.\\ud800echo"]) {
      try { await callTool(name, {}); out[name] = "called"; } catch (e) { out[name] = e.message; }
    }
    out.typeof = typeof tools.rec["echo\\u0000evil"];
    return out;`));
  assert.equal(r['rec.echo\u0000evil'], 'Unknown tool "rec.echo\u0000evil". Did you mean: rec.echo?');
  assert.match(r['rec\u0000.echo'], /^Unknown tool "rec\u0000\.echo"\./);
  assert.match(r['rec.echo\u0000'], /^Unknown tool "rec\.echo\u0000"\. Did you mean: rec\.echo\?$/);
  assert.match(r['rec.\ud800echo'], /^Unknown tool "rec\.\ud800echo"\./);
  assert.equal(r.typeof, 'undefined');
  assert.equal(await calls(), before + 1, 'only the received() call itself reached the server');
});

test('a downstream reply holding lone surrogate and U+0000 escapes is delivered whole', async () => {
  const t0 = Date.now();
  const r = valueOf(await s.exec('return await tools.mis.lone_surrogates()'));
  assert.deepEqual(r, { lone: 'x\ud800y', low: '\udc00', nul: 'n\u0000l', 'k\ud800': 1 });
  assert.ok(Date.now() - t0 < 5000);
});

test('an unreadable downstream reply fails its call at once, naming the server', async () => {
  for (const where of ['head', 'tail']) {
    const t0 = Date.now();
    const r = valueOf(await s.exec(`
      try { await tools.mis.unreadable({ where: ${lit(where)} }); return "no error"; }
      catch (e) { return { name: e.name, message: e.message }; }`));
    const ms = Date.now() - t0;
    assert.equal(r.name, 'ToolError', JSON.stringify(r));
    assert.match(r.message, /^server 'mis': 'unreadable' failed: its response to tools\/call could not be read \(Parse error/, r.message);
    assert.ok(ms < 3000, `${ms} ms (the entry's timeout is 20 s)`);
  }
  assert.deepEqual(valueOf(await s.exec('return await tools.mis.add({ a: 1, b: 2 })')), { sum: 3 });
});

test('console lines printed before a hard kill at the deadline are in the error, in order', async () => {
  const r = await s.exec(`console.log("one\\u0000");
    console.warn("two");
    for (let i = 0; i < 3; i++) console.log("line " + i);
    return new Array(1e8).join("x").length;`, { timeoutMs: 300 });
  assert.equal(r.ok, false);
  assert.equal(r.error.name, 'TimeoutError');
  assert.match(r.error.message, /stopped/, 'killed at the hard deadline, not stopped inside');
  assert.deepEqual(r.logs, ['one\u0000', '[warn] two', 'line 0', 'line 1', 'line 2']);
  assert.equal(r.raw.content[1].text, 'console output:\none\u0000\n[warn] two\nline 0\nline 1\nline 2');
});

test('console lines printed before the worker is killed from outside are in the error', async () => {
  const pending = s.exec('console.log("before the kill"); console.log("second"); await sleep(20000); return 1', { timeoutMs: 30000 });
  let workers = [];
  for (let i = 0; i < 40 && workers.length === 0; i++) workers = await runningWorkers(s.pid, 50);
  assert.equal(workers.length, 1);
  await new Promise((r) => setTimeout(r, 100));
  process.kill(workers[0], 'SIGKILL');
  const r = await pending;
  assert.equal(r.ok, false);
  assert.equal(r.error.name, 'SandboxError');
  assert.deepEqual(r.logs, ['before the kill', 'second']);
});

test('console lines before a hard kill stay within maxLogBytes', async () => {
  const h = await connectSdk(['--max-log-bytes', '100', '--pool-size', '1'], { label: 'lost-cap' });
  try {
    const r = await exec(h.client, `for (let i = 0; i < 50; i++) console.log("line " + i);
      return new Array(1e8).join("x").length;`, { timeoutMs: 300 });
    assert.equal(r.error.name, 'TimeoutError');
    const kept = r.logs.filter((l) => l.startsWith('line '));
    assert.deepEqual(kept, kept.map((_, i) => `line ${i}`), 'the first lines, in order');
    assert.ok(kept.join('').length <= 100, kept.join(',').length);
    assert.ok(kept.length >= 10, `${kept.length} lines kept`);
    // the worker died before its final count: the host knows a lower bound
    assert.match(r.logs[r.logs.length - 1], /^\[at least \d+ more console lines dropped: the console output limit was reached\]$/);
    const n = Number(/\d+/.exec(r.logs[r.logs.length - 1])[0]);
    assert.ok(n >= 32 && n <= 50 - kept.length, `${n} dropped, ${kept.length} kept`);
  } finally {
    await h.close();
  }
});

test('an unhandled rejection is a [warn] line and a count; the program\'s own outcome is the result', async () => {
  const r = await s.exec(`
    Promise.reject(new Error("boom"));
    const p = Promise.reject(new TypeError("late")); await sleep(5); p.catch(() => {});
    Promise.reject("plain");
    const handled = Promise.reject(new Error("handled")); handled.catch(() => {});
    await sleep(1);
    return { done: true };`);
  assert.deepEqual(valueOf(r), { done: true });
  assert.deepEqual(r.logs, [
    '[warn] Unhandled promise rejection: Error: boom',
    '[warn] Unhandled promise rejection: TypeError: late',
    '[warn] Unhandled promise rejection: plain',
  ]);
  assert.equal(r.raw.structuredContent.stats.unhandledRejections, 3);
  const thrown = await s.exec('Promise.reject(new Error("side")); await sleep(1); throw new RangeError("own")');
  assert.equal(thrown.ok, false);
  assert.deepEqual(thrown.error.name, 'RangeError');
  assert.equal(thrown.error.message, 'own');
  assert.deepEqual(thrown.logs, ['[warn] Unhandled promise rejection: Error: side']);
  const none = await s.exec('return 1');
  assert.equal(none.raw.structuredContent.stats.unhandledRejections, undefined);
});

test('a thrown error whose prototype getters throw shows its own message', async () => {
  const r = await s.exec(`
    const boom = () => { throw new Error("poisoned"); };
    const e = new Error("the own message");
    Object.defineProperty(Error.prototype, "name", { get: boom });
    Object.defineProperty(Error.prototype, "message", { get: boom });
    Object.defineProperty(Error.prototype, "stack", { get: boom });
    Error.prototype.toString = boom;
    throw e;`);
  assert.equal(r.ok, false);
  assert.equal(r.error.message, 'the own message');
  const own = await s.exec(`class E extends Error { get name() { throw 1; } }
    const e = new E("mine"); throw e;`);
  assert.equal(own.error.message, 'mine');
  assert.equal(own.error.name, 'Error');
  const logged = await s.exec(`const e = new Error("own text"); Error.prototype.toString = () => { throw 1; };
    console.log(e); Promise.reject(e); await sleep(1); return 1`);
  assert.deepEqual(logged.logs, ['Error: own text', '[warn] Unhandled promise rejection: Error: own text']);
  const nothing = await s.exec('const e = new Error("x"); Object.defineProperty(e, "message", { get() { throw 1; } }); throw e');
  assert.equal(nothing.error.message, '(error while reading the thrown value)');
});

test('typeof tools.srv.missing is "undefined"; a call of it says which tool was meant', async () => {
  const r = valueOf(await s.exec(`
    const out = { typeofMissing: typeof tools.rec.ech, typeofReal: typeof tools.rec.echo,
      inMissing: "ech" in tools.rec, typeofServer: typeof tools.recc, typeofReal2: typeof tools.rec };
    try { await tools.rec.ech({}); } catch (e) { out.call = { name: e.name, message: e.message, ok: e instanceof TypeError }; }
    try { await tools.recc.echo({}); } catch (e) { out.server = { name: e.name, message: e.message }; }
    try { await callTool("rec.ech", {}); } catch (e) { out.byCall = { name: e.name, message: e.message }; }
    try { const o = {}; o.ech(); } catch (e) { out.other = e.message; }
    if (typeof tools.rec.maybe === "function") out.feature = "wrong"; else out.feature = "absent";
    return out;`));
  assert.equal(r.typeofMissing, 'undefined');
  assert.equal(r.typeofReal, 'function');
  assert.equal(r.inMissing, false);
  assert.equal(r.typeofServer, 'undefined');
  assert.equal(r.typeofReal2, 'object');
  // the message is the one callTool gets from the host for that name
  assert.deepEqual(r.call, { name: 'TypeError', message: 'Unknown tool "rec.ech". Did you mean: rec.echo, rec.env?', ok: true });
  assert.deepEqual(r.server, { name: 'TypeError', message: 'Unknown tool "recc.echo". Did you mean: rec.echo?' });
  assert.deepEqual(r.byCall, { name: 'Error', message: r.call.message });
  assert.match(r.other, /not callable/, 'other objects keep the engine\'s message');
  assert.equal(r.feature, 'absent');
  const uncaught = await s.exec('\nawait tools.rec.ech({})');
  assert.equal(uncaught.ok, false);
  assert.equal(uncaught.error.name, 'TypeError');
  assert.equal(uncaught.error.line, 2);
  assert.match(uncaught.error.message, /Did you mean: rec\.echo/);
});

auditSchemas();
