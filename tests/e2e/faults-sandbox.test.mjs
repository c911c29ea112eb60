// Sandbox faults (issue 16): workers SIGKILLed at random moments of their
// runs (starting, in the middle, waiting on a tool call, writing a large
// result) and while idle (fresh, or kept for the session), the zygote killed
// between executions and during one, workers that cannot lock themselves
// down, and a program whose console output comes faster than the host reads
// it while another client's executions go on. A run whose worker died before
// it read the run is sent again (no error); any other ends promptly with its
// result or a SandboxError; the host stays up, and afterwards it holds no
// more descriptors, children or memory than before.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, entry, eventually, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';
import { childrenOf, isAlive, zygoteOf, fdCount } from './lib/procs.mjs';
import { sleep } from './lib/raw.mjs';

const TMP = tempDir('codemode-sbx-faults-');
const CONFIG = writeConfig(TMP, { mcpServers: { rec: entry.recorder() } });
const ENV = { ...process.env, MCP_CODEMODE_TEST_WORKER_STATS: '1' }; // workerPid in stats
let s, other, baseline;

const fds = fdCount; // the state database, opened on first use and kept, apart
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
const statsOf = (r) => r.raw.structuredContent?.stats ?? {};
const killAll = (pids) => {
  for (const w of pids) {
    try {
      process.kill(w, 'SIGKILL');
    } catch { /* already gone */ }
  }
};
const workersOf = (pid) => {
  try {
    return childrenOf(zygoteOf(pid));
  } catch {
    return []; // no zygote right now (it is being replaced)
  }
};

before(async () => {
  s = await serve(CONFIG, { label: 'sandbox faults', env: ENV });
  other = await serve(CONFIG, { label: 'bystander' });
  for (let i = 0; i < 5; i++) valueOf(await s.exec('const r = await tools.rec.echo({ i: 1 }); return r.args.i'));
  baseline = { fds: fds(s.pid), rss: rssKiB(s.pid) };
});
after(() => assertClean(s, other));

/** The execution ended with its value or a SandboxError, within `ms`. */
function endedWell(r, want, took, ms = 5000) {
  assert.ok(took < ms, `ended after ${took} ms`);
  if (r.ok) assert.deepEqual(r.value, want);
  else assert.equal(r.error?.name, 'SandboxError', r.text);
}

const PROGRAMS = [
  ['starting', 'return 6 * 7', 42],
  ['mid-run', 'let x = 0; for (let i = 0; i < 3e5; i++) x += i % 7; await sleep(30); return x > 0', true],
  ['in a tool call', 'const r = await tools.rec.echo({ v: 5 }); await sleep(20); return r.args.v', 5],
  ['writing a large result', 'return "y".repeat(2000000).length', 2000000],
];

test('workers SIGKILLed at random moments: each execution ends with its value or a SandboxError; the next works', async (t) => {
  let killed = 0, survived = 0;
  for (let round = 0; round < 24; round++) {
    const [, code, want] = PROGRAMS[round % PROGRAMS.length];
    const t0 = Date.now();
    const pending = s.exec(code, { timeoutMs: 10000 });
    await sleep((round * 7) % 40);
    killAll(workersOf(s.pid));
    const r = await pending;
    endedWell(r, want, Date.now() - t0);
    r.ok ? survived++ : killed++;
    assert.deepEqual(valueOf(await s.exec('return "next"')), 'next', 'the next execution works');
  }
  t.diagnostic(`${killed} executions ended with a SandboxError, ${survived} finished before their worker was killed`);
  assert.ok(killed > 0, 'some kills landed during a run');
});

test('idle workers killed (fresh ones and the one kept for the session): the next execution works, without an error', async () => {
  for (let i = 0; i < 5; i++) {
    const first = await s.exec('return "kept"');
    assert.equal(valueOf(first), 'kept');
    const kept = statsOf(first).workerPid;
    assert.ok(workersOf(s.pid).includes(kept), 'the worker is kept for the session (reuse)');
    killAll(workersOf(s.pid)); // no run in progress: every worker is idle
    const t0 = Date.now();
    const r = await s.exec('return "next"', { timeoutMs: 10000 });
    assert.equal(valueOf(r), 'next', 'no SandboxError for a worker that died idle');
    assert.notEqual(statsOf(r).workerPid, kept, 'a fresh worker ran it');
    assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);
  }
});

