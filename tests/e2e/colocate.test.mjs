// Call colocation (codemode.sandbox.colocateCalls, docs/config.md): while a
// program waits on one tool call at a time, the server, its worker and the
// stdio downstream server share one CPU, unless the program computes between
// its calls; afterwards every process has its
// whole CPU mask back (the recorder fixture reports its own mask from inside
// a call; the server's, the worker's and the recorder's are read in /proc
// after the execution). With the setting off nothing is pinned. Skipped
// when this machine lets us use a single CPU.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, entry, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';

const env = { ...process.env, MCP_CODEMODE_TEST_WORKER_STATS: '1' }; // workerPid in stats

const cpus = (pid) => /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1];
const ALL = cpus('self');
const ONE_CPU = /^\d+$/.test(ALL);
const skip = ONE_CPU ? 'this process may use a single CPU' : false;

const TMP = tempDir('codemode-colocate-');
const SEQUENTIAL = `
  const seen = [];
  for (let i = 0; i < 20; i++) seen.push((await tools.rec.env()).cpus);
  const { pid } = await tools.rec.env();
  return { seen, pid };`;

let on, off;
before(async () => {
  on = await serve(writeConfig(TMP, { mcpServers: { rec: entry.recorder() } }), { label: 'colocate-on', env });
  off = await serve(writeConfig(TMP, {
    mcpServers: { rec: entry.recorder() },
    codemode: { sandbox: { colocateCalls: false } },
  }), { label: 'colocate-off', env });
});
after(() => assertClean(on, off));

// Every process of the chain has its whole mask again (at once: the masks
// are put back before the result is sent).
function expectRestored(h, r, downstreamPid) {
  const worker = r.raw.structuredContent?.stats?.workerPid;
  assert.ok(worker > 0, 'the worker pid is in stats');
  assert.deepEqual({ server: cpus(h.pid), worker: cpus(worker), downstream: cpus(downstreamPid) },
    { server: ALL, worker: ALL, downstream: ALL });
}

test('sequential calls run the chain on one CPU, and every mask is put back after the execution', { skip }, async () => {
  const r = await on.exec(SEQUENTIAL);
  const { seen, pid } = valueOf(r);
  const pinned = seen.filter((c) => /^\d+$/.test(c));
  // Under load a slow call can outlast the pins (they drop 10 ms after the
  // call that renewed them), so not every call has to see them.
  assert.ok(pinned.length > 0, `no call ran pinned: ${seen.join(' ')}`);
  assert.ok(seen.every((c) => c === ALL || /^\d+$/.test(c)), seen.join(' '));
  expectRestored(on, r, pid);
});

test('parallel calls leave the masks whole; the next execution starts unpinned', { skip }, async () => {
  const r = await on.exec(`
    const all = await Promise.all(Array.from({ length: 8 }, () => tools.rec.env()));
    return { pid: all[0].pid, last: all.map((x) => x.cpus) };`);
  const { pid } = valueOf(r);
  expectRestored(on, r, pid);
  const again = await on.exec('return 1 + 1');
  assert.equal(valueOf(again), 2);
  assert.equal(cpus(on.pid), ALL);
});

test('a program that computes between its calls is not colocated', { skip }, async () => {
  const r = await on.exec(`
    const spin = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
    const seen = [];
    for (let i = 0; i < 6; i++) { seen.push((await tools.rec.env()).cpus); spin(3); }
    return seen;`);
  // from the second call on, each follows 3 ms of computing (over 0.5 ms)
  assert.deepEqual([...new Set(valueOf(r).slice(1))], [ALL]);
  assert.equal(cpus(on.pid), ALL);
});

test('a failing call and a thrown error put the masks back too', { skip }, async () => {
  const r = await on.exec(`
    const { pid } = await tools.rec.env();
    try { await tools.rec.fail({ why: 'no' }); } catch (e) {}
    globalThis.pid = pid;
    throw new Error('stop ' + pid);`);
  assert.equal(r.ok, false);
  const pid = Number(/stop (\d+)/.exec(r.text)[1]);
  assert.deepEqual({ server: cpus(on.pid), downstream: cpus(pid) }, { server: ALL, downstream: ALL });
});

test('colocateCalls: false pins nothing', { skip }, async () => {
  const r = await off.exec(SEQUENTIAL);
  const { seen, pid } = valueOf(r);
  assert.deepEqual([...new Set(seen)], [ALL]);
  expectRestored(off, r, pid);
});

auditSchemas();
