// Concurrency on one connection: several execute_code calls in flight at
// once (responses matched by id), a busy program not blocking others,
// cancellation of one call among several (raw notifications/cancelled, both
// eras), and per-request progress streams that do not mix.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { isAlive, runningWorkers } from './lib/procs.mjs';
import { modernMeta, sleep, startServer } from './lib/raw.mjs';

let srv;

before(async () => {
  srv = startServer(['--pool-size', '2'], { label: 'concurrency' });
  await srv.initialize('2025-11-25');
});

test('6 calls sleeping 200 ms each, in flight at once with --pool-size 2, finish well under 6 x 200 ms', async () => {
  const t0 = Date.now();
  const calls = Array.from({ length: 6 }, (_, i) => srv.call(`__await(sleep(200)); return ${i}`, { id: `"c${i}"` }));
  const replies = await Promise.all(calls);
  const ms = Date.now() - t0;
  replies.forEach((r, i) => {
    assert.ok(r.raw.startsWith(`{"jsonrpc":"2.0","id":"c${i}",`));
    assert.equal(r.msg.result.structuredContent.result, i);
  });
  assert.ok(ms < 900, `6 concurrent calls took ${ms} ms`);
});

test('20 quick calls in one write: every reply matched to its id', async () => {
  const mark = srv.mark;
  const lines = Array.from({ length: 20 }, (_, i) => srv.requestLine('tools/call',
    { name: 'execute_code', arguments: { code: `return ${i} * 3` } }, String(5000 + i)));
  for (const l of lines) srv.wire.noteSent(l);
  srv.write(lines.join('\n') + '\n');
  const replies = await Promise.all(lines.map((_, i) => srv.wire.response(String(5000 + i), { from: mark })));
  replies.forEach((r, i) => assert.equal(r.msg.result.structuredContent.result, i * 3));
  assert.equal(srv.linesSince(mark).length, 20);
});

test('a busy program does not hold up quick ones', async () => {
  const busy = srv.call('while (true) {}', { timeoutMs: 1500, id: '"busy"' });
  await sleep(50);
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const r = await srv.call(`return "quick ${i}"`);
    assert.equal(r.msg.result.structuredContent.result, `quick ${i}`);
    assert.ok(Date.now() - t0 < 500, `quick call took ${Date.now() - t0} ms`);
  }
  const b = await busy;
  assert.equal(b.msg.result.structuredContent.error.name, 'TimeoutError');
});

test('notifications/cancelled for one of three calls: no reply for it, its worker dies, the others answer and are kept', async () => {
  const mark = srv.mark;
  const ids = ['"k1"', '"k2"', '"k3"'];
  const pending = ids.map((id) => (id === '"k2"' ? srv.post('__await(sleep(400)); return 2', { id }) : srv.call('__await(sleep(400)); return ' + id, { id })));
  let workers = [];
  for (let i = 0; i < 20 && workers.length < 3; i++) workers = await runningWorkers(srv.pid, 50);
  assert.equal(workers.length, 3, 'three workers run the three programs');
  srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'k2', reason: 'test' } });
  const [r1, r3] = await Promise.all([pending[0], pending[2]]);
  assert.equal(r1.msg.result.structuredContent.result, 'k1');
  assert.equal(r3.msg.result.structuredContent.result, 'k3');
  await sleep(200);
  assert.ok(!srv.linesSince(mark).some((l) => l.msg.id === 'k2'), 'nothing for the cancelled id');
  // The cancelled call's worker is killed; the two that finished wait, idle,
  // for this client's next call (worker reuse within a principal).
  assert.equal(workers.filter(isAlive).length, 2, 'the cancelled call\'s worker is gone, the two others are kept');
  assert.deepEqual((await runningWorkers(srv.pid, 50)).filter((w) => workers.includes(w)), [], 'the kept workers are idle');
  // cancelling a finished or unknown request is harmless
  srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'k1' } });
  srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 424242 } });
  srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} });
  const t0 = Date.now();
  const next = await srv.call('return "next"');
  assert.equal(next.msg.result.structuredContent.result, 'next');
  assert.ok(Date.now() - t0 < 1000);
});

test('cancelling a busy loop by numeric id kills its worker promptly', async () => {
  const mark = srv.mark;
  srv.post('while (true) {}', { timeoutMs: 60000, id: '777' });
  let workers = [];
  for (let i = 0; i < 20 && workers.length === 0; i++) workers = await runningWorkers(srv.pid, 50);
  assert.equal(workers.length, 1);
  srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 777 } });
  const t0 = Date.now();
  while (isAlive(workers[0]) && Date.now() - t0 < 1000) await sleep(10);
  assert.equal(isAlive(workers[0]), false, 'the worker was killed');
  await sleep(100);
  assert.equal(srv.linesSince(mark).length, 0);
});

test('2026-07-28 requests are cancelled the same way', async () => {
  const mark = srv.mark;
  srv.post('__await(sleep(5000)); return 1', { id: '"m1"', meta: modernMeta() });
  await sleep(150);
  srv.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'm1' } });
  const r = await srv.call('return 2', { modern: true });
  assert.equal(r.msg.result.structuredContent.result, 2);
  await sleep(150);
  assert.deepEqual(srv.linesSince(mark).map((l) => l.msg.id), [r.msg.id]);
});

test('progress streams of concurrent calls carry their own tokens, increase, and end before their reply', async () => {
  const mark = srv.mark;
  const code = (tag) => `for (var i = 1; i <= 4; i++) { console.log("${tag} " + i); __await(sleep(20)); } return "${tag}"`;
  const [a, b] = await Promise.all([
    srv.call(code('A'), { meta: { progressToken: 'tok-A' } }),
    srv.call(code('B'), { meta: { progressToken: 99 } }),
  ]);
  const lines = srv.linesSince(mark);
  for (const [reply, token, tag] of [[a, 'tok-A', 'A'], [b, 99, 'B']]) {
    const prog = lines.filter((l) => l.msg.method === 'notifications/progress' && l.msg.params.progressToken === token);
    assert.deepEqual(prog.map((l) => l.msg.params.message), [1, 2, 3, 4].map((i) => `${tag} ${i}`));
    for (let i = 1; i < prog.length; i++) assert.ok(prog[i].msg.params.progress > prog[i - 1].msg.params.progress);
    assert.ok(lines.indexOf(prog[prog.length - 1]) < lines.indexOf(reply), 'progress ends before the reply');
  }
  // a call without a token gets no progress
  const m2 = srv.mark;
  await srv.call('console.log("x"); return 1');
  assert.equal(srv.linesSince(m2).length, 1);
});

auditSchemas();
