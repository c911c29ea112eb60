// Result types learned from results (issue 27 item 4) through the real
// binary: a downstream tool without an outputSchema is declared
// `Promise</* observed */ T>` once a program received a result from it
// (structuredContent, JSON text, plain text), announced with list_changed;
// no value of a result reaches the declarations; tsc --strict accepts them
// with a program using them; the state store keeps them, so the
// description is byte-identical across starts; a tool whose schema changed
// starts over; codemode.declarations.learnResultTypes false turns it off.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { assertClean, assertNoSanitizerReport, entry, eventually, runBin as run, serve, tempDir, TSC, valueOf, writeConfig } from './lib/downstream.mjs';
import { ON_POSTGRES, storeFor } from './lib/pg.mjs';

const TMP = tempDir('codemode-result-types-');

// The state store `name`: a SQLite file in TMP, or with MCP_CODEMODE_TEST_STORE=postgres
// a database of its own (codemode.store), the same for every config of that name.
const stores = {};
const stored = (name) => ({
  state: { path: path.join(TMP, `${name}.db`) },
  ...(ON_POSTGRES ? { store: (stores[name] ??= storeFor(`result_types_${name}`)) } : {}),
});

const config = (name, { learn, extra = [] } = {}) => writeConfig(TMP, {
  mcpServers: { 'my-server': entry.recorder(extra) },
  codemode: {
    ...stored(name),
    ...(learn === undefined ? {} : { declarations: { learnResultTypes: learn } }),
  },
});

const runBin = async (...a) => {
  const r = await run(...a);
  assertNoSanitizerReport(r.stderr);
  return r;
};

// What a program receives from each kind of result, and values that must never show up.
const PROGRAM = `
const j = await tools.my_server.json_text({});
const p = await tools.my_server.plain_text({});
const g = await tools.my_server.get_item({ id: "secret-id-4711" });
const c = await tools.my_server.good_output({});
return [j.s, p, g.id, c.count];
`;
const VALUES = ['secret-id-4711', 'hello, world', '"x"', 'three'];

const JSON_TEXT = /json_text\(args\?: \{\}\): Promise<\/\* observed \*\/ \{ a: \(\{ b: null \} \| number\)\[\]; s: string \}>;/;
const PLAIN_TEXT = /plain_text\(args\?: \{\}\): Promise<\/\* observed \*\/ string>;/;
const GET_ITEM = /get_item\(args: \{ id: string \}\): Promise<\/\* observed \*\/ \{ from: string; id: string \}>;/;

function declsOf(description) {
  return description.slice(description.indexOf('Tools available to the program'));
}

function assertNoValues(text) {
  for (const v of VALUES) assert.ok(!text.includes(v), `a value reached the declarations: ${v}`);
}

// learning and announcing do not depend on the store: on SQLite only (make test's PostgreSQL pass is for the store)
test('a call types its tool: announced with list_changed, no values, outputSchema kept', { skip: ON_POSTGRES && 'the same on either store: run on SQLite' }, async () => {
  const s = await serve(config('live'), { label: 'learn-live' });
  // each list_changed is followed by a list: the one that carries the learned
  // types must come after an announcement (another change, such as the
  // store's first load on a slow machine, may announce too)
  let changed = 0;
  const listed = [];
  s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed++;
    s.description().then((d) => listed.push(d), () => {});
  });
  try {
    const before = await s.description();
    assert.match(before, /json_text\(args\?: \{\}\): Promise<unknown>;/);
    assert.doesNotMatch(before, /observed/);
    assert.deepEqual(valueOf(await s.exec(PROGRAM)), ['x', 'hello, world', 'secret-id-4711', 3]);
    // all three in one list: a list that shows the first learned type only
    // is not the announcement of the others (they may be learned after it)
    const learned = (t) => JSON_TEXT.test(t) && PLAIN_TEXT.test(t) && GET_ITEM.test(t);
    const d = declsOf(await eventually(() => listed.find(learned),
      { timeout: 10000, what: 'a list_changed followed by the learned types' }));
    assert.match(d, JSON_TEXT);
    assert.match(d, PLAIN_TEXT);
    assert.match(d, GET_ITEM);
    assert.match(d, /good_output\(args\?: \{\}\): Promise<\{ count: number; label\?: string \}>;/, 'the outputSchema still types its tool');
    assert.match(d, /strict\(args: \{[^\n]*\}\): Promise<unknown>;/, 'a tool never called stays unknown');
    assertNoValues(d);
    // the same result again changes nothing: no second announcement
    const n = changed;
    valueOf(await s.exec('return await tools.my_server.json_text({})'));
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(changed, n);
  } finally {
    await s.close();
  }
  await assertClean(s);
});

