// The downstream client of issue 4 through the real binary: what environment
// a stdio server gets (only HOME LOGNAME PATH SHELL TERM USER from ours, plus
// its entry's env; a secret in our environment must not leak), its working
// directory and command lookup, protocol negotiation (a legacy-only server
// that answers server/discover with -32601, server-everything on 2025-11-25,
// a 2026-07-28 server), downstream stderr logged under the server's name,
// list_changed (re-list, notifications/tools/list_changed to our client, a
// new execute_code description), restarts with backoff while calls fail fast,
// a failing server that does not stop the others, and task-only tools.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, NODE, RECORDER, entry, eventually, readLog, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-ds-client-');
const WORK = fs.mkdtempSync(path.join(TMP, 'work-'));
const STUBS = fs.mkdtempSync(path.join(TMP, 'stubs-'));
const REC_LOG = path.join(TMP, 'rec.log');
fs.writeFileSync(path.join(STUBS, 'stub-server'), `#!/bin/sh\nexec "${NODE}" "${RECORDER}" --name stub "$@"\n`, { mode: 0o755 });
fs.writeFileSync(path.join(WORK, 'srv.sh'), `#!/bin/sh\nexec "${NODE}" "${RECORDER}" --name relative "$@"\n`, { mode: 0o755 });

// Our own environment: the secrets must not reach any server.
const SECRETS = { E2E_SECRET_TOKEN: 'hunter2', AWS_SECRET_ACCESS_KEY: 'aws-secret', CODEMODE_TOKEN: 'ours', NODE_OPTIONS: '--no-warnings' };
const ENV = { ...SECRETS, TERM: 'xterm-e2e', USER: 'e2e-user', LOGNAME: '() { echo shell function; }', SHELL: '/bin/sh' };

const CONFIG = {
  mcpServers: {
    rec: entry.recorder(['--stderr', 'hello from the recorder', '--log', REC_LOG], {
      env: { ENTRY_VAR: 'entry', HOME: '/entry/home', EMPTY: '' },
      cwd: WORK,
    }),
    bare: { command: 'stub-server', env: { PATH: `${STUBS}:/usr/bin:/bin` } },
    relative: { command: './srv.sh', cwd: WORK },
    maze: entry.maze(7),
    everything: entry.everything(),
    modern: entry.misbehaving(['--modern']),
    mis: entry.misbehaving(['--name', 'mis']),
    tasks: entry.misbehaving(['--tasks']),
    crashy: entry.misbehaving(['--crash-on-start']),
    missing: { command: '/nonexistent/server-binary' },
  },
};

let s;
let listChanged = 0;
before(async () => {
  s = await serve(writeConfig(TMP, CONFIG), { env: ENV, args: ['--log-level', 'debug'], label: 'client' });
  s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => { listChanged++; });
});
after(() => assertClean(s));

test('environment: only HOME LOGNAME PATH SHELL TERM USER are inherited, plus the entry env; no secret leaks', async () => {
  const e = valueOf(await s.exec('return await tools.rec.env()')).env;
  assert.deepEqual(Object.keys(e).sort(), ['EMPTY', 'ENTRY_VAR', 'HOME', 'PATH', 'SHELL', 'TERM', 'USER'],
    'LOGNAME holds a shell function, so it is not passed');
  assert.equal(e.HOME, '/entry/home', 'the entry env replaces an inherited variable');
  assert.equal(e.EMPTY, '', 'an empty value sets the variable to empty');
  assert.equal(e.TERM, 'xterm-e2e');
  assert.equal(e.USER, 'e2e-user');
  assert.equal(e.PATH, process.env.PATH);
  // every server: none sees a secret
  const all = valueOf(await s.exec(`
    const envs = [await tools.bare.env(), await tools.relative.env(), await tools.mis.env(), await tools.everything.get_env()];
    return envs.map((e) => JSON.stringify(e));`));
  for (const text of all)
    for (const [k, v] of Object.entries(SECRETS)) {
      assert.ok(!text.includes(k) && !text.includes(v), `${k} leaked: ${text.slice(0, 300)}`);
    }
});

test('working directory and command lookup: cwd, the entry PATH, a relative command with a slash', async () => {
  const r = valueOf(await s.exec(`
    const rec = await tools.rec.env(), bare = await tools.bare.env(), rel = await tools.relative.env(), mis = await tools.mis.env();
    return { rec: rec.cwd, bare: [bare.argv, bare.env.PATH], rel: [rel.argv, rel.cwd], mis: mis.cwd };`));
  assert.equal(r.rec, fs.realpathSync(WORK));
  assert.deepEqual(r.bare, [['--name', 'stub'], `${STUBS}:/usr/bin:/bin`], 'a bare command is found along the entry\'s own PATH');
  assert.deepEqual(r.rel, [['--name', 'relative'], fs.realpathSync(WORK)], './srv.sh is resolved against cwd');
  assert.equal(r.mis, process.cwd(), 'without cwd, the server runs in ours');
});

