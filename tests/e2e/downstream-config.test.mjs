// The config file as issue 4 describes it, through the real binary and the
// official SDK client: Claude Desktop's mcpServers entries (stdio command,
// args, env, cwd; HTTP and SSE entries parsed and reported as not supported
// yet), a real Claude Desktop file used unmodified, entries that launch
// mcp-codemode itself, ${VAR} and ${VAR:-default}, allowTools/denyTools,
// timeoutMs, disabled, and unknown keys reported on stderr. One server
// process serves most of the entries at once; the Claude Desktop file gets
// its own, with stub `npx`/`uvx` commands on its PATH.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { BIN } from './lib/paths.mjs';
import { childrenOf, cmdline } from './lib/procs.mjs';
import { assertClean, CONFIG_FIXTURES, NODE, RECORDER, entry, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-ds-config-');
const WORK = fs.mkdtempSync(path.join(TMP, 'cwd-'));
const OFF_LOG = path.join(TMP, 'off.log');
fs.symlinkSync(BIN, path.join(TMP, 'codemode-link'));

// Variables the binary's environment has (the SDK transport merges them over its safe list).
const ENV = { E2E_TOKEN: 'tok-123', E2E_EMPTY: '', E2E_ARG: 'from-env' };

const CONFIG = {
  mcpServers: {
    rec: entry.recorder(['--name', '${E2E_ARG:-unused}', '--stderr', '${E2E_UNSET:-default-used}'], {
      env: {
        TOKEN: '${E2E_TOKEN}',
        NESTED: '${E2E_UNSET:-${E2E_TOKEN}}',
        EMPTY_DEFAULT: '${E2E_EMPTY:-was-empty}',
        MISSING: '${E2E_MISSING_VAR}',
        LITERAL: '$${E2E_TOKEN} pa$$word $HOME',
      },
      cwd: WORK,
      autoApprove: ['x'],
      allowtool: ['x'],
    }),
    remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${E2E_TOKEN}' } },
    legacy: { type: 'sse', url: 'http://localhost:3001/sse' },
    inferred: { url: 'http://localhost:3001/v1/sse/?key=1' },
    self: { command: BIN, args: ['--config', '/dev/null'] },
    byname: { command: '/usr/local/bin/mcp-codemode' },
    linked: { command: './codemode-link', cwd: TMP },
    filtered: entry.recorder([], { allowTools: ['get*', 'tool-?ame', 'fail', 'echo'], denyTools: ['get_item', 'f*l'] }),
    slow: entry.recorder([], { timeoutMs: 300 }),
    off: entry.recorder(['--log', OFF_LOG], { disabled: true, env: { T: '${E2E_OFF_UNSET}' } }),
  },
  codemode: { callTimeoutMs: 700 },
  mcpServer: {},
};

let s;
before(async () => {
  s = await serve(writeConfig(TMP, CONFIG), { env: ENV, label: 'config' });
});
after(() => assertClean(s));

// A program's outcome for each expression, caught: value or {name, message}.
const attempt = (exprs) => `
const out = {};
for (const [k, f] of Object.entries({${exprs}})) {
  try { out[k] = { value: await f() }; } catch (e) { out[k] = { name: e.name, message: e.message }; }
}
return out;`;

test('stdio entry: command, args, env and cwd reach the server; ${VAR} and ${VAR:-default} expand', async () => {
  const e = valueOf(await s.exec('return await tools.rec.env()'));
  assert.deepEqual(e.argv, ['--name', 'from-env', '--stderr', 'default-used']);
  assert.equal(e.cwd, fs.realpathSync(WORK));
  assert.equal(e.env.TOKEN, 'tok-123');
  assert.equal(e.env.NESTED, 'tok-123', 'a nested default is expanded');
  assert.equal(e.env.EMPTY_DEFAULT, 'was-empty', ':- applies to an empty variable too');
  assert.equal(e.env.MISSING, '', 'an unset variable without a default is empty');
  assert.equal(e.env.LITERAL, '${E2E_TOKEN} pa$$word $HOME', '$${ is the only escape, other $ stay');
  assert.match(s.stderr(), /mcpServers\.rec\.env\.MISSING: \$\{E2E_MISSING_VAR\} is not set; using an empty string/);
});

test('unknown keys are reported on stderr (with a suggestion), and nothing else is said about the disabled entry', () => {
  const err = s.stderr();
  assert.match(err, /mcpServers\.rec\.allowtool: unknown key \(did you mean allowTools\?\)/);
  assert.match(err, /mcpServers\.rec\.autoApprove: unknown key/);
  assert.match(err, /mcpServer: .*did you mean mcpServers/);
  assert.doesNotMatch(err, /E2E_OFF_UNSET/, 'an unset variable in a disabled entry is not even a warning');
  assert.doesNotMatch(err, /default-used/, 'a server\'s stderr is logged at info, below the default level (warning)');
});

test('HTTP and SSE entries are connected over HTTP; unreachable ones are left out of the declarations and a call says why', async () => {
  const r = valueOf(await s.exec(attempt(`
    remote: () => tools.remote.anything({}),
    legacy: () => callTool("legacy.anything", {}),
    inferred: () => tools.inferred.x(),
    rec: () => tools.rec.plain_text(),`)));
  for (const k of ['remote', 'legacy', 'inferred']) {
    // through tools.<server> the missing tool is undefined: calling it is a TypeError
    assert.equal(r[k].name, k === 'legacy' ? 'Error' : 'TypeError', k);
    assert.match(r[k].message, new RegExp(`server "${k}" are not available: cannot connect to http`), k);
  }
  assert.deepEqual(r.rec, { value: 'hello, world' }, 'the stdio server next to them works');
  const d = await s.description();
  assert.doesNotMatch(d, /\bremote\b|\blegacy\b|\binferred\b/);
});

test('entries that launch mcp-codemode itself are skipped with a warning (path, basename, symlink)', async () => {
  for (const name of ['self', 'byname', 'linked'])
    assert.match(s.stderr(), new RegExp(`mcpServers\\.${name}: skipped: launches mcp-codemode itself`), name);
  const r = valueOf(await s.exec(attempt(`
    self: () => tools.self.anything(),
    byname: () => tools.byname.anything(),
    linked: () => callTool("linked.x", {}),`)));
  for (const k of ['self', 'byname', 'linked'])
    assert.match(r[k].message, new RegExp(`server "${k}".*launches mcp-codemode itself`), k);
  // no second mcp-codemode was started: the children are the zygote and the node servers
  const kids = childrenOf(s.pid).map(cmdline);
  const ours = kids.filter((argv) => argv[0] === BIN || /\/mcp-codemode(-sandbox)?$/.test(argv[0]) || argv[0].endsWith('codemode-link'));
  assert.deepEqual(ours.map((a) => a.slice(1, 2)), [['__zygote']], JSON.stringify(kids));
  assert.ok(kids.some((argv) => argv[0] === NODE && argv[1] === RECORDER));
});

test('allowTools/denyTools: filtered tools are not declared and calling them fails as unknown', async () => {
  const d = await s.description();
  const block = d.slice(d.indexOf('  filtered: {'));
  const filtered = block.slice(0, block.indexOf('\n  };'));
  // Identifiers are assigned over every tool the server lists, before filtering, so the
  // allowed get-item is get_item_2 and the denied get_item's name can reach nothing.
  assert.match(filtered, /get_item_2\(/, 'get-item is allowed (declared as get_item_2)');
  assert.doesNotMatch(filtered, /\bget_item\(/);
  assert.match(filtered, /tool_name\(/);
  assert.match(filtered, /echo\(/);
  assert.doesNotMatch(filtered, /\bfail\(|\bstrict\(|\benv\(|\bhang\(/);
  // the original names are in the whole text (the description keeps it compact)
  const full = (await s.client.readResource({ uri: 'codemode://declarations.d.ts' })).contents[0].text;
  const fullBlock = full.slice(full.indexOf('  filtered: {'));
  const fullFiltered = fullBlock.slice(0, fullBlock.indexOf('\n  };'));
  assert.match(fullFiltered, /Original name: "get-item"/);
  assert.doesNotMatch(fullFiltered, /Original name: "get_item"|\bfail\(|\bstrict\(|\benv\(|\bhang\(/);
  const r = valueOf(await s.exec(attempt(`
    allowed: () => tools.filtered["get-item"]({ id: "1" }),
    denied: () => tools.filtered.fail({}),
    deniedByCall: () => callTool("filtered.fail", {}),
    notAllowed: () => callTool("filtered.strict", { name: "ab", count: 1 }),
    echo: () => tools.filtered.echo({ i: 1 }),`)));
  assert.deepEqual(r.allowed.value, { from: 'get-item', id: '1' });
  assert.deepEqual(r.echo.value.args, { i: 1 });
  for (const k of ['denied', 'deniedByCall', 'notAllowed'])
    assert.match(r[k].message, /^Unknown tool "filtered\.(fail|strict)"/, k);
});

// get_item is denied; get-item (allowed) sanitises to the same identifier. The
// denied tool's own name must not silently reach the other tool.
test('denyTools: calling a denied tool by its original name fails as unknown, even when an allowed tool sanitises to it', async () => {
  const r = valueOf(await s.exec(attempt('deniedOriginal: () => callTool("filtered.get_item", { id: "2" })')));
  assert.equal(r.deniedOriginal.value, undefined,
    `callTool("filtered.get_item") reached ${JSON.stringify(r.deniedOriginal.value)} although get_item is denied`);
  assert.match(r.deniedOriginal.message, /^Unknown tool "filtered\.get_item"/);
});

test('timeoutMs of an entry: a hanging tool fails after that time, naming the server and the time', async () => {
  const r = valueOf(await s.exec(`
    const t0 = Date.now();
    const out = {};
    try { await tools.slow.hang({}); } catch (e) { out.slow = { name: e.name, message: e.message, tool: e.tool, ms: Date.now() - t0 }; }
    const t1 = Date.now();
    try { await tools.rec.hang({}); } catch (e) { out.dflt = { message: e.message, ms: Date.now() - t1 }; }
    return out;`));
  assert.equal(r.slow.name, 'ToolError');
  assert.equal(r.slow.tool, 'slow.hang');
  assert.equal(r.slow.message, "server 'slow' did not return a result for 'hang' within 300 ms; the call was cancelled");
  assert.ok(r.slow.ms >= 290 && r.slow.ms < 1500, `took ${r.slow.ms} ms`);
  assert.match(r.dflt.message, /server 'rec' did not return a result for 'hang' within 700 ms/, 'codemode.callTimeoutMs applies without an entry timeoutMs');
  assert.ok(r.dflt.ms >= 690 && r.dflt.ms < 2000, `took ${r.dflt.ms} ms`);
});

test('disabled: the entry is not started, not declared, and a call says it is disabled', async () => {
  const r = valueOf(await s.exec(attempt('off: () => tools.off.echo({})')));
  assert.match(r.off.message, /server "off".*disabled in the config/);
  assert.doesNotMatch(await s.description(), /\boff\b/);
  assert.equal(fs.existsSync(OFF_LOG), false, 'the disabled server never ran');
  assert.ok(!childrenOf(s.pid).some((p) => cmdline(p).includes(OFF_LOG)));
});

test('stdin EOF: the server exits 0 with HTTP, self-launching and disabled entries in its config', async () => {
  const pid = s.pid;
  await s.close();
  assert.deepEqual(await s.transport.exit, { code: 0, signal: null });
  assert.deepEqual(childrenOf(pid), []);
});

// --- an unmodified Claude Desktop file ---------------------------------------------------------

test('a Claude Desktop file works unmodified (npx/uvx servers found on PATH, the broken one named)', async () => {
  const file = path.join(CONFIG_FIXTURES, 'claude_desktop.json');
  const original = fs.readFileSync(file, 'utf8');
  // stub npx and uvx: they start the recorder, which reports how it was started
  const bin = fs.mkdtempSync(path.join(TMP, 'bin-'));
  for (const name of ['npx', 'uvx']) {
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nexec "${NODE}" "${RECORDER}" --name "${name}" "$@"\n`, { mode: 0o755 });
  }
  const d = await serve(file, { env: { PATH: `${bin}:${process.env.PATH}`, GITHUB_PERSONAL_ACCESS_TOKEN: 'from-shell' }, label: 'claude-desktop' });
  try {
    const r = valueOf(await d.exec(attempt(`
      filesystem: () => tools.filesystem.env(),
      github: () => tools.github.env(),
      sqlite: () => tools.sqlite.env(),
      weather: () => tools.weather.env(),`)));
    assert.deepEqual(r.filesystem.value.argv, ['--name', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '/Users/alice/Desktop', '/Users/alice/Downloads']);
    assert.deepEqual(r.github.value.argv.slice(2), ['-y', '@modelcontextprotocol/server-github']);
    assert.equal(r.github.value.env.GITHUB_PERSONAL_ACCESS_TOKEN, '<YOUR_TOKEN>', 'the entry env wins over ours');
    assert.equal(r.filesystem.value.env.GITHUB_PERSONAL_ACCESS_TOKEN, undefined);
    assert.deepEqual(r.sqlite.value.argv, ['--name', 'uvx', 'mcp-server-sqlite', '--db-path', '/Users/alice/test.db']);
    assert.match(r.weather.message, /server "weather".*working directory "C:\/Users\/alice\/weather"/);
    assert.doesNotMatch(d.stderr(), /globalShortcut|preferences|isUsingBuiltInNodeForMcp/, 'other applications\' keys are not warned about');
    assert.equal(fs.readFileSync(file, 'utf8'), original);
  } finally {
    await d.close();
  }
  await assertClean(d);
});

auditSchemas();
