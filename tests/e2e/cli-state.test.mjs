// The `state` subcommand and `run --principal` (docs/config.md, The state
// command): the keys a stdio client's programs stored are listed (with
// versions and sizes), read, written and deleted from the command line in
// that principal's scope, or the server's; `run --principal P` runs a
// program as P (its state, the owner of the skills it saves); writes meet
// the checks, value cap, quota and compare-and-set of state.set in a
// program; a missing database, an unknown key and bad JSON are clear errors.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { assertNoSanitizerReport, runBin as run, tempDir, valueOf } from './lib/downstream.mjs';
import { stateConfig, trackedConnect } from './lib/state.mjs';

const runBin = async (...a) => {
  const r = await run(...a);
  assertNoSanitizerReport(r.stderr);
  return r;
};
const dir = tempDir('codemode-cli-state-');
const open = trackedConnect();
const state = (file, ...args) => runBin(['state', ...args, '--config', file]);

test('state list/get/set/delete in the scope of the stdio client, a missing database, an unknown key, bad JSON', async () => {
  const { file, db } = stateConfig(dir, { db: 'stdio.db' });
  const missing = await state(file, 'list', '--principal', 'stdio');
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, new RegExp(`no state database at ${db} \\(codemode\\.state\\.path\\)`));
  assert.equal(fs.existsSync(db), false, 'looking does not create the database');

  const h = await open(file, 'stdio');
  valueOf(await h.exec('await state.set("user:1", { name: "Ada" }); await state.set("user:1", { name: "Ada", n: 2 }); await state.set("count", 7);'));
  const list = await state(file, 'list', '--principal', 'stdio');
  assert.equal(list.code, 0, list.stderr);
  assert.equal(list.stdout, '       1          1  count\n       2         20  user:1\n');
  const json = await state(file, 'list', 'user:', '--principal', 'stdio', '--json');
  assert.deepEqual(JSON.parse(json.stdout), [{ key: 'user:1', version: 2, bytes: 20 }]);
  const get = await state(file, 'get', 'user:1', '--principal', 'stdio');
  assert.equal(get.code, 0, get.stderr);
  assert.deepEqual(JSON.parse(get.stdout), { name: 'Ada', n: 2 });
  assert.deepEqual(JSON.parse((await state(file, 'get', 'user:1', '--principal', 'stdio', '--json')).stdout),
    { key: 'user:1', version: 2, value: { name: 'Ada', n: 2 } });

  const set = await state(file, 'set', 'count', '8', '--principal', 'stdio');
  assert.equal(set.code, 0, set.stderr);
  assert.equal(set.stdout, 'version 2\n');
  assert.deepEqual(valueOf(await h.exec('return await state.entry("count")')), { value: 8, version: 2 }, 'the client sees the write');
  const stdin = await runBin(['state', 'set', 'note', '-', '--principal', 'stdio', '--config', file, '--json'], { input: '"from stdin"' });
  assert.deepEqual(JSON.parse(stdin.stdout), { key: 'note', version: 1 });
  assert.equal(valueOf(await h.exec('return await state.get("note")')), 'from stdin');

  const unknown = await state(file, 'get', 'nope', '--principal', 'stdio');
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no key "nope" in the state of principal "stdio"/);
  const bad = await state(file, 'set', 'count', '{not json', '--principal', 'stdio');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /not valid JSON/);
  const del = await state(file, 'delete', 'note', '--principal', 'stdio');
  assert.equal(del.code, 0, del.stderr);
  assert.equal((await state(file, 'delete', 'note', '--principal', 'stdio')).code, 1);
  assert.equal(valueOf(await h.exec('return await state.get("note") === undefined')), true);
  // the default scope is run's ("cli"), which has no keys here
  const cli = await state(file, 'list');
  assert.equal(cli.code, 0);
  assert.equal(cli.stdout, '');
  assert.match(cli.stderr, /no keys in the state of principal "cli"/);
  const usage = await state(file, 'frob');
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /state: expected list/);
});

test('state set: the value cap, the quota and --if-version, as state.set in a program', async () => {
  const { file } = stateConfig(dir, { db: 'limits.db', state: { maxValueBytes: 16, maxTotalBytes: 1024 } });
  const big = await state(file, 'set', 'k', JSON.stringify('x'.repeat(20)));
  assert.equal(big.code, 1);
  assert.match(big.stderr, /state value of "k" is 22 bytes of JSON, over the limit of 16 \(codemode\.state\.maxValueBytes\)/);
  for (let i = 0; i < 60; i++) {
    const r = await state(file, 'set', `key${String(i).padStart(2, '0')}`, '"0123456789abcd"');
    if (r.code !== 0) {
      assert.match(r.stderr, /state quota exceeded/);
      assert.ok(i > 30, `refused at ${i}`);
      break;
    }
    assert.ok(i < 59, 'the quota was never met');
  }
  assert.equal((await state(file, 'set', 'cas', '1', '--if-version', '0')).code, 0);
  const conflict = await state(file, 'set', 'cas', '2', '--if-version', '0');
  assert.equal(conflict.code, 1);
  assert.match(conflict.stderr, /already exists \(version 1\); ifVersion 0 means it must not/);
  assert.equal((await state(file, 'set', 'cas', '2', '--if-version', '1')).stdout, 'version 2\n');
  assert.equal((await state(file, 'set', 'cas', '2', '--if-version', 'x')).code, 2);
});

test('run --principal P: the program sees and writes P\'s state and owns the skills it saves; --scope server', async () => {
  const { file } = stateConfig(dir, { db: 'principal.db' });
  assert.equal((await state(file, 'set', 'greeting', '"hello alice"', '--principal', 'alice')).code, 0);
  const r = await runBin(['run', '-', '--principal', 'alice', '--config', file, '--json'],
    { input: 'await state.set("seen", true); await skills.save({ name: "mine", description: "d", code: "return 1" }); return await state.get("greeting")' });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).result, 'hello alice');
  assert.deepEqual(JSON.parse((await state(file, 'list', '--principal', 'alice', '--json')).stdout).map((e) => e.key), ['greeting', 'seen']);
  const skills = JSON.parse((await runBin(['skills', 'list', '--config', file])).stdout);
  assert.deepEqual(skills.map((s) => [s.owner, s.name]), [['alice', 'mine']]);
  const other = await runBin(['run', '-', '--config', file], { input: 'return [await state.get("greeting") === undefined, typeof skills.mine]' });
  assert.deepEqual(JSON.parse(other.stdout), [true, 'undefined'], 'run without --principal is "cli"');
  const bad = await runBin(['run', '-', '--principal', '', '--config', file], { input: 'return 1' });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--principal takes a principal's name/);
  // the server's scope
  const shared = stateConfig(dir, { db: 'server.db', state: { scope: 'server' } });
  assert.equal((await runBin(['run', '-', '--config', shared.file], { input: 'return await state.set("shared", 1)' })).code, 0);
  assert.equal((await state(shared.file, 'list', '--json')).stdout, '[{"key":"shared","version":1,"bytes":1}]\n', 'scope "server": the default is the server\'s keys');
  assert.equal((await state(shared.file, 'get', 'shared', '--scope', 'server')).stdout, '1\n');
  const both = await state(shared.file, 'list', '--scope', 'server', '--principal', 'x');
  assert.equal(both.code, 2);
});

