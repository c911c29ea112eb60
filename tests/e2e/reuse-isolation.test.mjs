// Worker reuse within a principal (ARCHITECTURE.md section 2): a program that
// tries to leave something behind for the next one, followed in the SAME
// worker (same pid, next run number) by a program that must observe exactly
// what a fresh worker observes: a digest of the whole global object graph
// plus a few probes of state outside it (timers, console, RegExp statics).
// Also: what ends a worker instead, principals never share one, a principal's
// end ends its workers, and the reuse/maxRunsPerWorker/workerIdleMs settings.
// Workers report their pid and run number in stats (test-only variable), and
// verify after each restore that the template heap equals the zygote's copy
// byte for byte (a mismatch ends the worker with status 7).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { HttpServer, RawSession, modernCall, writeConfig } from './lib/http.mjs';
import { isAlive } from './lib/procs.mjs';
import { sleep, startServer } from './lib/raw.mjs';
import { Wire } from './lib/wire.mjs';

process.env.MCP_CODEMODE_TEST_WORKER_STATS = '1';
process.env.MCP_CODEMODE_CHECK_RESTORE = '1';

// Walks the global object graph breadth first (own property names and
// symbols, descriptors, prototypes, extensibility; a Map as cycle guard) and
// hashes it; then probes what the graph does not show.
const DIGEST = `
const ids = new Map(), queue = [], hashes = [];
const ref = (v) => {
  if (v === null) return 'null';
  const t = typeof v;
  if (t === 'object' || t === 'function') {
    if (!ids.has(v)) { ids.set(v, queue.length); queue.push(v); }
    return '#' + ids.get(v);
  }
  return t + ':' + String(v);
};
const fnv = (s) => { let h = 0x811c9dc5; for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; } return h; };
ref(globalThis);
for (let i = 0; i < queue.length; i++) {
  const o = queue[i];
  let line = typeof o + (Object.isExtensible(o) ? ' ext' : ' fixed') + ' proto=' + ref(Object.getPrototypeOf(o));
  let keys;
  try {
    keys = Object.getOwnPropertyNames(o);
    if (Object.getOwnPropertySymbols) keys = keys.concat(Object.getOwnPropertySymbols(o));
  } catch (e) { hashes.push(fnv(line + ' keys:' + e)); continue; }
  for (const k of keys) {
    let d;
    try { d = Object.getOwnPropertyDescriptor(o, k); } catch (e) { line += ' ' + String(k) + ':throws'; continue; }
    if (!d) { line += ' ' + String(k) + ':none'; continue; }
    line += ' ' + String(k) + ':' + (d.writable ? 'w' : '') + (d.enumerable ? 'e' : '') + (d.configurable ? 'c' : '');
    line += Object.prototype.hasOwnProperty.call(d, 'value') ? '=' + ref(d.value) : ' get=' + ref(d.get) + ' set=' + ref(d.set);
  }
  hashes.push(fnv(line));
}
const timer = setTimeout(() => {}, 100000);
clearTimeout(timer);
await sleep(30); // timers or promises left by an earlier run would fire now
console.log('probe', 1 + 1);
const m = /(b+)/.exec('abbc');
return {
  objects: queue.length,
  hash: fnv(hashes.join(',')),
  hashes,
  probes: {
    leaked: [typeof leak, typeof globalThis.leakTimer, typeof globalThis.leakPromise, typeof globalThis.leakAwait, typeof globalThis.leakFinally],
    timerId: typeof timer === 'object' ? 'object' : timer,
    regexp: [typeof RegExp.$1, RegExp.$1 === undefined ? 'u' : String(RegExp.$1), m && m[1]],
    symbolFor: Symbol.for('leak') === Symbol.for('leak'),
    keyFor: Symbol.keyFor(Symbol.for('mine')),
    random: typeof Math.random(), dateNow: typeof Date.now(), json: JSON.stringify({ a: [1, { b: 2 }] }),
    arr: [3, 1, 2].map((x) => x * 2).sort().join(), str: 'abc'.toUpperCase() + String(12.5),
    tools: typeof tools, toolKeys: Object.keys(tools).length, console: typeof console.log,
    lazy: [(1234.5).toLocaleString(), 'a'.localeCompare('B'), new URL('https://A.b/./c').href, typeof crypto.randomUUID()],
  },
};`;

