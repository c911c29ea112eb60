// Names in programs (issue 4, "Catalog and names"), through the real binary:
// tools.<server>.<tool> with sanitised identifiers, the original names through
// brackets and callTool, stable suffixes for names that collide once
// sanitised (whatever order the server lists them in), "did you mean"
// errors for unknown names, and the results of searchTools and describeTool.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, entry, readLog, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-ds-catalog-');
const LOG = path.join(TMP, 'my-server.log');
const only = (...names) => ['--only', names.join(',')];

const CONFIG = {
  mcpServers: {
    'my-server': entry.recorder(['--log', LOG]),
    rev: entry.recorder(['--reverse', ...only('get-item', 'get_item', 'tool-name')]),
    'a-b': entry.recorder(only('tool-name')),
    'a.b': entry.recorder(only('echo')),
    '9lives': entry.recorder(only('echo')),
    delete: entry.recorder(only('echo')),
    maze: entry.maze(7),
  },
};

let s;
before(async () => {
  s = await serve(writeConfig(TMP, CONFIG), { label: 'catalog' });
});
after(() => assertClean(s));

// Each expression's outcome: {value} or {name, message}.
const attempt = (exprs) => `
const out = {};
for (const [k, f] of Object.entries({${exprs}})) {
  try { out[k] = { value: await f() }; } catch (e) { out[k] = { name: e.name, message: e.message }; }
}
return out;`;

// The whole text (codemode://declarations.d.ts, `types --full`, describeTool)
// says where original names differ; the description, compact, says it once.
const fullText = async () => (await s.client.readResource({ uri: 'codemode://declarations.d.ts' })).contents[0].text;

