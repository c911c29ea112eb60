// End-to-end checks of the TypeScript declarations generator (tools/declarations/):
// the real tool lists of the pinned reference servers and our nasty fixture
// schemas go through the C generator (build/tests/decl_dump), and the pinned
// TypeScript compiler must accept every output under --strict. Usage files
// prove the types are real: a correct call type-checks, a wrong one does not.
//
//   cd tests && npm ci && cd ..
//   node --test tests/e2e/declarations.test.mjs      (builds build/tests/decl_dump if missing)
//   UPDATE_FIXTURES=1 node --test tests/e2e/declarations.test.mjs   (re-saves the tool lists)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD = process.env.MCP_CODEMODE_BIN ? path.dirname(process.env.MCP_CODEMODE_BIN) : path.join(ROOT, 'build');
const DUMP = path.join(BUILD, 'tests', 'decl_dump');
const TSC = path.join(ROOT, 'tests', 'node_modules', 'typescript', 'bin', 'tsc');
const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'declarations');
const MODULES = path.join(ROOT, 'tests', 'node_modules', '@modelcontextprotocol');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-decls-'));

// The reference servers, named as a user's config would name them.
const SERVERS = {
  'server-everything': () => ({ args: [path.join(MODULES, 'server-everything/dist/index.js'), 'stdio'] }),
  'server-filesystem': (dir) => ({ args: [path.join(MODULES, 'server-filesystem/dist/index.js'), dir] }),
  'server-memory': (dir) => ({
    args: [path.join(MODULES, 'server-memory/dist/index.js')],
    env: { ...process.env, MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
  }),
};

// server-everything registers more tools after initialize when the client
// offers roots, sampling and elicitation, and sends list_changed for each:
// offer them all, and list only once the notifications have gone quiet.
async function fetchTools(server) {
  const dir = fs.mkdtempSync(path.join(TMP, 'root-'));
  const { args, env } = SERVERS[server](dir);
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'codemode-decls-test', version: '1.0.0' }, {
    capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } },
  });
  let last = Date.now();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => { last = Date.now(); });
  await client.connect(transport);
  const start = Date.now();
  while (Date.now() - last < 300 && Date.now() - start < 3000) await new Promise((r) => setTimeout(r, 50));
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((t) => {
    const e = { server, name: t.name };
    for (const k of ['title', 'description', 'inputSchema', 'outputSchema']) if (t[k] !== undefined) e[k] = t[k];
    return e;
  });
}