// Programs that try to leave something behind; each ends normally.
const LEAKS = {
  globals: 'globalThis.leak = {secret: 42}; var leakVar = 1; this.leakThis = 2; return 1',
  'patched prototypes and intrinsics': `
    Array.prototype.map = function () { return 'hijacked'; };
    Object.prototype.injected = 'yes';
    String.prototype.toUpperCase = () => 'pwned';
    JSON.stringify = () => '{}';
    Function.prototype.call = null;
    Math.imul = () => 0;
    return 1`,
  'frozen builtins': 'Object.freeze(Object.prototype); Object.freeze(Array.prototype); Object.seal(globalThis); Object.preventExtensions(Math); return 1',
  'getters on Object.prototype': `
    Object.defineProperty(Object.prototype, 'then', { get() { return (r) => r('hijacked'); }, configurable: true });
    Object.defineProperty(Object.prototype, 'toJSON', { get() { return () => 'hijacked'; }, configurable: true });
    Object.defineProperty(Object.prototype, 'value', { get() { throw new Error('trap'); }, configurable: true });
    return 1`,
  'pending timers and promises': `
    setTimeout(() => { globalThis.leakTimer = 1; }, 5);
    setInterval(() => { globalThis.leakTimer = 2; }, 1);
    Promise.resolve().then(() => new Promise((r) => setTimeout(r, 10))).then(() => { globalThis.leakPromise = 1; });
    return 1`,
  'a never-settling await in a detached async function': `
    (async () => { await new Promise(() => {}); globalThis.leakAwait = 1; })();
    (async () => { await sleep(20); globalThis.leakAwait = 2; })();
    return 1`,
  'a large allocation kept in a global': `globalThis.big = 'x'.repeat(20 * 1024 * 1024); globalThis.arr = new Array(200000).fill({o: 1}); return big.length`,
  'Symbol.for and RegExp statics': `
    globalThis.s = Symbol.for('leak'); Symbol.for('mine');
    /(z+)/.exec('azzz'); 'q'.replace(/(q)/, '$1');
    Object.defineProperty(Symbol, 'for', { value: () => 'x' });
    return 1`,
  'Date and Math.random overrides': `
    Date.now = () => 0; Date.prototype.getTime = () => 0; Math.random = () => 0.5; Math = {}; return 1`,
  'a modified tools and console': `
    tools.evil = 1; console.log = () => {}; console.newThing = 1; globalThis.console = {log() {}};
    globalThis.tools = null; return 1`,
  'Intl, URL and crypto loaded, then patched': `
    new Intl.NumberFormat('en-US').format(1); (1).toLocaleString(); 'a'.localeCompare('b');
    Intl.leak = 1; Intl.NumberFormat.prototype.resolvedOptions = null; Number.prototype.toLocaleString = () => 'hijacked';
    String.prototype.localeCompare = () => 0; URL.prototype.toString = () => 'x'; crypto.randomUUID = () => 'fixed';
    globalThis.URLSearchParams = 5;
    return 1`,
  'garbage enough for mark-and-sweep': `
    let keep = []; for (let i = 0; i < 100000; i++) { keep.push({i, s: 'k' + i}); if (keep.length > 500) keep = []; }
    Object.prototype.afterGc = 1; return keep.length`,
};

let srv, fresh;

async function exec(server, code, opts) {
  const r = await server.call(code, opts);
  const res = r.msg.result;
  assert.ok(res, `no result: ${r.raw.slice(0, 300)}`);
  return res;
}

function statsOf(res) {
  const s = res.structuredContent.stats;
  assert.equal(typeof s.workerPid, 'number', 'the worker pid is in the stats (test variable)');
  return s;
}

function sameObservation(got, want, label) {
  assert.equal(got.structuredContent.error, undefined, `${label}: digest failed: ${JSON.stringify(got.structuredContent.error)}`);
  const g = got.structuredContent.result, w = want.structuredContent.result;
  assert.deepEqual(g.probes, w.probes, `${label}: probes differ`);
  const diff = g.hashes.findIndex((h, i) => h !== w.hashes[i]);
  assert.equal(g.objects, w.objects, `${label}: ${g.objects} objects reachable, a fresh worker reaches ${w.objects}`);
  assert.equal(diff, -1, `${label}: object #${diff} of the global graph differs from a fresh worker's`);
  assert.equal(g.hash, w.hash);
  assert.deepEqual(got.structuredContent.logs, ['probe 2'], `${label}: console works as in a fresh worker`);
}