test('a server named "my-server": tools.my_server, tools["my-server"]["tool-name"] and callTool all reach "tool-name"', async () => {
  const r = valueOf(await s.exec(attempt(`
    ids: () => tools.my_server.tool_name(),
    brackets: () => tools["my-server"]["tool-name"](),
    mixed: () => tools.my_server["tool-name"]({}),
    callOriginal: () => callTool("my-server.tool-name", {}),
    callIds: () => callTool("my_server.tool_name"),
    callMixed: () => callTool("my-server.tool_name", {}),`)));
  for (const [k, v] of Object.entries(r)) assert.deepEqual(v, { value: 'tool-name was called' }, k);
  const calls = readLog(LOG).filter((m) => m.method === 'tools/call');
  assert.equal(calls.length, 6);
  for (const c of calls) assert.deepEqual(c.params, { name: 'tool-name', arguments: {} }, 'the server gets its own name, and {} for no arguments');
  const d = await fullText();
  assert.match(d, /\/\*\* Server "my-server" \(also tools\["my-server"\]\) \*\/\n {2}my_server: \{/);
  assert.match(d, /Original name: "tool-name" \(also tools\.my_server\["tool-name"\]\)/);
  const desc = await s.description();
  assert.match(desc, /\n {2}my_server: \{\n/);
  assert.match(desc, /Tool names are JS identifiers \(get-env: get_env\); tools\.server\["get-env"\] works too/);
  assert.doesNotMatch(desc, /Original name:/);
});

test('server names: collisions get stable suffixes, leading digits and reserved words are escaped', async () => {
  const r = valueOf(await s.exec(attempt(`
    ab: () => tools.a_b.tool_name(),
    abOriginal: () => tools["a-b"]["tool-name"](),
    nine: () => tools._9lives.echo({ i: 9 }),
    nineOriginal: () => callTool("9lives.echo", { i: 10 }),
    del: () => tools.delete_.echo({ i: 4 }),
    delOriginal: () => tools["delete"].echo({ i: 5 }),
    keys: async () => Object.keys(tools).sort(),`)));
  assert.equal(r.ab.value, 'tool-name was called');
  assert.equal(r.abOriginal.value, 'tool-name was called');
  assert.deepEqual(r.nine.value.args, { i: 9 });
  assert.deepEqual(r.nineOriginal.value.args, { i: 10 });
  assert.deepEqual(r.del.value.args, { i: 4 });
  assert.deepEqual(r.delOriginal.value.args, { i: 5 });
  assert.deepEqual(r.keys.value, ['_9lives', 'a_b', 'a_b_2', 'delete_', 'maze', 'my_server', 'rev']);
  const d = await fullText();
  assert.match(d, /\/\*\* Server "a\.b" \(also tools\["a\.b"\]\) \*\/\n {2}a_b_2: \{/);
});

// "a.b" sanitises to a_b, taken by "a-b", so it is a_b_2. The worker names
// the call "a.b.echo" (the server's original name), and the host splits
// callTool names at the first dot: server "a", tool "b.echo". Every call to
// a server whose name contains a dot fails, whichever way it is written.
test('a server whose name contains a dot is callable through its identifier and its original name', async () => {
  const r = valueOf(await s.exec(attempt(`
    ab2: () => tools.a_b_2.echo({ i: 2 }),
    abOriginal: () => tools["a.b"].echo({ i: 3 }),
    byId: () => callTool("a_b_2.echo", { i: 6 }),`)));
  assert.deepEqual(r.byId.value?.args, { i: 6 }, JSON.stringify(r.byId));
  assert.deepEqual(r.ab2.value?.args, { i: 2 }, JSON.stringify(r.ab2));
  assert.deepEqual(r.abOriginal.value?.args, { i: 3 }, JSON.stringify(r.abOriginal));
});

test('tool names "get-item" and "get_item": get_item keeps its name, get-item is get_item_2, in either listing order', async () => {
  const r = valueOf(await s.exec(`
    const out = {};
    for (const srv of ["my_server", "rev"]) {
      out[srv] = {
        plain: await tools[srv].get_item({ id: "a" }),
        suffixed: await tools[srv].get_item_2({ id: "b" }),
        original: await tools[srv]["get-item"]({ id: "c" }),
        called: await callTool(srv + ".get-item", { id: "d" }),
      };
    }
    return out;`));
  for (const srv of ['my_server', 'rev']) {
    assert.deepEqual(r[srv], {
      plain: { from: 'get_item', id: 'a' },
      suffixed: { from: 'get-item', id: 'b' },
      original: { from: 'get-item', id: 'c' },
      called: { from: 'get-item', id: 'd' },
    }, srv);
  }
  const d = await fullText();
  for (const srv of ['my_server', 'rev']) {
    const block = d.slice(d.indexOf(`  ${srv}: {`));
    assert.match(block, /Original name: "get-item" \(also tools\.\w+\["get-item"\]\)\n[^\n]*\n {4}get_item_2\(args: \{ id: string \}\)/);
  }
});

test('unknown names: "did you mean" with the nearest names, for a tool, a server, a bare name', async () => {
  const r = valueOf(await s.exec(attempt(`
    typo: () => tools.maze.lok(),
    server: () => tools.maz.look(),
    call: () => callTool("my-server.tool-nmae", {}),
    bare: () => callTool("pickup", {}),
    nothing: () => callTool("maze.zzzzzzzz", {}),
    describe: () => describeTool("maze.mvoe"),`)));
  // tools.<server>.<missing> is undefined (typeof feature tests work); calling it is a TypeError
  // with the host's wording (nothing-lost.test.mjs has more)
  assert.deepEqual(r.typo, { name: 'TypeError', message: 'Unknown tool "maze.lok". Did you mean: maze.look, maze.move?' });
  assert.deepEqual(r.server, { name: 'TypeError', message: 'Unknown tool "maz.look". Did you mean: maze.look?' });
  assert.match(r.call.message, /^Unknown tool "my-server\.tool-nmae"\. Did you mean: my_server\.tool_name/);
  assert.equal(r.bare.message, 'Unknown tool "pickup" (name it as "server.tool"). Did you mean: maze.pickup?');
  assert.equal(r.nothing.message, 'Unknown tool "maze.zzzzzzzz".');
  assert.match(r.describe.message, /^Unknown tool "maze\.mvoe"\. Did you mean: maze\.move/);
});

test('searchTools(query): ranked {name, summary} entries; an empty query lists tools', async () => {
  const r = valueOf(await s.exec(`return {
    door: await searchTools("door"),
    move: await searchTools("move"),
    item: await searchTools("get item"),
    none: await searchTools("qwertyuiop"),
    all: await searchTools(""),
  };`));
  assert.deepEqual(r.move[0], { name: 'maze.move', summary: 'Walk one cell in a direction.' });
  assert.ok(r.door.some((x) => x.name === 'maze.use'), JSON.stringify(r.door));
  assert.ok(r.door.every((x) => x.name.startsWith('maze.')), 'only tools that mention a door');
  const items = r.item.map((x) => x.name);
  for (const n of ['my_server.get_item', 'my_server.get_item_2', 'rev.get_item', 'rev.get_item_2']) assert.ok(items.includes(n), n);
  assert.deepEqual(r.none, []);
  assert.ok(r.all.length >= 10 && r.all.length <= 20, `${r.all.length} entries for an empty query (capped at 20)`);
  for (const x of r.all) assert.deepEqual(Object.keys(x).sort(), ['name', 'summary']);
});

test('describeTool(name): the full declaration of one tool, by original name or by identifier', async () => {
  const r = valueOf(await s.exec(`return {
    strict: await describeTool("my-server.strict"),
    byId: await describeTool("my_server.strict"),
    move: await describeTool("maze.move"),
  };`));
  assert.equal(r.strict, r.byId);
  assert.match(r.strict, /^declare const tools: \{\n/);
  assert.match(r.strict, /strict\(args: \{[\s\S]*name: string;[\s\S]*count: number;[\s\S]*tags\?: string\[\];[\s\S]*mode\?: "fast" \| "slow";[\s\S]*nested\?: \{ ok: boolean \}/);
  // the maze's tools share one result shape: named, and declared with the tool
  assert.match(r.move, /move\(args: \{ direction: "north" \| "east" \| "south" \| "west" \}\): Promise<Types\.Look_result>;/);
  assert.match(r.move, /^declare namespace Types \{\n {2}type Look_result = \{[\s\S]*escaped: boolean;/, 'the outputSchema gives the result type');
});

auditSchemas();