test('kept in the state store: types prints them, byte-identical across starts, and tsc --strict accepts them', async () => {
  const cfg = config('kept');
  const r = await runBin(['run', '-', '--config', cfg], { input: PROGRAM });
  assert.equal(r.code, 0, r.stderr);
  // on PostgreSQL they are the instances' shared rows, never a local file
  if (ON_POSTGRES) assert.equal(fs.existsSync(path.join(TMP, 'kept.db')), false, 'learned types went to a local file');
  const [a, b] = await Promise.all([runBin(['types', '--config', cfg]), runBin(['types', '--config', cfg])]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  assert.match(a.stdout, JSON_TEXT);
  assert.match(a.stdout, GET_ITEM);
  assertNoValues(a.stdout);
  const s1 = await serve(cfg, { label: 'learn-kept-1' });
  const s2 = await serve(cfg, { label: 'learn-kept-2' });
  try {
    const d1 = await s1.description();
    assert.equal(d1, await s2.description());
    assert.match(d1, PLAIN_TEXT);
  } finally {
    await Promise.all([s1.close(), s2.close()]);
  }
  await assertClean(s1, s2);
  // tsc --strict: the whole text, and a program that relies on the observed types
  const full = await runBin(['types', '--full', '--config', cfg]);
  assert.match(full.stdout, /The result type is observed: learned from earlier results/);
  const dir = fs.mkdtempSync(path.join(TMP, 'tsc-'));
  fs.writeFileSync(path.join(dir, 'decls.d.ts'), full.stdout);
  fs.writeFileSync(path.join(dir, 'use.ts'), [
    'async function main() {',
    '  const j = await tools.my_server.json_text({});',
    '  const s: string = j.s;',
    '  const first = j.a[0];',
    '  const n: number = typeof first === "number" ? first : 0;',
    '  const text: string = await tools.my_server.plain_text({});',
    '  const item = await tools.my_server.get_item({ id: "a" });',
    '  return [s, n, text, item.from.length];',
    '}',
    'export { main };',
    '',
  ].join('\n'));
  fs.writeFileSync(path.join(dir, 'bad.ts'), 'async function bad() {\n  const j = await tools.my_server.json_text({});\n  const n: number = j.s;\n  return n;\n}\nexport { bad };\n');
  const tsconfig = (files) => JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', lib: ['es2022'], types: [] }, files });
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), tsconfig(['decls.d.ts', 'use.ts']));
  const ok = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8', timeout: 120000 });
  assert.equal(ok.status, 0, `tsc --strict rejected the observed types:\n${ok.stdout}${ok.stderr}`);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), tsconfig(['decls.d.ts', 'bad.ts']));
  const bad = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8', timeout: 120000 });
  assert.match(`${bad.stdout}`, /bad\.ts\(3,9\): error TS2322/, 'the observed type is a real type, not any');
});

test('a tool whose schema changed starts over', async () => {
  const cfg = config('changed');
  assert.equal((await runBin(['run', '-', '--config', cfg], { input: PROGRAM })).code, 0);
  // the same database, the server now lists json-text with another inputSchema
  const changedCfg = writeConfig(TMP, {
    mcpServers: { 'my-server': entry.recorder(['--json-text-arg']) },
    codemode: { ...stored('changed') },
  });
  const t = await runBin(['types', '--config', changedCfg]);
  assert.match(t.stdout, /json_text\(args\?: \{ verbose\?: boolean \}\): Promise<unknown>;/);
  assert.match(t.stdout, PLAIN_TEXT, 'the other tools keep theirs');
  // a call learns the new one
  assert.equal((await runBin(['run', '-', '--config', changedCfg], { input: 'return await tools.my_server.json_text({})' })).code, 0);
  const again = await runBin(['types', '--config', changedCfg]);
  assert.match(again.stdout, /json_text\(args\?: \{ verbose\?: boolean \}\): Promise<\/\* observed \*\/ \{ a: /);
});

test('codemode.declarations.learnResultTypes false: nothing learned, nothing declared', async () => {
  const off = config('off', { learn: false });
  assert.equal((await runBin(['run', '-', '--config', off], { input: PROGRAM })).code, 0);
  const t = await runBin(['types', '--config', off]);
  assert.match(t.stdout, /json_text\(args\?: \{\}\): Promise<unknown>;/);
  assert.doesNotMatch(t.stdout, /observed/);
  // learning on over the same database: it holds nothing
  const on = writeConfig(TMP, { mcpServers: { 'my-server': entry.recorder() }, codemode: { ...stored('off') } });
  assert.doesNotMatch((await runBin(['types', '--config', on])).stdout, /observed/);
  // and a database that learned is not read when it is off
  const kept = config('off-kept');
  assert.equal((await runBin(['run', '-', '--config', kept], { input: PROGRAM })).code, 0);
  const keptOff = writeConfig(TMP, {
    mcpServers: { 'my-server': entry.recorder() },
    codemode: { ...stored('off-kept'), declarations: { learnResultTypes: false } },
  });
  assert.doesNotMatch((await runBin(['types', '--config', keptOff])).stdout, /observed/);
  assert.match((await runBin(['types', '--config', kept])).stdout, /observed/);
});
