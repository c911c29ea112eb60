// The built-in `state` namespace (docs/javascript.md, State) over stdio and
// Streamable HTTP with the official SDK client: values survive a restart of
// the server; two concurrent executions doing compare-and-set increments lose
// nothing (1,000 in total); quota errors; a corrupt and a read-only database
// give StateError and the server stays up; scope "principal" keeps HTTP
// sessions apart and "server" shares; state off is absent from programs and
// from the declarations.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { HttpServer } from './lib/http.mjs';
import { tempDir, valueOf } from './lib/downstream.mjs';
import { ON_POSTGRES, readOnly, secondClient, STATE_TRANSPORTS, stateConfig, trackedConnect } from './lib/state.mjs';

const dir = tempDir('codemode-state-');
const open = trackedConnect();

const INCREMENTS = `
let done = 0, conflicts = 0;
while (done < 500) {
  const e = await state.entry("counter");
  try {
    if (e === undefined) await state.set("counter", 1, { ifVersion: 0 });
    else await state.set("counter", e.value + 1, { ifVersion: e.version });
    done++;
  } catch (err) {
    if (!(err instanceof StateConflictError)) throw err;
    conflicts++;
  }
}
return conflicts;`;

for (const transport of STATE_TRANSPORTS) {
  describe(`state over ${transport}`, () => {
    test('get, entry, set, delete, list with versions', async () => {
      const { file } = stateConfig(dir, { db: `basic-${transport}.db` });
      const h = await open(file, transport);
      const v = valueOf(await h.exec(`
        const v1 = await state.set("user:1", { name: "Ada" });
        const v2 = await state.set("user:1", { name: "Ada", n: 2 });
        await state.set("user:2", [1, 2]);
        await state.set("other", "x");
        return { v1, v2, get: await state.get("user:1"), entry: await state.entry("user:2"),
                 missing: (await state.get("nope")) === undefined, noEntry: (await state.entry("nope")) === undefined,
                 keys: await state.list("user:"), all: await state.list(),
                 deleted: await state.delete("other"), again: await state.delete("other") };`));
      assert.deepEqual(v, { v1: 1, v2: 2, get: { name: 'Ada', n: 2 }, entry: { value: [1, 2], version: 1 },
        missing: true, noEntry: true, keys: ['user:1', 'user:2'], all: ['other', 'user:1', 'user:2'],
        deleted: true, again: false });
      const conflict = valueOf(await h.exec(`
        try { await state.set("user:1", 0, { ifVersion: 1 }); return "no error"; }
        catch (e) { return [e.name, e instanceof StateConflictError, e instanceof StateError, e.code, e.message]; }`));
      assert.deepEqual(conflict.slice(0, 4), ['StateConflictError', true, true, 'conflict']);
      assert.match(conflict[4], /version 2, not 1/);
    });

    test('state survives a restart of the server', async () => {
      const { file } = stateConfig(dir, { db: `restart-${transport}.db` });
      const first = await open(file, transport);
      valueOf(await first.exec('return await state.set("kept", { at: "first run" })'));
      await first.close();
      const second = await open(file, transport);
      const v = valueOf(await second.exec('return await state.entry("kept")'));
      if (transport === 'stdio') assert.deepEqual(v, { value: { at: 'first run' }, version: 1 });
      else assert.equal(v, undefined, 'an HTTP session is its own principal: a new session starts empty');
      if (transport !== 'stdio') {
        const { file: shared } = stateConfig(dir, { db: `restart-shared-${transport}.db`, state: { scope: 'server' } });
        const a = await open(shared, transport);
        valueOf(await a.exec('return await state.set("kept", 1)'));
        await a.close();
        const b = await open(shared, transport);
        assert.deepEqual(valueOf(await b.exec('return await state.entry("kept")')), { value: 1, version: 1 });
      }
    });

    test('two concurrent executions: 1,000 compare-and-set increments, none lost', async () => {
      // each run makes over 1,000 state calls, and every one counts against maxToolCalls
      const { file } = stateConfig(dir, { db: `cas-${transport}.db`, maxToolCalls: 100000 });
      const h = await open(file, transport);
      const [a, b] = await Promise.all([h.exec(INCREMENTS, { timeoutMs: 120000 }), h.exec(INCREMENTS, { timeoutMs: 120000 })]);
      valueOf(a);
      valueOf(b);
      assert.deepEqual(valueOf(await h.exec('return await state.entry("counter")')), { value: 1000, version: 1000 });
    });

    test('grants cover the built-ins: allow [] and maxToolCalls 0 change nothing; every call counts', async () => {
      const { file } = stateConfig(dir, { db: `grant-${transport}.db` });
      const h = await open(file, transport);
      const run = async (code, extra) => {
        const raw = await h.client.callTool({ name: 'execute_code', arguments: { code, ...extra } });
        return { ok: raw.isError !== true, value: raw.structuredContent?.result, text: raw.content?.[0]?.text };
      };
      valueOf(await h.exec(`await state.set("k", "original");
        return await skills.save({ name: "kept", description: "Kept.", code: "return 1" })`));
      const ATTEMPTS = `
        const out = [];
        for (const f of [() => state.set("k", "changed"), () => state.delete("k"),
                         () => skills.save({ name: "planted", description: "d", code: "return 2" }),
                         () => skills.delete("kept"), () => content.stash("x")]) {
          try { await f(); out.push("done"); } catch (e) { out.push([e.name, e.decision ?? null]); }
        }
        return out;`;
      const notGranted = ['ToolPolicyError', 'not_granted'];
      assert.deepEqual(valueOf(await run(ATTEMPTS, { allow: [] })), Array(5).fill(notGranted));
      assert.deepEqual(valueOf(await run(ATTEMPTS, { allow: ['crm.*'] })), Array(5).fill(notGranted));
      const zero = valueOf(await run(ATTEMPTS, { maxToolCalls: 0 }));
      assert.deepEqual(zero, Array(5).fill(['Error', null]));
      const msg = await run('try { await state.set("k", 1); } catch (e) { return e.message; }', { maxToolCalls: 0 });
      assert.equal(valueOf(msg), 'tool calls are not allowed in this execution (maxToolCalls is 0)');
      // nothing changed: the value, the saved skill, no planted skill
      assert.deepEqual(valueOf(await h.exec(`return [await state.get("k"), (await skills.list()).map((s) => s.name)]`)),
        ['original', ['kept']]);
      // a grant names the built-ins like tools; reads are granted separately from writes
      const granted = await run(`await state.set("k", "granted"); try { await skills.delete("kept"); } catch (e) { return [await state.get("k"), e.decision]; }`,
        { allow: ['state.*'] });
      assert.deepEqual(valueOf(granted), ['granted', 'not_granted']);
      // every built-in call counts: the third of these fails under maxToolCalls 2
      const capped = await run(`const out = [];
        for (let i = 0; i < 4; i++) { try { await state.set("n" + i, i); out.push(i); } catch (e) { out.push(e.message); } }
        return out;`, { maxToolCalls: 2 });
      assert.deepEqual(valueOf(capped), [0, 1, 'tool call limit reached: at most 2 calls per execution',
        'tool call limit reached: at most 2 calls per execution']);
      assert.deepEqual(valueOf(await h.exec('return [await state.get("n1"), await state.get("n2")]')), [1, null]);
      // searchTools and describeTool stay free under maxToolCalls 0
      assert.equal(valueOf(await run('await searchTools("x"); await describeTool("skills.kept"); return 6 * 7', { maxToolCalls: 0 })), 42);
    });

    test('quotas: a value exactly at maxValueBytes and a scope exactly at maxTotalBytes are kept, one byte more is not', async () => {
      const { file } = stateConfig(dir, { db: `quota-edge-${transport}.db`, state: { maxValueBytes: 400, maxTotalBytes: 1024 } });
      const h = await open(file, transport);
      const v = valueOf(await h.exec(`
        const out = {};
        out.at = await state.set("a", "x".repeat(398));         // "..." is 400 bytes of JSON
        try { await state.set("b", "x".repeat(399)); } catch (e) { out.past = [e.name, e.code]; }
        out.fill = await state.set("c", "y".repeat(398));       // 401 + 401 bytes (key + value) so far
        out.total = await state.set("d", "z".repeat(219));      // + 222: exactly 1024
        try { await state.set("e", 1); } catch (e) { out.over = [e.name, e.code]; }
        out.keys = await state.list();
        return out;`));
      assert.equal(v.at, 1);
      assert.deepEqual(v.past, ['StateError', 'quota']);
      assert.equal(v.total, 1, 'a scope of exactly maxTotalBytes is allowed');
      assert.deepEqual(v.over, ['StateError', 'quota']);
      assert.deepEqual(v.keys, ['a', 'c', 'd']);
    });

    test('quotas: maxValueBytes and maxTotalBytes give StateError code "quota"', async () => {
      const { file } = stateConfig(dir, { db: `quota-${transport}.db`, state: { maxValueBytes: 100, maxTotalBytes: 1024 } });
      const h = await open(file, transport);
      const v = valueOf(await h.exec(`
        const out = {};
        try { await state.set("big", "x".repeat(200)); } catch (e) { out.value = [e.name, e.code, e.message]; }
        let n = 0;
        try { for (; n < 100; n++) await state.set("k" + n, "y".repeat(80)); } catch (e) { out.total = [e.name, e.code, e.message, n]; }
        out.kept = (await state.list("k")).length;
        out.big = await state.get("big");
        return out;`));
      assert.deepEqual(v.value.slice(0, 2), ['StateError', 'quota']);
      assert.match(v.value[2], /maxValueBytes/);
      assert.deepEqual(v.total.slice(0, 2), ['StateError', 'quota']);
      assert.match(v.total[2], /maxTotalBytes/);
      assert.equal(v.kept, v.total[3], 'every set before the failing one is kept, the failing one is not');
      assert.equal(v.big, undefined);
    });

    test('a corrupt database: StateError, the server stays up, and recovers once the file is fixed', { skip: ON_POSTGRES && 'the SQLite file' }, async () => {
      const { file, db } = stateConfig(dir, { db: `corrupt-${transport}.db` });
      fs.writeFileSync(db, 'this is not an SQLite database '.repeat(100));
      const h = await open(file, transport);
      const r = await h.exec('return await state.get("k")');
      assert.equal(r.ok, false);
      assert.equal(r.error.name, 'StateError');
      assert.match(r.error.message, /corrupt or not a state database/);
      assert.equal(valueOf(await h.exec('return 1 + 1')), 2);
      fs.rmSync(db);
      assert.equal(valueOf(await h.exec('return await state.set("k", 1)')), 1);
    });

    test('a read-only database: StateError, nothing half-written, the server stays up', { skip: ON_POSTGRES && 'the SQLite file' }, async () => {
      const { file, db } = stateConfig(dir, { db: `ro-${transport}.db` });
      const first = await open(file, transport);
      valueOf(await first.exec('return await state.set("k", "before")'));
      await first.close(); // the last connection merges and removes the WAL
      readOnly(db, true);
      try {
        const h = await open(file, transport);
        const r = await h.exec('try { await state.set("k", "after"); return "written"; } catch (e) { return [e.name, e.code, e.message]; }');
        const v = valueOf(r);
        assert.deepEqual(v.slice(0, 2), ['StateError', 'storage']);
        assert.match(v[2], /read-only|cannot be opened|readonly/);
        assert.equal(valueOf(await h.exec('return 40 + 2')), 42);
      } finally {
        readOnly(db, false);
      }
    });
  });
}