before(async () => {
  srv = startServer(['--pool-size', '1'], { label: 'reuse' });
  await srv.initialize();
  fresh = await exec(srv, DIGEST);
  assert.equal(statsOf(fresh).workerRun, 1, 'the first run of a worker is a fresh worker');
  assert.ok(fresh.structuredContent.result.objects > 100, 'the digest walks the graph');
});

test('the digest sees what a program left behind when nothing restores the heap', async () => {
  // Within one program (no restore between), the leaks change the digest: it can fail.
  const r = await exec(srv, `Object.prototype.injected = 1; globalThis.leak = 1;\n${DIGEST}`);
  const g = r.structuredContent.result, w = fresh.structuredContent.result;
  assert.notEqual(g.hash, w.hash);
  assert.notDeepEqual(g.probes.leaked, w.probes.leaked);
});

for (const [name, code] of Object.entries(LEAKS)) {
  test(`reuse isolation: ${name}`, async () => {
    const a = await exec(srv, code);
    assert.equal(a.isError, undefined, `the leaking program ran: ${a.content[0].text}`);
    const sa = statsOf(a);
    const b = await exec(srv, DIGEST);
    const sb = statsOf(b);
    assert.equal(sb.workerPid, sa.workerPid, 'the next run is in the same worker');
    assert.equal(sb.workerRun, sa.workerRun + 1);
    assert.ok(sb.workerRun > 1);
    sameObservation(b, fresh, name);
  });
}

test('Math.random is reseeded between two runs of one worker', async () => {
  const a = await exec(srv, 'return [Math.random(), Math.random()]');
  const b = await exec(srv, 'return [Math.random(), Math.random()]');
  assert.equal(statsOf(b).workerPid, statsOf(a).workerPid);
  assert.notDeepEqual(b.structuredContent.result, a.structuredContent.result);
});

// Programs whose end must end their worker: the next run is a fresh process.
const ENDERS = {
  'a timeout caught in finally': { code: 'try { while (true) {} } finally { globalThis.leakFinally = 1; while (true) {} }', timeoutMs: 300 },
  'a memory-limit hit that was caught': { code: `try { let s = 'x'; for (;;) s += s; } catch (e) { globalThis.leak = e.name; } return 1` },
  'a top-level never-settling await': { code: 'globalThis.leak = 1; await new Promise(() => {}); return 1' },
};

for (const [name, { code, timeoutMs }] of Object.entries(ENDERS)) {
  test(`a worker ends after ${name}; the next run is fresh`, async () => {
    const a = await exec(srv, code, { timeoutMs });
    const sa = statsOf(a);
    const b = await exec(srv, DIGEST);
    const sb = statsOf(b);
    assert.notEqual(sb.workerPid, sa.workerPid);
    assert.equal(sb.workerRun, 1);
    sameObservation(b, fresh, name);
    for (let i = 0; i < 50 && isAlive(sa.workerPid); i++) await sleep(20);
    assert.equal(isAlive(sa.workerPid), false, 'the ended worker exited');
  });
}

test('a syntax error or a thrown error keeps the worker', async () => {
  const a = await exec(srv, 'return (;');
  assert.equal(a.isError, true);
  const b = await exec(srv, 'globalThis.leak = 1; throw new TypeError("no")');
  assert.equal(b.isError, true);
  const c = await exec(srv, DIGEST);
  assert.equal(statsOf(b).workerPid, statsOf(a).workerPid);
  assert.equal(statsOf(c).workerPid, statsOf(a).workerPid);
  sameObservation(c, fresh, 'after errors');
});

test('stdio EOF ends the kept workers', async () => {
  const s = startServer(['--pool-size', '1'], { label: 'reuse-eof' });
  await s.initialize();
  const pid = statsOf(await exec(s, 'return 1')).workerPid;
  assert.equal(isAlive(pid), true, 'kept while the client is there');
  await s.stop();
  for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(20);
  assert.equal(isAlive(pid), false);
});