test('a worker killed while its program waits on a tool call: that execution fails clearly, the late tool result harms nothing, the next works', async () => {
  const pending = s.exec('const r = await tools.rec.echo({ i: 7, delay: 800 }); return r.args.i', { timeoutMs: 10000 });
  await sleep(300);
  killAll(workersOf(s.pid));
  const r = await pending;
  assert.equal(r.ok, false);
  assert.equal(r.error?.name, 'SandboxError', r.text);
  assert.match(r.error.message, /killed/);
  await sleep(700); // the downstream answers the call of a run that is gone
  assert.equal(valueOf(await s.exec('const r = await tools.rec.echo({ i: 8 }); return r.args.i')), 8);
});

test('the zygote killed during an execution: that execution ends with its value or a SandboxError, the next works', async () => {
  const pending = s.exec('await sleep(400); return "slow"', { timeoutMs: 10000 });
  await sleep(150);
  process.kill(zygoteOf(s.pid), 'SIGKILL');
  const r = await pending;
  if (!r.ok) assert.equal(r.error?.name, 'SandboxError', r.text);
  assert.equal(valueOf(await s.exec('return "after"', { timeoutMs: 10000 })), 'after');
});

test('the zygote killed between executions: the next execution works', async () => {
  for (let i = 0; i < 3; i++) {
    valueOf(await s.exec('return 1'));
    const z = zygoteOf(s.pid);
    process.kill(z, 'SIGKILL');
    const t0 = Date.now();
    const r = await s.exec('return "after the zygote"', { timeoutMs: 10000 });
    assert.equal(valueOf(r), 'after the zygote');
    assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);
    // (the call may have been served by a worker of the old zygote still dying)
    await eventually(() => !isAlive(z), { what: 'the old zygote is gone' });
  }
});

test('a program flooding its console while another client runs: the flood is capped, the other client is not starved', async (t) => {
  const flood = s.exec('for (;;) console.log("z".repeat(1000))', { timeoutMs: 2000 });
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = Date.now();
    assert.equal(valueOf(await other.exec(`return ${i}`)), i);
    times.push(Date.now() - t0);
  }
  const r = await flood;
  assert.equal(r.ok, false);
  assert.equal(r.error.name, 'TimeoutError');
  const logged = (r.logs ?? []).join('\n').length;
  assert.ok(logged <= 300 * 1024, `${logged} bytes of console kept (maxLogBytes 256 KiB)`);
  times.sort((a, b) => a - b);
  t.diagnostic(`the bystander's calls during the flood: median ${times[10]} ms, max ${times[19]} ms`);
  assert.ok(times[10] < 500, `median ${times[10]} ms`);
});

for (const step of ['seccomp', 'rlimit']) {
  test(`workers whose ${step} lock-down fails refuse to run: a clear SandboxError, and the server goes on`, async (t) => {
    const bad = await serve(CONFIG, { label: `no ${step}`, env: { ...process.env, MCP_CODEMODE_TEST_LOCKDOWN_FAIL: step } });
    try {
      for (let i = 0; i < 2; i++) {
        const t0 = Date.now();
        const r = await bad.exec('return 1', { timeoutMs: 20000 });
        assert.equal(r.ok, false, 'no program runs without its lock-down');
        assert.equal(r.error?.name, 'SandboxError', r.text);
        assert.match(r.error.message, /cannot lock its workers down/);
        t.diagnostic(`answered after ${Date.now() - t0} ms`);
      }
      assert.equal((await bad.client.listTools()).tools.length, 1, 'the server still answers');
    } finally {
      await bad.close();
    }
  });
}

test('afterwards: no descriptor, child or memory left behind', async () => {
  const deadline = Date.now() + 5000;
  while (fds(s.pid) > baseline.fds && Date.now() < deadline) await sleep(50);
  assert.ok(fds(s.pid) <= baseline.fds, `${fds(s.pid)} descriptors, ${baseline.fds} before`);
  const kids = childrenOf(s.pid);
  assert.ok(kids.length <= 2, `children: ${kids.length} (the zygote and the downstream server)`);
  assert.ok(workersOf(s.pid).length <= 3, `workers: ${workersOf(s.pid).length} (pool of 2, one kept)`);
  assert.ok(isAlive(s.pid));
  const grown = rssKiB(s.pid) - baseline.rss;
  // AddressSanitizer keeps freed memory in quarantine (up to 256 MiB): RSS says nothing there
  if (!/libasan/.test(readFileSync(`/proc/${s.pid}/maps`, 'utf8')))
    assert.ok(grown < 8 * 1024, `RSS grew by ${grown} KiB across the faults`);
});

auditSchemas();