test('scope "principal": two HTTP sessions do not see each other; scope "server": they share', async () => {
  // an instanceId as long as the 8 characters the scope was once cut to: every session id begins alike
  for (const [scope, http] of [['principal'], ['server'], ['principal', { instanceId: 'instance1' }], ['principal', { instanceId: 'abc' }]]) {
    const label = `${scope}${http ? `-${http.instanceId}` : ''}`;
    const { file } = stateConfig(dir, { db: `scope-${label}.db`, state: { scope }, http });
    const h = await open(file, 'streamable-http');
    const others = [await secondClient(h), await secondClient(h)];
    try {
      valueOf(await h.exec('return await state.set("mine", "a")'));
      for (const other of others) {
        const seen = valueOf(await other.exec('return (await state.list()).length'));
        assert.equal(seen, scope === 'server' ? 1 : 0, `scope ${label}`);
      }
      assert.deepEqual(valueOf(await h.exec('return await state.list()')), ['mine'], label);
    } finally {
      for (const other of others) await other.close();
    }
  }
});

test('HTTP with a bearer token: the token is the principal, across sessions and restarts', async () => {
  const { file } = stateConfig(dir, { db: 'token.db' });
  const args = ['--config', file, '--auth-token', 'sekret'];
  const first = await HttpServer.start(args, { label: 'state token 1' });
  const a = await secondClient(first, 'sekret');
  valueOf(await a.exec('return await state.set("mine", "kept")'));
  const b = await secondClient(first, 'sekret'); // another session, the same token
  assert.equal(valueOf(await b.exec('return await state.get("mine")')), 'kept');
  await a.close();
  await b.close();
  assert.equal((await first.stop()).code, 0);
  const second = await HttpServer.start(args, { label: 'state token 2' });
  const c = await secondClient(second, 'sekret');
  assert.equal(valueOf(await c.exec('return await state.get("mine")')), 'kept');
  await c.close();
  assert.equal((await second.stop()).code, 0);
});

test('state off: typeof state is "undefined" and the declarations do not mention it', async () => {
  const { file } = stateConfig(dir, { state: false, skills: false });
  const h = await open(file, 'stdio');
  assert.equal(valueOf(await h.exec('return [typeof state, typeof skills]')).join(), 'undefined,undefined');
  const description = (await h.client.listTools()).tools[0].description;
  assert.doesNotMatch(description, /declare const state/);
  assert.doesNotMatch(description, /declare const skills/);
  const { file: on } = stateConfig(dir, { db: 'on.db' });
  const h2 = await open(on, 'stdio');
  const d2 = (await h2.client.listTools()).tools[0].description;
  assert.match(d2, /declare const state: \{/);
  assert.match(d2, /declare class StateConflictError extends StateError/);
  assert.equal(fs.existsSync(`${dir}/on.db`), false, 'nothing is created before a program uses state');
});

auditSchemas({ minMessages: 20 });
