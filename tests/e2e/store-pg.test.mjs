// codemode.store on PostgreSQL (a throwaway cluster, tests/lib/pg_cluster.sh;
// skipped when initdb is not installed): a misspelt URL, an unreachable
// server or a wrong password stop the start with a sentence naming the key;
// a database of a newer schema is refused; while the server is down, state
// fails with StateError "storage", other programs answer, and once it is back
// the pool reconnects with every acknowledged write there; a row lock held by
// another connection does not stall the loop (ping and a program without
// state answer at once), nor does skills.list waiting on a locked table,
// skills.save on a locked row or the shared stash on a locked table; a
// value the shared stash does not take is readable through its instance, and
// the result says so.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { BIN } from './lib/paths.mjs';
import { tempDir, valueOf, writeConfig } from './lib/downstream.mjs';
import { pingMedian } from './lib/latency.mjs';
import { pgAvailable, sharedCluster } from './lib/pg.mjs';
import { trackedConnect } from './lib/state.mjs';

const skip = !pgAvailable() && 'PostgreSQL (initdb, pg_ctl) is not installed: scripts/setup.sh --npm';
const dir = tempDir('codemode-store-pg-');
const open = trackedConnect();
let n = 0;

function config(store, env = {}) {
  return writeConfig(dir, { mcpServers: {}, codemode: { store: { connectTimeoutMs: 2000, ...store } } });
}

/** A config on a new database of the shared cluster (the SDK's stdio client passes no PG* variables). */
function fresh() {
  const c = sharedCluster();
  const db = c.database(`store_pg_${process.pid}_${++n}`);
  return { c, db, file: config({ url: c.url(db) }) };
}

/**
 * While an operation of h waits for a lock another connection holds, ping
 * (the median of 5) and a program without state answer at once: `what` is
 * the wait, for the messages.
 */
async function assertLoopFree(h, what) {
  const ping = await pingMedian(() => h.client.ping());
  const t0 = process.hrtime.bigint();
  assert.equal(valueOf(await h.exec('return 1 + 1')), 2);
  const run = Number(process.hrtime.bigint() - t0) / 1e6;
  assert.ok(ping < 20, `ping answered in ${ping.toFixed(1)} ms (median of 5) while ${what}`);
  assert.ok(run < 200, `a program without state ran in ${run.toFixed(1)} ms while ${what}`);
}

function start(file, env = {}) {
  return spawnSync(BIN, ['--config', file, '--stdio'], { input: '', encoding: 'utf8', timeout: 20000, env: { ...process.env, ...env } });
}

test('bad URLs and credentials stop the start with the key named', { skip }, () => {
  const c = sharedCluster();
  const misspelt = start(config({ url: 'postgresq://codemode@127.0.0.1/x' }));
  assert.notEqual(misspelt.status, 0);
  assert.match(misspelt.stderr, /codemode\.store\.url: expected a PostgreSQL URL/);
  const badParam = start(config({ url: `postgresql://codemode@127.0.0.1:${c.port}/codemode?sslmod=require` }));
  assert.notEqual(badParam.status, 0);
  assert.match(badParam.stderr, /codemode\.store\.url\): cannot connect \(invalid URI query parameter: "sslmod"\)/);
  const unreachable = start(config({ url: 'postgresql://codemode@127.0.0.1:1/codemode' }));
  assert.notEqual(unreachable.status, 0);
  assert.match(unreachable.stderr, /codemode\.store\.url\): cannot connect \(.*(refused|failed)/);
  const password = start(config({ url: `postgresql://codemode@127.0.0.1:${c.port}/codemode` }), { PGPASSWORD: 'wrong' });
  assert.notEqual(password.status, 0);
  assert.match(password.stderr, /password authentication failed for user "codemode"/);
  // the right one, from a ${VAR} in the URL
  const right = start(config({ url: `postgresql://codemode:\${TEST_PGPASSWORD}@127.0.0.1:${c.port}/codemode` }), { TEST_PGPASSWORD: 'secret' });
  assert.equal(right.status, 0, right.stderr);
});

