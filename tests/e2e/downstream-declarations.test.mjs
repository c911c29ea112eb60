// Declarations of the downstream tools (issues 4 and 27) through the real
// binary: the execute_code description carries the compact TypeScript
// declarations of the configured servers while they fit
// codemode.declarations.budget (tokens), tools reduced one by one past it
// (names alone at the end) with searchTools/describeTool giving the rest,
// the same bytes on every start, and `check` and the log saying what was
// reduced; resources/list and
// resources/read serve codemode://declarations.d.ts and one
// codemode://servers/<id>.d.ts per server; and what `mcp-codemode types`
// prints compiles with tsc --noEmit --strict, with a program using it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, assertNoSanitizerReport, TSC, entry, runBin as run, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-ds-decls-');
const SERVERS = {
  maze: entry.maze(7),
  'my-server': entry.recorder(),
  mis: entry.misbehaving(),
};
const CONFIG = writeConfig(TMP, { mcpServers: SERVERS });
// The deprecated byte form of the budget: 200 bytes are 50 tokens, too few for anything but names.
const TINY = writeConfig(TMP, { mcpServers: SERVERS, codemode: { declarationsBudget: 200 } });

const runBin = async (...a) => {
  const r = await run(...a);
  assertNoSanitizerReport(r.stderr);
  return r;
};

let s, tiny;
before(async () => {
  [s, tiny] = await Promise.all([serve(CONFIG, { label: 'decls' }), serve(TINY, { label: 'decls-tiny' })]);
});
after(() => assertClean(s, tiny));

