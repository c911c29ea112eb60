// Process lifecycle: exit on stdin EOF and on SIGTERM/SIGINT, promptly and
// with status 0 even while a program is running, without leaving the zygote
// or workers behind; the last unterminated line is still served; stderr holds
// logs only when asked (--log-level), never stdout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { childrenOf, isAlive, runningWorkers, zygoteOf } from './lib/procs.mjs';
import { sleep, startServer } from './lib/raw.mjs';

/** A server in a 2025-11-25 session running `__await(sleep(10000))`; resolves once a worker runs it. */
async function busyServer(label) {
  const srv = startServer(['--pool-size', '1'], { label });
  await srv.initialize('2025-11-25');
  const rawId = '"sleeper"';
  srv.send(srv.requestLine('tools/call', { name: 'execute_code', arguments: { code: '__await(sleep(10000)); return 1' } }, rawId));
  let workers = [];
  for (let i = 0; i < 20 && workers.length === 0; i++) workers = await runningWorkers(srv.pid, 50);
  assert.equal(workers.length, 1, 'a worker is running the program');
  const zygote = zygoteOf(srv.pid);
  return { srv, rawId, tree: [zygote, ...childrenOf(zygote)] };
}

async function assertGone(pids, ms = 1000) {
  const t0 = Date.now();
  while (pids.some(isAlive) && Date.now() - t0 < ms) await sleep(10);
  assert.deepEqual(pids.filter(isAlive), [], 'zygote and workers are gone');
}

test('stdin EOF with a program in flight: exit status 0 within 1 s, nothing left running, no reply', async () => {
  const { srv, rawId, tree } = await busyServer('eof-busy');
  const t0 = Date.now();
  const exit = await srv.stop({ timeout: 3000 });
  const ms = exit.at - t0;
  assert.equal(exit.timedOut, undefined, 'exited by itself');
  assert.equal(exit.code, 0);
  assert.equal(exit.signal, null);
  assert.ok(ms < 1000, `exit took ${ms} ms`);
  await assertGone(tree);
  assert.ok(!srv.wire.lines.some((l) => l.raw.includes(`"id":${rawId}`)));
});

for (const sig of ['SIGTERM', 'SIGINT']) {
  test(`${sig} with a program in flight: exit status 0 within 1 s, nothing left running`, async () => {
    const { srv, tree } = await busyServer(`${sig}-busy`);
    const t0 = Date.now();
    srv.proc.kill(sig);
    const exit = await srv.waitExit(3000);
    assert.equal(exit.timedOut, undefined, 'exited by itself');
    assert.equal(exit.code, 0);
    assert.equal(exit.signal, null);
    assert.ok(exit.at - t0 < 1000, `exit took ${exit.at - t0} ms`);
    await assertGone(tree);
  });
}

test('stdin EOF when idle: exit 0 at once', async () => {
  const srv = startServer([], { label: 'eof-idle' });
  await srv.initialize('2025-06-18');
  const t0 = Date.now();
  const exit = await srv.stop();
  assert.equal(exit.code, 0);
  assert.ok(exit.at - t0 < 500, `exit took ${exit.at - t0} ms`);
});

test('the last message without a trailing newline is still answered before the exit', async () => {
  const srv = startServer([], { label: 'eof-no-newline' });
  srv.wire.noteSent('{"jsonrpc":"2.0","id":"last","method":"ping"}');
  srv.write('{"jsonrpc":"2.0","id":"last","method":"ping"}');
  const exit = await srv.stop();
  assert.equal(exit.code, 0);
  const r = await srv.wire.response('"last"', { timeout: 100 });
  assert.deepEqual(r.msg.result, {});
});

test('stderr stays empty by default, even for failing programs; stdout gets only protocol lines', async () => {
  const srv = startServer([], { label: 'stderr-default' });
  await srv.initialize('2025-11-25');
  await srv.call('console.log("to the result"); console.error("also to the result"); return 1');
  await srv.call('throw new Error("fails")');
  await srv.call('while(true){}', { timeoutMs: 100 });
  await srv.request('no/such/method');
  srv.send('garbage');
  await srv.request('ping');
  await srv.stop();
  assert.equal(srv.stderr, '');
});

test('--log-level debug writes logs to stderr, and stdout stays clean', async () => {
  const srv = startServer(['--log-level', 'debug'], { label: 'stderr-debug' });
  await srv.initialize('2025-11-25');
  const r = await srv.call('console.log("hello"); return 2');
  assert.equal(r.msg.result.structuredContent.result, 2);
  await srv.stop();
  assert.ok(srv.stderr.length > 0, 'debug logs on stderr');
  assert.ok(srv.stderr.split('\n').filter(Boolean).length >= 2);
  assert.ok(!srv.stderr.includes('"jsonrpc"'), 'no protocol traffic on stderr');
});

auditSchemas();