test('protocol negotiation: legacy-only servers after a -32601 probe, 2025-11-25 with server-everything, 2026-07-28', async () => {
  const r = valueOf(await s.exec(`
    const look = await tools.maze.look();
    const echo = await tools.everything.echo({ message: "negotiated" });
    const modern = await tools.modern.add({ a: 2, b: 3 });
    return { look, echo, modern };`));
  assert.deepEqual(r.look.position, { x: 0, y: 0 });
  assert.equal(r.echo, 'Echo: negotiated');
  assert.deepEqual(r.modern, { sum: 5 });
  const err = s.stderr();
  assert.match(err, /server 'maze': server\/discover: Method not found; falling back to initialize/);
  assert.match(err, /server 'maze': speaks 2025-11-25 over stdio \(maze 1\.0\.0\)/);
  assert.match(err, /server 'everything': speaks 2025-11-25 over stdio \(mcp-servers\/everything/);
  assert.match(err, /server 'modern': speaks 2026-07-28 over stdio \(misbehaving 9\.9\.9\)/);
  // what the recorder received, in order: the probe, then the legacy handshake
  const methods = readLog(REC_LOG).map((m) => m.method).filter(Boolean);
  assert.deepEqual(methods.slice(0, 4), ['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
  const init = readLog(REC_LOG).find((m) => m.method === 'initialize');
  assert.equal(init.params.protocolVersion, '2025-11-25');
  assert.equal(init.params.clientInfo.name, 'mcp-codemode');
});

test('stderr of a downstream server is logged under its name', () => {
  assert.match(s.stderr(), /^mcp-codemode\[\d+\]: info: server 'rec': hello from the recorder$/m);
  assert.match(s.stderr(), /^mcp-codemode\[\d+\]: info: server 'everything': Starting default \(STDIO\) server\.\.\.$/m);
});

test('list_changed: re-listed, notifications/tools/list_changed sent to the client, the description follows', async () => {
  const before = await s.description();
  assert.doesNotMatch(before, /added_1/);
  const seen = listChanged;
  valueOf(await s.exec('return await tools.mis.change_tools()'));
  await eventually(() => listChanged > seen, { what: 'notifications/tools/list_changed', timeout: 3000 });
  const after = await s.description();
  assert.match(after, /\n {4}\/\*\* added at run time \*\/\n {4}added_1\(args\?: \{\}\): Promise<unknown>;/);
  const found = valueOf(await s.exec('return await searchTools("added")'));
  assert.deepEqual(found.map((f) => f.name), ['mis.added_1']);
  // a modern (2026-07-28) server's list_changed comes through its subscriptions/listen stream
  const seen2 = listChanged;
  valueOf(await s.exec('return await tools.modern.change_tools()'));
  await eventually(() => listChanged > seen2, { what: 'a second list_changed', timeout: 3000 });
  assert.match(await s.description(), /modern: \{[\s\S]*added_1\(/);
});

test('a crashed server is restarted with backoff; meanwhile calls fail fast, naming it', async () => {
  const r = valueOf(await s.exec(`
    const out = [];
    const attempt = async () => {
      const t0 = Date.now();
      try { const v = await tools.mis.add({ a: 1, b: 1 }); return { ok: v, ms: Date.now() - t0 }; }
      catch (e) { return { name: e.name, message: e.message, ms: Date.now() - t0 }; }
    };
    const crash = async () => {
      try { await tools.mis.crash({ delay_ms: 10 }); } catch (e) { return { name: e.name, message: e.message, tool: e.tool }; }
    };
    for (let round = 0; round < 2; round++) {
      const crashed = await crash();
      const t0 = Date.now();
      const fast = await attempt();
      let back;
      while (!(back = await attempt()).ok) await sleep(25);
      out.push({ crashed, fast, downMs: Date.now() - t0 });
    }
    return out;`, { timeoutMs: 20000 }));
  for (const [i, round] of r.entries()) {
    assert.equal(round.crashed.name, 'ToolError');
    assert.equal(round.crashed.tool, 'mis.crash');
    assert.match(round.crashed.message, /^server 'mis' went down during the call to 'crash': it exited with status 3; its last stderr line: "crashing on purpose"$/);
    assert.match(round.fast.message, /^server 'mis' is unavailable: it exited with status 3.*; the next restart is in \d+ ms$/);
    assert.ok(round.fast.ms < 300, `round ${i}: a call to a server that is down fails at once (${round.fast.ms} ms)`);
  }
  // the backoff doubles while the server keeps crashing: 0.5 s, then 1 s (plus the start of node)
  assert.ok(r[0].downMs >= 450 && r[0].downMs < 3000, `first restart after ${r[0].downMs} ms`);
  assert.ok(r[1].downMs >= 950 && r[1].downMs < 4000, `second restart after ${r[1].downMs} ms`);
  assert.match(s.stderr(), /server 'mis': exited with status 3; its last stderr line: "crashing on purpose"; restarting in 500 ms/);
  assert.match(s.stderr(), /server 'mis': exited with status 3; its last stderr line: "crashing on purpose"; restarting in 1000 ms/);
});

test('servers that fail to start do not stop the others; each failure names its server', async () => {
  const r = valueOf(await s.exec(`
    const out = {};
    for (const [k, f] of Object.entries({
      crashy: () => tools.crashy.echo({}),
      missing: () => callTool("missing.anything", {}),
      maze: () => tools.maze.look(),
    })) {
      try { out[k] = { value: await f() }; } catch (e) { out[k] = { name: e.name, message: e.message }; }
    }
    return out;`));
  assert.match(r.crashy.message, /server "crashy".*exited with status 2 while connecting; its last stderr line: "boom at start"/);
  assert.match(r.missing.message, /server "missing".*cannot start "\/nonexistent\/server-binary"/);
  assert.equal(r.maze.value.escaped, false);
});

test('task-only tools: declared as not callable when the server lacks tasks, run as tasks when it has them', async () => {
  const d = await s.description();
  assert.match(d, /\/\/ Not callable from programs: mis\.needs_task \(it runs only as a task/);
  assert.doesNotMatch(d, /tasks\.needs_task/);
  assert.match(d, /tasks: \{[\s\S]*needs_task\(/);
  const r = valueOf(await s.exec(`
    let refused;
    try { await callTool("mis.needs_task", {}); } catch (e) { refused = e.message; }
    return { refused, ran: await tools.tasks.needs_task({ ms: 50 }) };`));
  assert.match(r.refused, /needs_task/);
  assert.equal(r.ran, 'task needs_task done');
});

auditSchemas();