// decl_dump is a test-only build product: build it when it is missing.
function ensureDump() {
  if (fs.existsSync(DUMP)) return;
  const target = path.relative(ROOT, DUMP);
  const r = spawnSync('make', ['-s', target, ...(BUILD.endsWith('build-san') ? ['SANITIZE=1'] : [])],
    { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `make ${target} failed:\n${r.stdout}${r.stderr}`);
}

function dump(list, ...args) {
  ensureDump();
  const r = spawnSync(DUMP, args, { input: JSON.stringify(list), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `decl_dump ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

// Runs tsc --strict over the given files (name -> text) as one program.
function tsc(files, name) {
  const dir = fs.mkdtempSync(path.join(TMP, `${name}-`));
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', lib: ['es2022'], types: [] },
    files: Object.keys(files),
  }));
  const r = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8', timeout: 120000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

function assertCompiles(files, name) {
  const r = tsc(files, name);
  assert.equal(r.status, 0, `tsc --strict rejected ${name}:\n${r.output}`);
}

// Every line must fail to type-check, each on its own: one file per line, one
// tsc run for all. `code` (optional) is the error each line must give.
function assertEachRejected(decls, cases, name) {
  const files = { 'decls.d.ts': decls };
  cases.forEach(([line], i) => { files[`bad${i}.ts`] = `async function bad${i}() {\n  ${line}\n}\n`; });
  const r = tsc(files, name);
  assert.notEqual(r.status, 0, `tsc accepted all of ${name}`);
  cases.forEach(([line, code], i) => {
    const want = new RegExp(`bad${i}\\.ts\\(2,\\d+\\): error ${code ?? 'TS\\d+'}`);
    assert.match(r.output, want, `tsc accepted, or gave another error for: ${line}\n${r.output}`);
  });
  const lines = r.output.split('\n').filter((l) => /error TS/.test(l));
  for (const l of lines) assert.match(l, /bad\d+\.ts\(2,/, `unexpected error: ${l}`);
}

function readFixture(file) {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8'));
}

// Each output as its own module, so that many `declare const tools` can share one program.
const asModule = (text) => `${text}export {};\n`;

const lists = {};

test('reference servers: the live tool lists match the saved fixtures', async () => {
  for (const server of Object.keys(SERVERS)) {
    const list = await fetchTools(server);
    assert.ok(list.length > 0, `${server} listed no tools`);
    lists[server] = list;
    const file = path.join(FIXTURES, `${server}.tools.json`);
    if (process.env.UPDATE_FIXTURES) fs.writeFileSync(file, `${JSON.stringify(list, null, 1)}\n`);
    assert.deepEqual(list, readFixture(`${server}.tools.json`),
      `${server}'s tools changed: re-run with UPDATE_FIXTURES=1 and review the diff`);
  }
  assert.equal(lists['server-everything'].length, 17, 'server-everything: 12 tools plus 5 conditional ones');
});

test('reference servers: declarations compile under tsc --strict, alone and together', () => {
  const all = [];
  for (const server of Object.keys(SERVERS)) {
    const list = lists[server] ?? readFixture(`${server}.tools.json`);
    all.push(...list);
    assertCompiles({ 'decls.d.ts': dump(list) }, server);
  }
  const full = dump(all);
  assertCompiles({ 'decls.d.ts': full }, 'all-servers');
  assert.match(full, /^ {2}server_memory: \{$/m);
  // the entity shape memory repeats (arguments and results of four tools) is written once
  assert.match(full, /^ {4}create_entities\(args: \{ entities: Types\.Entity\[\] \}\): Promise<\{ entities: Types\.Entity\[\] \}>;$/m);
  assert.equal(full.match(/^ {2}type Entity = \{$/gm).length, 1);
  assert.match(full, /get_sum\(args: \{ \/\*\* First number \*\/ a: number; \/\*\* Second number \*\/ b: number \}\): Promise<unknown>;/);
  assert.ok(Buffer.byteLength(full) < 32 * 1024, `full declarations of the three servers: ${Buffer.byteLength(full)} bytes`);
});

const USE_OK = `
async function main(): Promise<string> {
  const r = await tools.server_memory.create_entities({
    entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
  });
  const first: string = r.entities[0].name;
  const graph = await tools.server_memory.read_graph();
  const rel: string = graph.relations.map((x) => x.from + x.relationType + x.to).join();
  const text = await tools.server_filesystem.read_text_file({ path: "/tmp/x", head: 3 });
  const weather = await tools.server_everything.get_structured_content({ location: "Chicago" });
  const t: number = weather.temperature;
  const sum: unknown = await tools.server_everything.get_sum({ a: 1, b: 2 });
  await tools.server_everything.get_env();
  try {
    await callTool("server-memory.read_graph", {});
  } catch (e) {
    if (e instanceof ToolError) console.error(e.tool, e.result);
    if (e instanceof ToolArgumentError) console.warn(e.tool, e.message);
  }
  const found = await searchTools("entities");
  console.log(found.map((f) => f.name + ": " + f.summary), await describeTool(found[0].name));
  const h = setTimeout(() => console.debug("tick"), 10);
  clearTimeout(h);
  await sleep(1);
  console.info(t, sum, rel);
  return first + text.content;
}
main();
`;

// Each entry: a call that must fail to type-check, and the error it must give.
const USE_BAD = [
  ['await tools.server_memory.create_entities({ entities: [{ name: 1, entityType: "p", observations: [] }] });', 'TS2322'],
  ['await tools.server_memory.create_entities({ entities: [{ name: "a", entityType: "p" }] });', 'TS2741'],
  ['await tools.server_memory.create_entities();', 'TS2554'],
  ['await tools.server_everything.get_structured_content({ location: "Paris" });', 'TS2322'],
  ['await tools.server_filesystem.read_text_file({ path: "/x", head: "3" });', 'TS2322'],
  ['await tools.server_memory.no_such_tool({});', 'TS2339'],
  ['const n: number = (await tools.server_memory.read_graph()).entities[0].name;', 'TS2322'],
];

test('declarations are usable: correct calls type-check, wrong ones do not', () => {
  const all = Object.keys(SERVERS).flatMap((s) => lists[s] ?? readFixture(`${s}.tools.json`));
  const decls = dump(all);
  assertCompiles({ 'decls.d.ts': decls, 'use.ts': USE_OK }, 'usage-ok');
  assertEachRejected(decls, USE_BAD, 'usage-bad');
});

test('nasty schemas: full, per-server, per-tool and index outputs all compile', () => {
  const nasty = readFixture('nasty.tools.json');
  const full = dump(nasty);
  assertCompiles({ 'nasty.d.ts': full }, 'nasty-full');
  assertCompiles({ 'index.d.ts': dump(nasty, '--index') }, 'nasty-index');
  const names = dump(nasty, '--names').trim().split('\n').map((l) => l.split('\t'));
  const files = {};
  for (const sid of new Set(names.map((n) => n[1]))) files[`server_${sid}.ts`] = asModule(dump(nasty, '--server', sid));
  names.forEach(([, sid, , id], i) => { files[`tool_${i}.ts`] = asModule(dump(nasty, '--tool', `${sid}.${id}`)); });
  assertCompiles(files, 'nasty-parts');
  // determinism: the same input in another order gives the same bytes
  assert.equal(dump([...nasty].reverse()), full);
  // comments never close early, whatever the text says
  for (const m of full.matchAll(/\/\*\*([\s\S]*?)\*\//g)) assert.ok(!m[1].includes('*/'));
  assert.ok(!full.includes('\u2028'));
});

const NASTY_OK = `
async function ok() {
  await tools.nasty.tree({ name: "root", children: [{ name: "leaf" }, { name: "x", children: [] }] });
  const out = await tools.nasty.tree({ name: "r" });
  out.root?.kids?.[0]?.kids;
  await tools.nasty.root_recursion({ value: 1, next: { value: 2, next: { value: 3 } } });
  await tools.nasty.mutual({ a: { b: { a: { b: { leaf: true } } } } });
  await tools.nasty.json_value({ value: { a: [1, "two", null, { b: false }] } });
  await tools.nasty.shapes({ shape: { kind: "circle", r: 1 }, both: { x: 1, y: "y" }, either: { a: "a" } });
  await tools.nasty.tuples({ point: [1, 2], labelled: ["a", 1, true, false], old: ["s", -1, 5, 6], none: [] });
  await tools.nasty.keywords({ if: "x", "x-y": 1, "": "e", "missing-from-properties": 0, "a.b": 2, class: "c" });
  await tools.nasty.nullable({ a: null, b: "b", c: null, d: null, e: "x" });
  await tools.nasty.enums({ mixed: { x: 1, y: [1, "2"] }, one: "only", num: 3 });
  await tools.nasty.extras({ map: { k: 1 }, patterns: { "x-a": "s" }, closed: { a: "a" }, free: { any: [1] } });
  await tools.nasty.get_weather_5();
  await tools.nasty.then_();
  await tools._9lives.x();
  await tools.delete_.x({});
  await tools.my_server_2.ping();
}
`;

const NASTY_BAD = [
  'await tools.nasty.tree({ name: "root", children: [{ nam: "leaf" }] });',
  'await tools.nasty.shapes({ shape: { kind: "rect", r: 1 } });',
  'await tools.nasty.tuples({ point: [1, "2"] });',
  'await tools.nasty.tuples({ point: [1, 2, 3] });',
  'await tools.nasty.enums({ num: 4 });',
  'await tools.nasty.nullable({ a: 1 });',
  'await tools.nasty.keywords({ "x-y": 1, "": "e", "missing-from-properties": 0 });',
  'await tools.nasty.extras({ map: { k: "one" } });',
  'await tools.nasty.extras({ closed: { a: "a", b: 1 } });',
  'await tools.nasty.mutual({ a: { b: { a: { b: { leaf: "yes" } } } } });',
];

test('nasty schemas: the types say what the schemas say', () => {
  const decls = dump(readFixture('nasty.tools.json'));
  assertCompiles({ 'nasty.d.ts': decls, 'ok.ts': NASTY_OK }, 'nasty-ok');
  assertEachRejected(decls, NASTY_BAD.map((line) => [line]), 'nasty-bad');
});

// Every schema of the vendored JSON Schema Test Suite (draft-07 and 2020-12),
// as an inputSchema and an outputSchema: remote refs, $dynamicRef, anchors,
// unevaluated*, boolean schemas... the output must stay valid TypeScript.
test('JSON Schema Test Suite: declarations of every schema compile', () => {
  const base = path.join(ROOT, 'tests', 'data', 'json-schema-test-suite');
  const list = [];
  for (const draft of ['draft7', 'draft2020-12']) {
    for (const f of fs.readdirSync(path.join(base, draft)).filter((n) => n.endsWith('.json')).sort()) {
      const groups = JSON.parse(fs.readFileSync(path.join(base, draft, f), 'utf8'));
      groups.forEach((g, i) => list.push({
        server: draft, name: `${f.replace(/\.json$/, '')}-${i}`, description: g.description,
        inputSchema: g.schema, outputSchema: g.schema,
      }));
    }
  }
  assert.ok(list.length > 600, `only ${list.length} schemas found`);
  assertCompiles({ 'suite.d.ts': dump(list) }, 'schema-test-suite');
});

// What the model reads: every tool at each level of detail the budget can
// leave it at, and mixes of them, is valid TypeScript, and the types stay
// real (the usage files check) as long as tools keep their signatures.
test('reduced levels: docs, summary, signature and name outputs all compile', () => {
  const all = Object.keys(SERVERS).flatMap((s) => lists[s] ?? readFixture(`${s}.tools.json`));
  const nasty = readFixture('nasty.tools.json');
  for (const level of ['docs', 'summary', 'signature']) {
    const decls = dump(all, '--level', level);
    assertCompiles({ 'decls.d.ts': decls, 'use.ts': USE_OK }, `usage-ok-${level}`);
    assertCompiles({ 'nasty.d.ts': dump(nasty, '--level', level), 'ok.ts': NASTY_OK }, `nasty-ok-${level}`);
  }
  const names = dump(nasty, '--level', 'name');
  assert.match(names, /\n {4}tree: AnyTool;\n/);
  assertCompiles({ 'nasty.d.ts': names, 'use.ts': 'async function f() { await tools.nasty.tree({ name: "r" }); }\n' }, 'nasty-name');
  const full = dump(all, '--level', 'full');
  assert.equal(full, dump(all), 'full is the whole text');
  for (const tokens of ['0', '1500', '3000', '100000']) {
    const text = dump([...all, ...nasty], '--tokens', tokens);
    assertCompiles({ 'decls.d.ts': text }, `budgeted-${tokens}`);
    assert.equal(dump([...nasty, ...all].reverse(), '--tokens', tokens), text, 'the same tools give the same text');
  }
});

test('budget (deprecated byte form): past the budget the index replaces the full text', () => {
  const all = Object.keys(SERVERS).flatMap((s) => lists[s] ?? readFixture(`${s}.tools.json`));
  const full = dump(all);
  assert.equal(dump(all, '--budget', String(Buffer.byteLength(full))), full);
  const small = dump(all, '--budget', '1000');
  assert.equal(small, dump(all, '--index'));
  assert.match(small, /^\/\/ server_memory\.create_entities - Create multiple new entities in the knowledge graph$/m);
  assertCompiles({ 'index.d.ts': small, 'use.ts': 'async function f() { await tools.server_memory.read_graph({}); }\n' }, 'index-use');
});

process.on('exit', () => fs.rmSync(TMP, { recursive: true, force: true }));
