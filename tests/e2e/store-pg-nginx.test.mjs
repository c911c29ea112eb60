// Two instances behind nginx sharing one PostgreSQL (codemode.store,
// docs/deploy.md), 2026-07-28 stateless calls balanced freely over both, on a
// cluster of this file's own (it is stopped and started again): 1,000
// ifVersion increments spread over both end at exactly 1,000; a skill saved
// through one is called through the other (LISTEN/NOTIFY); PostgreSQL
// stopped for 5 s in the middle of a load: state calls fail with StateError
// "storage", everything else keeps answering, the pools reconnect and no
// acknowledged write is missing; a connection killed mid-transaction
// (pg_terminate_backend) fails that one write, and the next ones succeed.
// Skipped, with the reason, without nginx or the PostgreSQL server binaries.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { HttpServer, modernCall, writeConfig } from './lib/http.mjs';
import { NGINX, startNginx } from './lib/nginx.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { pgAvailable, startCluster } from './lib/pg.mjs';
import { freePort } from './lib/ports.mjs';
import { sleep } from './lib/raw.mjs';
import { Wire } from './lib/wire.mjs';

const skip = !NGINX ? 'nginx is not installed (scripts/setup.sh --npm installs it)'
  : !pgAvailable() ? 'PostgreSQL (initdb, pg_ctl) is not installed: scripts/setup.sh --npm' : false;
const RECORDER = path.join(REPO_ROOT, 'tests/fixtures/servers/recorder.mjs');

let a, b, nginx, cluster, db, proxy;

function startInstance(id, origin) {
  const cfg = writeConfig(
    { http: { instanceId: id, allowedOrigins: [origin] }, poolSize: 6, store: { url: cluster.url(db), connectTimeoutMs: 1000, statementTimeoutMs: 5000 } },
    { [`inst_${id}`]: { command: process.execPath, args: [RECORDER, '--name', `inst_${id}`] } },
  );
  return HttpServer.start(['--config', cfg], { label: `instance ${id}` });
}

before(async () => {
  if (skip) return;
  cluster = startCluster();
  db = cluster.database('shared');
  const port = await freePort();
  [a, b] = await Promise.all([startInstance('a', `http://127.0.0.1:${port}`), startInstance('b', `http://127.0.0.1:${port}`)]);
  nginx = await startNginx(port, `
  upstream mcp_all { server 127.0.0.1:${a.port}; server 127.0.0.1:${b.port}; keepalive 16; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mcp_all;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
    }
  }`);
  proxy = { label: 'nginx', port, transportWire: new Wire('nginx (HTTP-level errors)') };
});

after(async () => {
  if (skip) return;
  await nginx?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  const problems = [...(a ? await a.exitProblems() : []), ...(b ? await b.exitProblems() : [])];
  assert.deepEqual(problems, [], 'both instances exit cleanly (status 0, no sanitizer report)');
});

const wire = new Wire('pg behind nginx');
/** pg_cluster.sh stop|restart without blocking this process (its timings are measured meanwhile). */
const clusterCtl = (what) => promisify(execFile)('sh', [path.join(REPO_ROOT, 'tests/lib/pg_cluster.sh'), what, cluster.dir]);
let ids = 0;

/** A stateless execute_code on server (the proxy, a or b): {ok, value | error}. */
async function run(server, code) {
  const r = await modernCall(server, wire, 'tools/call', { name: 'execute_code', arguments: { code } }, { id: ++ids });
  if (r.status !== 200) return { ok: false, error: `HTTP ${r.status}` };
  const m = r.messages.at(-1);
  if (m?.error) return { ok: false, error: m.error.message };
  if (m.result.isError) return { ok: false, error: m.result.content.map((c) => c.text).join('\n'), result: m.result };
  return { ok: true, value: m.result.structuredContent.result };
}

/** Retries a state write on server for up to 8 s (a pool in its backoff after an outage). */
async function untilStateWorks(server) {
  const t0 = Date.now();
  let r;
  do {
    r = await run(server, 'return await state.set("probe", 1)');
    if (!r.ok) await sleep(100);
  } while (!r.ok && Date.now() - t0 < 8000);
  return r;
}

const INCREMENT = `
for (let tries = 1; ; tries++) {
  const e = await state.entry("counter");
  try {
    await state.set("counter", (e ? e.value : 0) + 1, { ifVersion: e ? e.version : 0 });
    return [Object.keys(tools)[0], tries];
  } catch (err) {
    if (err.name !== "StateConflictError") throw err;
  }
}`;