test('under the budget: the description carries the declarations of every configured server', async () => {
  const d = await s.description();
  assert.match(d, /^Run a JavaScript program in a sandbox/);
  const at = d.indexOf('Tools available to the program (TypeScript declarations):\n');
  assert.ok(at > 0);
  const decls = d.slice(at);
  assert.match(decls, /\ndeclare const tools: \{\n {2}maze: \{\n/);
  assert.match(decls, /\n {4}move\(args: \{ direction: "north" \| "east" \| "south" \| "west" \}\): Promise<Types\.Look_result>;/);
  assert.match(decls, /\n {2}my_server: \{\n/);
  assert.match(decls, /\n {4}strict\(args: \{/);
  assert.match(decls, /\n {2}mis: \{\n/);
  assert.match(decls, /\n\/\/ Not callable from programs: mis\.needs_task \(/);
  assert.doesNotMatch(decls, /Tools \(server\.tool - summary\)|: AnyTool;/);
  assert.ok(Buffer.byteLength(decls) < 4 * 12000);
});

test('past the budget: tools by name alone, and searchTools/describeTool give the rest', async () => {
  const d = await tiny.description();
  const decls = d.slice(d.indexOf('Tools available to the program'));
  assert.match(decls, /\ntype AnyTool = \(args\?: object\) => Promise<unknown>;\n/);
  assert.match(decls, /describeTool\("server\.tool"\)/);
  assert.match(decls, /\n {2}maze: \{\n(?: {4}\w+: AnyTool;\n)* {4}move: AnyTool;\n/);
  assert.match(decls, /\n {4}get_item_2: AnyTool;\n/);
  assert.doesNotMatch(decls, /move\(args:/, 'no signature');
  assert.ok(Buffer.byteLength(decls) < Buffer.byteLength((await s.description()).slice(d.indexOf('Tools available'))));
  const r = valueOf(await tiny.exec('return { found: await searchTools("pick up"), decl: await describeTool("maze.pickup"), moved: await tools.maze.move({ direction: "east" }) }'));
  assert.equal(r.found[0].name, 'maze.pickup');
  assert.match(r.decl, /pickup\(args\?: \{\}\): Promise<Types\.Look_result>;/);
  assert.deepEqual(r.moved.position, { x: 1, y: 0 }, 'the tools themselves are all there');
});

test('budget 0, in tokens or in the deprecated bytes: names alone', async () => {
  const [tokens, bytes] = await Promise.all([
    serve(CONFIG, { args: ['--declarations-tokens', '0'], label: 'decls-zero' }),
    serve(CONFIG, { args: ['--declarations-budget', '0'], label: 'decls-zero-bytes' }),
  ]);
  try {
    const d = await tokens.description();
    assert.ok(!/move\(args:/.test(d) && /\n {4}move: AnyTool;\n/.test(d), `expected names alone (${Buffer.byteLength(d)} bytes of description)`);
    assert.equal(await bytes.description(), d);
  } finally {
    await Promise.all([tokens.close(), bytes.close()]);
  }
  await assertClean(tokens, bytes);
});

// Clients cache the prompt up to the first byte that differs: the description
// must not change between starts while the downstream tools do not.
test('the description is byte-identical across two starts of the same config', async () => {
  const again = await serve(CONFIG, { label: 'decls-again' });
  try {
    assert.equal(await again.description(), await s.description());
    assert.equal(await again.description(), await s.description(), 'and across two lists');
  } finally {
    await again.close();
  }
  await assertClean(again);
});

test('check, types and the log say what the description costs and which tools were reduced', async () => {
  const ok = await runBin(['check', '--config', CONFIG]);
  assert.match(ok.stdout, /\ndeclarations: \d+ tools, about \d+ tokens \(budget 12000\), every tool with its docs\n/);
  const c = await runBin(['check', '--config', TINY]);
  const m = /\ndeclarations: (\d+) tools, about (\d+) tokens \(budget 50\), (\d+) reduced: \3 name\n {2}name: ([^\n]*)\n/.exec(c.stdout);
  assert.ok(m, c.stdout);
  assert.equal(m[1], m[3], 'every tool reduced');
  assert.match(m[4], /(^| )maze\.move( |$)/);
  assert.match(m[4], /(^| )my_server\.get_item_2( |$)/);
  // `types` prints what the model reads; its log says it was reduced
  const t = await runBin(['types', '--config', TINY]);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /\n {4}move: AnyTool;\n/);
  assert.match(t.stderr, /warning: tools: declarations: \d+ tools, about \d+ tokens \(budget 50\), \d+ reduced: \d+ name; {2}name: .*maze\.move.* \(codemode\.declarations\.budget; mcp-codemode check lists them all\)\n/);
  const full = await runBin(['types', '--full', '--config', TINY]);
  assert.match(full.stdout, /\n {4}move\(args: \{ direction: "north" \| "east" \| "south" \| "west" \}\): Promise<Types\.Look_result>;\n/);
  assert.match(full.stdout, /Original name: "get-item"/);
});

test('resources/list: codemode://declarations.d.ts and codemode://servers/<id>.d.ts per server', async () => {
  const { resources } = await s.client.listResources();
  assert.deepEqual(resources.map((r) => r.uri), [
    'codemode://declarations.d.ts',
    'codemode://servers/maze.d.ts',
    'codemode://servers/my_server.d.ts',
    'codemode://servers/mis.d.ts',
  ]);
  for (const r of resources) assert.equal(r.mimeType, 'application/typescript');
  assert.match(resources[2].title, /server "my-server"/);
});

test('resources/read: the full declarations (as `types` prints them) and each server\'s own', async () => {
  const read = async (uri) => {
    const r = await tiny.client.readResource({ uri });
    assert.equal(r.contents.length, 1);
    assert.equal(r.contents[0].uri, uri);
    assert.equal(r.contents[0].mimeType, 'application/typescript');
    return r.contents[0].text;
  };
  const all = await read('codemode://declarations.d.ts');
  const types = await runBin(['types', '--full', '--config', CONFIG]);
  assert.equal(types.code, 0, types.stderr);
  assert.equal(all, types.stdout, 'the resource is the full text even past the description budget');
  const maze = await read('codemode://servers/maze.d.ts');
  assert.match(maze, /\n {2}maze: \{\n[\s\S]*move\(args:/);
  assert.doesNotMatch(maze, /my_server|\bmis\b/);
  const mine = await read('codemode://servers/my_server.d.ts');
  assert.match(mine, /get_item_2\(args: \{ id: string \}\)/);
  assert.doesNotMatch(mine, /\bmaze\b/);
  await assert.rejects(tiny.client.readResource({ uri: 'codemode://servers/nope.d.ts' }), (e) => e.code === -32002);
});

// One tsc run, three files: the declarations, a program using them as
// documented, and a program reading ToolArgumentError's .violations.
const USE = `
async function main(): Promise<number> {
  const v = await tools.maze.look();
  const moved = await tools.maze.move({ direction: "east" });
  const x: number = moved.position.x + v.moves;
  const r = await tools.my_server.strict({ name: "ab", count: 2, mode: "fast", nested: { ok: true } });
  await tools.my_server.tool_name();
  await tools.mis.add({ a: 1, b: 2 });
  const found = await searchTools("maze");
  const decl: string = await describeTool(found[0].name);
  try { await callTool("maze.use", { item: "key" }); } catch (e) {
    if (e instanceof ToolError) console.log(e.tool, e.result);
  }
  console.log(r, decl);
  return x;
}
main();
export {};
`;
const VIOLATIONS = `
async function check(): Promise<string[]> {
  try { await tools.maze.move({ direction: "east" }); return []; } catch (e) {
    if (e instanceof ToolArgumentError) return e.violations.map((v) => v.path + " " + v.keyword + " " + v.message);
    throw e;
  }
}
check();
export {};
`;
let tscRun;
function compileTypes(stdout) {
  if (tscRun) return tscRun;
  const dir = fs.mkdtempSync(path.join(TMP, 'tsc-'));
  const files = { 'decls.d.ts': stdout, 'use.ts': USE, 'violations.ts': VIOLATIONS };
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', lib: ['es2022'], types: [] },
    files: Object.keys(files),
  }));
  const r = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8', timeout: 120000 });
  tscRun = { status: r.status, errors: `${r.stdout}${r.stderr}`.split('\n').filter((l) => /error TS/.test(l)) };
  return tscRun;
}

test('`mcp-codemode types` compiles under tsc --noEmit --strict, with a program that uses it', async () => {
  const t = await runBin(['types', '--config', CONFIG]);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /^\/\*\* Tool names are JS identifiers/);
  const r = compileTypes(t.stdout);
  assert.deepEqual(r.errors.filter((l) => !l.includes('violations.ts(')), []);
});

test('`mcp-codemode types --full` compiles too, with the same program', async () => {
  const t = await runBin(['types', '--full', '--config', CONFIG]);
  assert.equal(t.code, 0, t.stderr);
  tscRun = undefined;
  const r = compileTypes(t.stdout);
  tscRun = undefined;
  assert.deepEqual(r.errors, []);
});

test('the declarations type ToolArgumentError.violations (path, keyword, message)', async () => {
  const t = await runBin(['types', '--config', CONFIG]);
  const r = compileTypes(t.stdout);
  assert.equal(r.errors.filter((l) => l.includes('violations.ts(')).join('\n'), '');
});

auditSchemas();