test('a database written by a newer version is refused', { skip }, () => {
  const { c, db, file } = fresh();
  assert.equal(start(file).status, 0, 'creates the tables');
  c.psql("UPDATE codemode_meta SET value = 99 WHERE name = 'schema'", db);
  const r = start(file);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /written by a newer mcp-codemode \(schema version 99; this one reads versions up to 3\)/);
});

test('PostgreSQL down: StateError "storage", other programs answer, the pool reconnects, no write lost', { skip }, async () => {
  const own = (await import('./lib/pg.mjs')).startCluster(); // stopped and restarted: not the shared one
  try {
    const db = own.database('outage');
    const file = config({ url: own.url(db) });
    const h = await open(file, 'stdio');
    for (let i = 1; i <= 20; i++) assert.equal(valueOf(await h.exec(`return await state.set("k${i}", ${i})`)), 1);
    own.stop();
    const down = await h.exec('try { await state.get("k1"); return "read"; } catch (e) { return [e.name, e.code, e.message]; }');
    const v = valueOf(down);
    assert.deepEqual(v.slice(0, 2), ['StateError', 'storage']);
    assert.match(v[2], /PostgreSQL/);
    const t0 = Date.now();
    assert.equal(valueOf(await h.exec('return 6 * 7')), 42);
    assert.ok(Date.now() - t0 < 5000, 'a program without state is not held up');
    own.restart();
    let back;
    for (let i = 0; i < 100 && back === undefined; i++) {
      const r = await h.exec('let s = 0; for (let i = 1; i <= 20; i++) s += await state.get("k" + i); return s;');
      if (r.ok) back = valueOf(r);
      else await new Promise((ok) => setTimeout(ok, 100));
    }
    assert.equal(back, 210, 'every acknowledged write is there after the outage');
  } finally {
    own.stop();
  }
});

test('a row lock held by another connection does not stall the loop', { skip }, async () => {
  const { c, db, file } = fresh();
  const h = await open(file, 'stdio');
  valueOf(await h.exec('return await state.set("locked", 1)'));
  // another connection holds the row (and the scope's write lock) for 2 s
  const scope = 'stdio';
  const holder = spawn('sh', [path.join(path.dirname(BIN), '../tests/lib/pg_cluster.sh'), 'psql', c.dir,
    `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('${scope}', 7243)); SELECT 1 FROM codemode_state WHERE key='locked' FOR UPDATE; SELECT pg_sleep(2); COMMIT;`, db], { stdio: 'ignore' });
  const released = new Promise((ok) => holder.on('exit', ok));
  await new Promise((ok) => setTimeout(ok, 500));
  const writing = h.exec('return await state.set("locked", 2)');
  await new Promise((ok) => setTimeout(ok, 100));
  await assertLoopFree(h, 'the lock is held');
  assert.equal(valueOf(await writing), 2, 'the write waits for the lock, then is done');
  await released;
});

test('skills.* waiting on a locked table does not stall the loop either', { skip }, async () => {
  const { c, db, file } = fresh();
  const h = await open(file, 'stdio');
  valueOf(await h.exec('return await skills.save({ name: "one", description: "1", code: "return 1;" })'));
  // another connection holds the skills table for 2 s: reading it waits
  const holder = spawn('sh', [path.join(path.dirname(BIN), '../tests/lib/pg_cluster.sh'), 'psql', c.dir,
    'BEGIN; LOCK TABLE codemode_skills IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(2); COMMIT;', db], { stdio: 'ignore' });
  const released = new Promise((ok) => holder.on('exit', ok));
  await new Promise((ok) => setTimeout(ok, 500));
  const listing = h.exec('return (await skills.list()).map((s) => s.name)');
  await new Promise((ok) => setTimeout(ok, 100));
  await assertLoopFree(h, 'skills.list waits');
  assert.deepEqual(valueOf(await listing), ['one'], 'skills.list waits for the lock, then answers');
  await released;
});

/**
 * Runs program on h while another connection runs holderSql (which holds a
 * lock for 2 s): {ping, run, result}: the median ping and a program without
 * state answered meanwhile, and the program's own result once the lock went.
 */