test('codemode.sandbox: reuse "never", maxRunsPerWorker and workerIdleMs', async () => {
  const never = startServer(['--config', writeConfig({ sandbox: { reuse: 'never' } })], { label: 'reuse-never' });
  await never.initialize();
  const pids = [];
  for (let i = 0; i < 3; i++) pids.push(statsOf(await exec(never, 'return 1')).workerPid);
  assert.equal(new Set(pids).size, 3, 'one process per execution');

  const capped = startServer(['--config', writeConfig({ sandbox: { maxRunsPerWorker: 3, workerIdleMs: 400 } })], { label: 'reuse-capped' });
  await capped.initialize();
  const runs = [];
  for (let i = 0; i < 4; i++) runs.push(statsOf(await exec(capped, 'return 1')));
  assert.deepEqual(runs.map((s) => s.workerRun), [1, 2, 3, 1]);
  assert.equal(runs[1].workerPid, runs[0].workerPid);
  assert.equal(runs[2].workerPid, runs[0].workerPid);
  assert.notEqual(runs[3].workerPid, runs[0].workerPid);
  for (let i = 0; i < 50 && isAlive(runs[0].workerPid); i++) await sleep(20);
  assert.equal(isAlive(runs[0].workerPid), false, 'the worker at its run cap exited');
  // Idle past workerIdleMs: the kept worker ends, the next run is fresh.
  assert.equal(isAlive(runs[3].workerPid), true);
  await sleep(900);
  assert.equal(isAlive(runs[3].workerPid), false, 'the idle worker exited');
  const next = statsOf(await exec(capped, 'return 1'));
  assert.notEqual(next.workerPid, runs[3].workerPid);
  assert.equal(next.workerRun, 1);
});

test('two HTTP sessions never share a worker; a session keeps its own; DELETE ends them', async () => {
  const http = await HttpServer.start(['--pool-size', '2'], { label: 'reuse-http' });
  const a = await RawSession.open(http, '2025-11-25', 'session A');
  const b = await RawSession.open(http, '2025-11-25', 'session B');
  const run = async (s, code) => {
    const r = await s.call('tools/call', { name: 'execute_code', arguments: { code } });
    return r.messages[0].result.structuredContent.stats;
  };
  const pa = [], pb = [];
  for (let i = 0; i < 4; i++) {
    pa.push((await run(a, 'globalThis.mine = (globalThis.mine || 0) + 1; return mine')).workerPid);
    pb.push((await run(b, 'return typeof mine')).workerPid);
  }
  assert.equal(new Set(pa).size, 1, 'session A reuses its worker');
  assert.equal(new Set(pb).size, 1, 'session B reuses its worker');
  assert.notEqual(pa[0], pb[0], 'never the same worker for two sessions');
  // Concurrent executions of one session: two workers, both its own.
  const both = await Promise.all([run(a, 'await sleep(150); return 1'), run(a, 'await sleep(150); return 2')]);
  const mine = new Set(both.map((s) => s.workerPid));
  assert.equal(mine.size, 2);
  assert.ok(!mine.has(pb[0]));
  const after = await run(b, 'return 1');
  assert.ok(!mine.has(after.workerPid), 'B never gets one of A\'s workers');
  // Stateless requests form one principal of their own.
  const wire = new Wire('reuse stateless');
  const m1 = await modernCall(http, wire, 'tools/call', { name: 'execute_code', arguments: { code: 'return 1' } }, { id: 1 });
  const m2 = await modernCall(http, wire, 'tools/call', { name: 'execute_code', arguments: { code: 'return 2' } }, { id: 2 });
  const s1 = m1.messages[0].result.structuredContent.stats, s2 = m2.messages[0].result.structuredContent.stats;
  assert.equal(s2.workerPid, s1.workerPid);
  assert.ok(!mine.has(s1.workerPid) && s1.workerPid !== pb[0]);
  // DELETE ends session A's kept workers.
  const d = await a.delete();
  assert.ok(d.status === 200 || d.status === 204, `DELETE: ${d.status}`);
  for (let i = 0; i < 50 && [...mine].some(isAlive); i++) await sleep(20);
  assert.deepEqual([...mine].filter(isAlive), [], 'the deleted session\'s workers exited');
  assert.equal(isAlive(pb[0]), true, 'the other session keeps its worker');
});

after(async () => {});

auditSchemas();
