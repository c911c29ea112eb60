// Per-server limits (issue 14, docs/policy.md): maxConcurrentCalls bounds the
// calls in flight to one downstream server from all executions, and
// callsPerSecond spaces their starts; calls past a limit wait, they never
// fail. The annotated fixture's `slow` tool reports how many calls were in
// flight at the server when it started, and when it started.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { NODE, readLog, runBin, tempDir } from './lib/downstream.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { connectSdk } from './lib/sdk.mjs';

const ANNOTATED = path.join(REPO_ROOT, 'tests/fixtures/servers/annotated.mjs');
const TMP = tempDir('codemode-limits-');
const log = (n) => path.join(TMP, `${n}.calls.jsonl`);
const FILE = path.join(TMP, 'config.json');
const AUDIT = path.join(TMP, 'audit.jsonl');
fs.writeFileSync(FILE, JSON.stringify({
  mcpServers: {
    two: { command: NODE, args: [ANNOTATED, '--log', log('two')], maxConcurrentCalls: 2 },
    rate: { command: NODE, args: [ANNOTATED, '--log', log('rate')], callsPerSecond: 20 },
    free: { command: NODE, args: [ANNOTATED, '--log', log('free')] },
  },
  codemode: { audit: { path: AUDIT } },
}));

let c;
const value = async (code) => {
  const raw = await c.client.callTool({ name: 'execute_code', arguments: { code } });
  assert.notEqual(raw.isError, true, raw.content[0].text);
  return raw.structuredContent.result;
};
before(async () => {
  c = await connectSdk(['--config', FILE, '--pool-size', '2'], { label: 'limits' });
});
after(async () => {
  await c.close();
  assert.deepEqual(c.errors.map(String), []);
});

const burst = (server, n, ms) => `
  const rs = await Promise.all(Array.from({length: ${n}}, () => tools.${server}.slow({ms: ${ms}})));
  return rs;`;

test('maxConcurrentCalls 2: a Promise.all of 8 queues, never more than 2 in flight, all succeed', async () => {
  const t0 = Date.now();
  const rs = await value(burst('two', 8, 150));
  assert.equal(rs.length, 8);
  assert.equal(Math.max(...rs.map((r) => r.atStart)), 2, JSON.stringify(rs));
  assert.ok(Date.now() - t0 >= 4 * 150 - 20, `${Date.now() - t0} ms`);
  assert.equal(readLog(log('two')).length, 8);
  // without the limit the same burst overlaps
  const free = await value(burst('free', 8, 150));
  assert.ok(Math.max(...free.map((r) => r.atStart)) > 2, JSON.stringify(free));
});

test('maxConcurrentCalls counts the calls of all executions', async () => {
  const [a, b] = await Promise.all([value(burst('two', 4, 150)), value(burst('two', 4, 150))]);
  assert.equal(Math.max(...[...a, ...b].map((r) => r.atStart)), 2);
  assert.equal(readLog(log('two')).length, 16);
});

test('callsPerSecond 20: starts are spaced about 50 ms apart', async () => {
  const rs = await value(burst('rate', 6, 0));
  const starts = rs.map((r) => r.startedAt).sort((x, y) => x - y);
  const gaps = starts.slice(1).map((t, i) => t - starts[i]);
  // starts are measured where they arrive (the fixture), so pipe and
  // scheduling jitter on a loaded machine shows up in single gaps: each gap
  // is at least half the interval (unlimited, all 6 start within a few ms),
  // and the six span at least four intervals
  assert.ok(gaps.every((g) => g >= 25), JSON.stringify(gaps));
  assert.ok(starts.at(-1) - starts[0] >= 200, JSON.stringify(gaps));
  const free = await value(burst('free', 6, 0));
  const fs0 = free.map((r) => r.startedAt);
  assert.ok(Math.max(...fs0) - Math.min(...fs0) < 200, 'without the limit the starts are not spread');
  assert.equal(readLog(log('rate')).length, 6);
});

test('a program that ends while its calls wait in the queue: the queued calls are never sent', async () => {
  const before = readLog(log('two')).length;
  const raw = await c.client.callTool({ name: 'execute_code', arguments: { code: `${burst('two', 6, 400).replace('return rs;', '')}`, timeoutMs: 300 } });
  assert.equal(raw.isError, true);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(readLog(log('two')).length - before, 2, 'only the two that had a slot reached the server');
  const rs = await value(burst('two', 3, 10));
  assert.equal(rs.length, 3, 'the slots were given back');
});

test('the audit log tells the queued calls that were never sent (not_sent) from those cancelled after sending', async () => {
  const raw = await c.client.callTool({ name: 'execute_code', arguments: { code: `${burst('two', 5, 400).replace('return rs;', '')}`, timeoutMs: 300 } });
  assert.equal(raw.isError, true);
  const lines = fs.readFileSync(AUDIT, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
  const id = lines.findLast((l) => l.event === 'execution_start').executionId;
  const mine = lines.filter((l) => l.executionId === id);
  const calls = mine.filter((l) => l.event === 'tool_call');
  const sent = mine.filter((l) => l.event === 'tool_call_sent');
  assert.equal(calls.length, 5);
  const cancelled = calls.filter((l) => l.outcome === 'cancelled');
  const notSent = calls.filter((l) => l.outcome === 'not_sent');
  assert.equal(cancelled.length, 2, 'the two that had a slot were sent, then cancelled');
  assert.equal(notSent.length, 3, 'the three still queued were never sent');
  assert.ok(notSent.every((l) => l.decision === 'allow' && l.callId === undefined));
  assert.deepEqual(sent.map((l) => l.callId).sort(), cancelled.map((l) => l.callId).sort(), 'a sent line for each cancelled call, none for the others');
  const rs = await value(burst('two', 2, 10));
  assert.equal(rs.length, 2, 'the server still serves');
});

test('bad limits are config errors with their position', async () => {
  const bad = path.join(TMP, 'bad.json');
  fs.writeFileSync(bad, '{"mcpServers": {"x": {"command": "x", "callsPerSecond": 0}}}');
  let r = await runBin(['check', '--config', bad]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /bad\.json:1:57: mcpServers\.x\.callsPerSecond: expected a number above 0 and at most 10000, got 0/);
  fs.writeFileSync(bad, '{"mcpServers": {"x": {"command": "x", "maxConcurrentCalls": 0}}}');
  r = await runBin(['check', '--config', bad]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /mcpServers\.x\.maxConcurrentCalls: expected an integer from 1 to 4096, got 0/);
});

auditSchemas({ minMessages: 5 });
