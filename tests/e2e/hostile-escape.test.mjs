// Hostile programs against the runtime's integrity: reaching for engine
// internals, replacing built-ins the runtime relies on, poisoned thrown values
// and results, lone surrogates. Each must end cleanly (its own result, or a
// clear error), never corrupt the output, and leave the next program
// unaffected. One server for the file.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertError, assertStillServes, runTimed } from './lib/hostile.mjs';
import { startServer } from './lib/raw.mjs';

let srv;

before(async () => {
  srv = startServer(['--pool-size', '2', '--timeout-ms', '3000'], { label: 'hostile-escape' });
  await srv.initialize('2025-11-25');
});

const PROBE = `
var G = this, out = {};
function probe(name, f) {
  try { out[name] = String(f()); } catch (e) { out[name] = 'threw ' + (e && e.name); }
}
`;

test('engine internals are out of reach: Duktape, its act(), constructor tricks, host objects', async () => {
  const res = await runTimed(srv, PROBE + `
probe('typeof Duktape', function () { return typeof Duktape; });
probe('Duktape.act', function () { return typeof Duktape.act; });
probe('this.Duktape', function () { return G.Duktape; });
probe('ctor.ctor', function () { return G.constructor.constructor('return Duktape')(); });
probe('ctor.ctor typeof', function () { return G.constructor.constructor('return typeof Duktape')(); });
probe('new Function', function () { return new Function('return typeof Duktape')(); });
probe('eval', function () { return eval('typeof Duktape'); });
probe('indirect eval', function () { return (0, eval)('typeof Duktape'); });
probe('fn ctor this', function () { return (function () {}).constructor('return this')().Duktape; });
probe('rt', function () { return typeof rt; });
probe('lowered Function', function () { return new Function('x = () => typeof rt', 'return x()')(); });
probe('lowered eval', function () { return eval('(() => typeof rt ?? typeof Duktape)()'); });
probe('require', function () { return typeof require; });
probe('process', function () { return typeof process; });
probe('module', function () { return typeof module; });
probe('print', function () { return typeof print; });
probe('globals', function () {
  return Object.getOwnPropertyNames(G).filter(function (k) { return /^(Duktape|rt|CBOR|print|alert|require)$/.test(k); }).join(',');
});
return out;`);
  assert.equal(res.r.isError, undefined, res.raw.slice(0, 400));
  const out = res.sc.result;
  const notReached = (v) => v === 'undefined' || v === 'threw ReferenceError' || v === 'threw TypeError';
  for (const [k, v] of Object.entries(out)) {
    if (k === 'globals') assert.equal(v, '', 'no internal globals');
    else assert.ok(notReached(v), `${k}: ${v}`);
  }
  assert.equal(Object.keys(out).length, 17);
  assert.equal(out['typeof Duktape'], 'undefined');
  assert.equal(out['Duktape.act'], 'threw ReferenceError');
  await assertStillServes(srv);
});

test('replacing Object.prototype, Array.prototype.push, JSON, Promise, Function.prototype.apply: own result still produced', async () => {
  const res = await runTimed(srv, `
Object.prototype.polluted = 1;
Array.prototype.push = function () { throw new Error('hijacked push'); };
JSON.stringify = function () { return '"hijacked"'; };
JSON.parse = function () { return 'hijacked'; };
Function.prototype.apply = function () { throw new Error('hijacked apply'); };
Function.prototype.call = function () { throw new Error('hijacked call'); };
Object.keys = function () { throw new Error('hijacked keys'); };
Promise = function () { throw new Error('no promises'); };
console.log({a: 1}, [1, 2], 'text');
__await(sleep(5));
setTimeout(function () { console.log('timer ran'); }, 1);
__await(sleep(10));
return {ok: [1, 2, 3], s: 'x'};`);
  assert.equal(res.r.isError, undefined, res.raw.slice(0, 400));
  assert.deepEqual(res.sc.result, { ok: [1, 2, 3], s: 'x' });
  assert.deepEqual(res.sc.logs, ['{"a":1} [1,2] text', 'timer ran']);
  assert.equal(res.r.content[0].text, '{"ok":[1,2,3],"s":"x"}');
});

test('... and the next execution is unaffected', async () => {
  const res = await runTimed(srv, `
var a = [];
a.push(1);
return [typeof ({}).polluted, a.length, JSON.stringify({b: 2}), JSON.parse('[3]'), typeof Promise.resolve,
        Math.max.apply(null, [4, 5]), Object.keys({k: 1})];`);
  assert.deepEqual(res.sc.result, ['undefined', 1, '{"b":2}', [3], 'function', 5, ['k']]);
});