async function whileLocked(h, c, db, holderSql, program) {
  const holder = spawn('sh', [path.join(path.dirname(BIN), '../tests/lib/pg_cluster.sh'), 'psql', c.dir, holderSql, db], { stdio: 'ignore' });
  const released = new Promise((ok) => holder.on('exit', ok));
  await new Promise((ok) => setTimeout(ok, 500));
  const waiting = h.exec(program);
  await new Promise((ok) => setTimeout(ok, 100));
  const ping = await pingMedian(() => h.client.ping());
  const t0 = process.hrtime.bigint();
  assert.equal(valueOf(await h.exec('return 1 + 1')), 2);
  const run = Number(process.hrtime.bigint() - t0) / 1e6;
  const result = await waiting;
  await released;
  return { ping, run, result };
}

test('skills.save and the shared stash waiting on locked rows do not stall the loop', { skip }, async () => {
  const { c, db, file } = fresh();
  const h = await open(file, 'stdio');
  valueOf(await h.exec('return await skills.save({ name: "one", description: "1", code: "return 1;" })'));
  // the skill's row is locked: replacing it waits
  const save = await whileLocked(h, c, db,
    "BEGIN; SELECT 1 FROM codemode_skills WHERE name='one' FOR UPDATE; SELECT pg_sleep(2); COMMIT;",
    'return await skills.save({ name: "one", description: "2", code: "return 2;" })');
  assert.ok(save.ping < 20, `ping answered in ${save.ping.toFixed(1)} ms (median of 5) while skills.save waits`);
  assert.ok(save.run < 200, `a program without state ran in ${save.run.toFixed(1)} ms while skills.save waits`);
  assert.deepEqual(valueOf(save.result), { name: 'one' }, 'skills.save waits for the lock, then saves');
  assert.equal(valueOf(await h.exec('return await skills.one({})')), 2);
  // the stash's table is locked: keeping a value in it waits
  const stash = await whileLocked(h, c, db,
    'BEGIN; LOCK TABLE codemode_stash IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(2); COMMIT;',
    "return await content.stash('kept while locked')");
  assert.ok(stash.ping < 20, `ping answered in ${stash.ping.toFixed(1)} ms (median of 5) while the stash waits`);
  assert.ok(stash.run < 200, `a program without state ran in ${stash.run.toFixed(1)} ms while the stash waits`);
  const [link, ...rest] = stash.result.raw.content;
  assert.equal(link.type, 'resource_link');
  assert.deepEqual(rest, [], 'no warning: the shared stash took the value once the lock went');
  assert.match(c.psql(`SELECT count(*) FROM codemode_stash WHERE uri = '${link.uri}'`, db), /\b1\b/);
  const got = await h.client.readResource({ uri: link.uri });
  assert.equal(got.contents[0].text, 'kept while locked');
});

test('a URL of several hosts, the first one down: libpq moves to another socket while connecting', { skip }, async () => {
  const c = sharedCluster();
  const db = c.database(`store_pg_${process.pid}_multi`);
  const h = await open(config({ url: `postgresql://postgres@127.0.0.1:1,127.0.0.1:${c.port}/${db}` }), 'stdio');
  assert.equal(valueOf(await h.exec('await state.set("k", 41); return (await state.get("k")) + 1')), 42);
});

test('the shared stash does not take a value: the link works through this instance, and the result says so', { skip }, async () => {
  const { c, db, file } = fresh();
  const h = await open(file, 'stdio');
  const ok = await h.exec(`return await content.stash('shared')`);
  assert.equal(ok.raw.content.length, 1, 'no warning while the shared stash works');
  c.psql('ALTER TABLE codemode_stash RENAME TO codemode_stash_gone', db);
  try {
    const r = await h.exec(`return await content.stash('here only')`);
    const [link, warning] = r.raw.content;
    assert.equal(link.type, 'resource_link');
    assert.match(warning.text, /^\[warning: a stash link of this result can be read through this server instance only, .*: .*codemode_stash.* does not exist/);
    const got = await h.client.readResource({ uri: link.uri });
    assert.equal(got.contents[0].text, 'here only');
  } finally {
    c.psql('ALTER TABLE codemode_stash_gone RENAME TO codemode_stash', db);
  }
});