test('1,000 ifVersion increments spread over both instances end at exactly 1,000', { skip }, async () => {
  const seen = { inst_a: 0, inst_b: 0 };
  let conflicts = 0, next = 0;
  const worker = async () => {
    while (next < 1000) {
      next++;
      const r = await run(proxy, INCREMENT);
      assert.ok(r.ok, r.error);
      seen[r.value[0]]++;
      conflicts += r.value[1] - 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  assert.ok(seen.inst_a >= 200 && seen.inst_b >= 200, `both instances took increments: ${JSON.stringify(seen)}`);
  const final = await run(a, 'return await state.get("counter")');
  assert.equal(final.value, 1000, `every increment counted once (${conflicts} conflicts were retried)`);
  assert.equal((await run(b, 'return (await state.entry("counter")).version')).value, 1000);
});

test('a skill saved through one instance is called through the other', { skip }, async () => {
  const save = await run(a, `return await skills.save({ name: "triple", description: "x * 3",
    inputSchema: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
    code: "return args.x * 3;" })`);
  assert.ok(save.ok, save.error);
  const t0 = Date.now();
  let r;
  for (let i = 0; i < 100; i++) { // b hears of it through LISTEN/NOTIFY, within milliseconds
    r = await run(b, 'return await skills.triple({ x: 14 })');
    if (r.ok) break;
    await sleep(10);
  }
  assert.ok(r.ok, r.error);
  assert.equal(r.value, 42);
  assert.ok(Date.now() - t0 < 1000, `b knew the skill after ${Date.now() - t0} ms`);
  for (let i = 0; i < 6; i++) assert.equal((await run(proxy, 'return await skills.triple({ x: 2 })')).value, 6, 'through the balancer, either instance');
  // and deleted through b, it is gone from a
  assert.equal((await run(b, 'return await skills.delete("triple")')).value, true);
  let gone = false;
  for (let i = 0; i < 100 && !gone; i++) {
    gone = (await run(a, 'return typeof skills.triple')).value === 'undefined';
    if (!gone) await sleep(10);
  }
  assert.ok(gone, 'a forgot the skill deleted through b');
});

/** A stateless resources/read on server: the contents entry, or the JSON-RPC error. */
async function read(server, uri) {
  const r = await modernCall(server, wire, 'resources/read', { uri }, { id: ++ids });
  const m = r.messages.at(-1);
  return m?.error ? { error: m.error } : { contents: m.result.contents[0] };
}

test('a stash link minted on one instance is read through the other, only by its principal', { skip }, async () => {
  // content.stash: the link the program gets is readable through b once a's execution answered
  const stashed = await run(a, 'const l = await content.stash({ rows: [1, 2, 3], who: "a" }); return l.uri;');
  assert.ok(stashed.ok, stashed.error);
  const viaB = await read(b, stashed.value);
  assert.equal(viaB.error, undefined, JSON.stringify(viaB.error));
  assert.deepEqual(JSON.parse(viaB.contents.text), { rows: [1, 2, 3], who: 'a' });
  assert.equal(viaB.contents.mimeType, 'application/json');
  // a result over maxResultBytes: its whole-result link, read through the balancer (either instance)
  const big = await modernCall(a, wire, 'tools/call', { name: 'execute_code', arguments: { code: 'return "x".repeat(1200000)' } }, { id: ++ids });
  const sc = big.messages.at(-1).result.structuredContent;
  assert.ok(sc.resultTruncated?.uri, 'the result was cut and stashed');
  for (let i = 0; i < 4; i++) {
    const r = await read(i % 2 ? a : proxy, sc.resultTruncated.uri);
    assert.equal(JSON.parse(r.contents.text).length, 1200000);
  }
  // an unknown URI is not found through either instance
  const unknown = await read(b, 'codemode://stash/00000000000000000000000000000000');
  assert.ok(unknown.error, 'an unknown entry is not found');
  // another principal (a 2025 session of b) does not see it
  const { RawSession } = await import('./lib/http.mjs');
  const s = await RawSession.open(b, '2025-11-25', 'other principal');
  const other = await s.call('resources/read', { uri: stashed.value });
  assert.ok(other.messages[0].error, 'a session (another principal) cannot read the stateless principal\'s entry');
  await s.delete();
});

test('PostgreSQL stopped for 5 s under load: StateError "storage", the rest answers, the pools reconnect, nothing acknowledged is lost', { skip }, async () => {
  const acked = new Map();
  let failures = 0, others = 0, n = 0, stop = false;
  const otherFailures = [];
  const errors = new Set();
  const writer = async (w) => {
    while (!stop) {
      const v = ++n, key = `w${w}-${v}`;
      const r = await run(proxy, `try { await state.set(${JSON.stringify(key)}, ${v}); return "ok"; } catch (e) { return [e.name, e.code]; }`);
      assert.ok(r.ok, r.error);
      if (r.value === 'ok') acked.set(key, v);
      else {
        failures++;
        errors.add(r.value.join(' '));
      }
    }
  };
  const bystander = async () => {
    while (!stop) {
      const t0 = Date.now();
      const r = await run(proxy, 'return 6 * 7');
      others++;
      const took = Date.now() - t0;
      if (!r.ok || r.value !== 42 || took > 1000) otherFailures.push(r.ok ? `${r.value} in ${took} ms` : r.error);
      const p0 = Date.now();
      const ping = await modernCall(proxy, wire, 'tools/list', {}, { id: ++ids });
      if (ping.status !== 200 || Date.now() - p0 > 500) otherFailures.push(`tools/list: HTTP ${ping.status} in ${Date.now() - p0} ms`);
      await sleep(20);
    }
  };
  const load = [writer(1), writer(2), writer(3), bystander()];
  await sleep(1000);
  const before = acked.size;
  await clusterCtl('stop');
  await sleep(5000);
  const during = failures;
  await clusterCtl('restart');
  // the pools reconnect: writes succeed again within their backoff (at most 5 s)
  const back = acked.size;
  for (let i = 0; i < 100 && acked.size < back + 20; i++) await sleep(100);
  stop = true;
  await Promise.all(load);
  assert.ok(before > 20, `writes were acknowledged before the outage (${before})`);
  assert.ok(during > 0, 'writes failed during the outage');
  assert.deepEqual([...errors], ['StateError storage'], 'only StateError "storage"');
  assert.ok(acked.size >= back + 20, 'writes are acknowledged again after the outage');
  assert.deepEqual(otherFailures, [], `programs without state kept answering (${others} ran)`);
  // each instance's pool is back within its backoff (at most 5 s after the restart)
  for (const server of [a, b]) {
    const r = await untilStateWorks(server);
    assert.ok(r.ok, `${server.label} reconnected: ${r.error}`);
  }
  // every acknowledged write is there, read through both instances
  const keys = [...acked.keys()];
  for (const server of [a, b]) {
    const r = await run(server, `const keys = ${JSON.stringify(keys)}; const out = {}; for (const k of keys) out[k] = await state.get(k); return out;`);
    assert.ok(r.ok, r.error);
    for (const [k, v] of acked) assert.equal(r.value[k], v, `${k} acknowledged and kept`);
  }
});

test('a connection killed mid-transaction fails that write only; the next ones succeed', { skip }, async () => {
  await untilStateWorks(a);
  assert.ok((await run(a, 'return await state.set("victim", 1)')).ok);
  // hold the scope's write lock so that a's write waits inside its transaction, then kill a's connection
  const scope = cluster.psql("SELECT scope FROM codemode_state WHERE key = 'victim'", db).trim();
  // the holder keeps the lock until it is terminated below (30 s at most)
  const holder = spawn('sh', [path.join(REPO_ROOT, 'tests/lib/pg_cluster.sh'), 'psql', cluster.dir,
    `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('${scope}', 7243)); SELECT pg_sleep(30); COMMIT;`, db], { stdio: 'ignore' });
  const released = new Promise((ok) => holder.on('exit', ok));
  const until = async (sql) => { // polls sql until it answers 1 (a loaded machine starts psql slowly)
    const deadline = Date.now() + 15000;
    for (;;) {
      const v = cluster.psql(sql, db).trim();
      if (v === '1' || Date.now() > deadline) return v;
      await sleep(50);
    }
  };
  assert.equal(await until("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"), '1', 'the holder took the lock');
  const writing = run(a, 'try { await state.set("victim", 2); return "written"; } catch (e) { return [e.name, e.code, e.message]; }');
  await until(`SELECT count(*) FROM pg_stat_activity WHERE application_name = 'mcp-codemode' AND datname = '${db}' AND wait_event = 'advisory'`);
  const killed = cluster.psql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = 'mcp-codemode' AND datname = '${db}' AND wait_event = 'advisory'`, db);
  assert.match(killed, /1/, 'the waiting connection was found and terminated');
  cluster.psql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'psql' AND datname = '${db}' AND query LIKE '%pg_sleep(30)%' AND pid <> pg_backend_pid()`, db);
  const r = await writing;
  assert.ok(r.ok, r.error);
  assert.deepEqual(r.value.slice(0, 2), ['StateError', 'storage']);
  assert.match(r.value[2], /PostgreSQL/);
  await released;
  assert.equal((await run(a, 'return await state.get("victim")')).value, 1, 'the killed write was not applied');
  assert.equal((await run(a, 'return await state.set("victim", 3)')).value, 2, 'the next write goes through a new connection');
});