test('a thenable Object.prototype and a console without methods: the run ends, the next is unaffected', async () => {
  const res = await runTimed(srv, `
Object.defineProperty(Object.prototype, 'then', {get: function () { throw new Error('then trap'); }, configurable: true});
console.log = null;
return {a: 1};`);
  // JavaScript itself makes the returned object a thenable whose then throws: an error result is right, a hang is not
  assert.ok(res.ms < 2000, `${res.ms} ms`);
  if (res.r.isError) assert.match(res.sc.error.message, /then trap/);
  else assert.deepEqual(res.sc.result, { a: 1 });
  const next = await runTimed(srv, 'console.log("fine"); return typeof ({}).then');
  assert.deepEqual(next.sc.result, 'undefined');
  assert.deepEqual(next.sc.logs, ['fine']);
});

test('poisoned thrown values: throwing getters, a broken Error.prototype.toString', async () => {
  const a = await runTimed(srv, 'throw {get name() { throw 1 }, get message() { throw 2 }}');
  assert.equal(a.r.isError, true);
  assert.equal(typeof a.sc.error.message, 'string');
  const b = await runTimed(srv, 'Error.prototype.toString = function () { throw new Error("x") };\nthrow new TypeError("still readable")');
  assertError(b, 'TypeError', /still readable/);
  const c = await runTimed(srv, 'var e = new Error("m"); e.name = {toString: function () { throw 3 }}; throw e');
  assert.equal(c.r.isError, true);
  const d = await runTimed(srv, 'console.log({toJSON: function () { throw new Error("no") }}, {toString: null}); return 1');
  assert.equal(d.sc.result, 1);
  assert.equal(d.sc.logs.length, 1);
  await assertStillServes(srv);
});

test('poisoned results: cycles and throwing toJSON are errors; functions are no value', async () => {
  const cyc = await runTimed(srv, 'var o = {}; o.o = o; return o');
  assertError(cyc, 'TypeError', /JSON/);
  const tj = await runTimed(srv, 'return {toJSON: function () { throw new RangeError("bad toJSON") }}');
  assert.equal(tj.r.isError, true);
  const fn = await runTimed(srv, 'return function () {}');
  assert.equal(fn.r.isError, undefined);
  assert.equal('result' in fn.sc, false);
  await assertStillServes(srv);
});

test('lone surrogates in results, console output, errors and progress: the output stays valid UTF-8 JSON', async () => {
  const mark = srv.mark;
  const res = await runTimed(srv, "console.log('\\uDBFFx'); var o = {}; o['\\uDC00key'] = 'a\\uD800b'; return ['\\uD800', o]",
    { meta: { progressToken: 'lone' } });
  assert.equal(res.r.isError, undefined, res.raw.slice(0, 300));
  const [lone, obj] = res.sc.result;
  // either the code unit survives (escaped as \ud800 in the JSON) or it is replaced by U+FFFD
  assert.ok(lone === '\uD800' || /^\uFFFD+$/.test(lone), JSON.stringify(lone));
  assert.equal(Object.keys(obj).length, 1);
  assert.match(res.sc.logs[0], /x$/);
  const err = await runTimed(srv, "throw new Error('bad \\uD800 message')");
  assert.equal(err.r.isError, true);
  assert.match(err.sc.error.message, /^bad .+ message$/u);
  // every line (result, progress) was checked by the wire: valid UTF-8, parseable
  const lines = srv.linesSince(mark);
  assert.ok(lines.some((l) => l.msg.method === 'notifications/progress'));
  for (const l of lines) assert.ok(l.msg !== undefined, l.raw);
  const [key] = Object.keys(obj);
  assert.match(key, /^(\uDC00|\uFFFD+)key$/);
  assert.match(obj[key], /^a(\uD800|\uFFFD+)b$/);
  await assertStillServes(srv);
});

test('huge allocations outside the JS heap (ArrayBuffer, typed arrays) fail cleanly', async () => {
  const ab = await runTimed(srv, 'return new ArrayBuffer(2e9).byteLength');
  assertError(ab, 'RangeError', /out of memory/);
  const ta = await runTimed(srv, 'var a = []; for (var i = 0; i < 1000; i++) a.push(new Uint8Array(1e6)); return a.length');
  assertError(ta, 'RangeError', /out of memory/);
  await assertStillServes(srv);
});

auditSchemas();
