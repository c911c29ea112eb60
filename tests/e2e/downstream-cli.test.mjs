// The command line with downstream servers (issue 4): `mcp-codemode check
// --config` lists each server's status and tools and exits 0 when all are
// ready, 1 otherwise (naming the broken one), 2 for a config it cannot load;
// `mcp-codemode types` prints the declarations; `mcp-codemode run FILE.js
// --config` calls the real downstream tools, with console lines on stderr,
// the result on stdout, and exit 1 when the program fails.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CONFIG_FIXTURES, NODE, RECORDER, assertNoSanitizerReport, entry, readLog, runBin as run, tempDir, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-ds-cli-');
const runBin = async (...a) => {
  const r = await run(...a);
  assertNoSanitizerReport(r.stderr);
  return r;
};
const LOG = path.join(TMP, 'rec.log');
const GOOD = writeConfig(TMP, {
  mcpServers: {
    maze: entry.maze(7),
    'my-server': entry.recorder(['--log', LOG]),
    off: entry.recorder([], { disabled: true }),
  },
});
const BROKEN = writeConfig(TMP, {
  mcpServers: {
    maze: entry.maze(7),
    broken: { command: '/nonexistent/server-binary' },
    crashy: entry.misbehaving(['--crash-on-start']),
  },
});
const REMOTE = writeConfig(TMP, {
  mcpServers: { maze: entry.maze(7), remote: { type: 'http', url: 'https://example.com/mcp', headers: { 'X-Key': 'k' } } },
});

test('check: every server ready: their tools are listed, exit 0', async () => {
  const r = await runBin(['check', '--config', GOOD]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^config: .*\nservers: 3\n {2}maze \(stdio\)\n {2}my-server \(stdio\)\n {2}off \(stdio\) disabled\n/);
  // each tool with its policy decision and what decided it (docs/policy.md)
  const dflt = ' {2}allow \\(codemode\\.policy\\.default\\)';
  assert.match(r.stdout, new RegExp(`\\nmaze: ready, protocol 2025-11-25 over stdio, maze 1\\.0\\.0, 4 tools\\n {2}tools\\.maze\\.look${dflt}\\n {2}tools\\.maze\\.move${dflt}\\n {2}tools\\.maze\\.pickup${dflt}\\n {2}tools\\.maze\\.use${dflt}\\n`));
  assert.match(r.stdout, /\nmy-server: ready, protocol 2025-11-25 over stdio, recorder 0\.0\.1, 15 tools\n/);
  assert.match(r.stdout, /\n {2}tools\.my_server\.get_item_2 {2}\("get-item"\) {2}allow \(codemode\.policy\.default\)\n/);
  assert.match(r.stdout, /\noff: not started: it is disabled in the config\n/);
  assert.ok(r.ms < 10000, `${r.ms} ms`);
});

test('check: a broken server is named with its reason and the exit status is 1', async () => {
  const r = await runBin(['check', '--config', BROKEN]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /\nmaze: ready, .*4 tools\n/);
  assert.match(r.stdout, /\nbroken: failed, 0 tools \(cannot start "\/nonexistent\/server-binary": .*\)\n/);
  assert.match(r.stdout, /\ncrashy: failed, 0 tools \(exited with status 2 while connecting; its last stderr line: "boom at start"\)\n/);
});

test('check: an HTTP entry is connected over HTTP; one that cannot be reached is named with the reason (exit 1)', async () => {
  const r = await runBin(['check', '--config', REMOTE]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /\n {2}remote \(http\)\n/);
  assert.match(r.stdout, /\nremote: failed, 0 tools \(cannot connect to https:\/\/example\.com\/mcp: [^\n]+\)\n/);
  assert.match(r.stdout, /\nmaze: ready/);
});

test('check: a config that cannot be loaded exits 2 with file:line:col and the key', async () => {
  const bad = writeConfig(TMP, '{\n  "mcpServers": {\n    "remote": {"url": "https://example.com/mcp", "headers": {"Bad Header": "x"}}\n  }\n}\n', 'bad-header.json');
  const r = await runBin(['check', '--config', bad]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /bad-header\.json:3:\d+: mcpServers\.remote\.headers\["Bad Header"\]: invalid header name/);
});

test('check: the Claude Desktop file unmodified: npx/uvx servers ready, the Windows-path one named, exit 1', async () => {
  const bin = fs.mkdtempSync(path.join(TMP, 'bin-'));
  for (const name of ['npx', 'uvx'])
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nexec "${NODE}" "${RECORDER}" --name "${name}" "$@"\n`, { mode: 0o755 });
  const r = await runBin(['check', '--config', path.join(CONFIG_FIXTURES, 'claude_desktop.json')],
    { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  for (const srv of ['filesystem', 'github', 'sqlite']) assert.match(r.stdout, new RegExp(`\\n${srv}: ready, protocol 2025-11-25 over stdio, (npx|uvx) 0\\.0\\.1, 15 tools\\n`), srv);
  assert.match(r.stdout, /\nweather: failed, 0 tools \(cannot use its working directory "C:\/Users\/alice\/weather": No such file or directory\)\n/);
});

test('types: the declarations on stdout, nothing else (--full: every doc)', async () => {
  const r = await runBin(['types', '--config', GOOD]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^\/\*\* Tool names are JS identifiers/);
  assert.match(r.stdout, /\ndeclare const tools: \{\n {2}maze: \{\n/);
  assert.match(r.stdout, /\n {2}my_server: \{\n/);
  assert.doesNotMatch(r.stdout, /\boff\b/);
  assert.ok(r.stdout.endsWith('};\n'));
  const full = await runBin(['types', '--full', '--config', GOOD]);
  assert.equal(full.code, 0, full.stderr);
  assert.match(full.stdout, /\n {2}\/\*\* Server "my-server" \(also tools\["my-server"\]\) \*\/\n {2}my_server: \{\n/);
  assert.ok(full.stdout.endsWith('};\n'));
  assert.ok(full.stdout.length > r.stdout.length);
});

test('run FILE.js: real downstream calls, console on stderr, result on stdout, exit 0', async () => {
  const file = path.join(TMP, 'prog.js');
  fs.writeFileSync(file, [
    'const view = await tools.maze.move({ direction: "east" });',
    'console.log("now at", view.position);',
    'console.warn("careful");',
    'const echoed = await tools["my-server"].echo({ i: 42 });',
    'return { x: view.position.x, i: echoed.args.i };',
  ].join('\n'));
  const r = await runBin(['run', file, '--config', GOOD]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '{"x":1,"i":42}\n');
  assert.match(r.stderr, /^now at \{"x":1,"y":0\}\n\[warn\] careful\n/);
  const calls = readLog(LOG).filter((m) => m.method === 'tools/call');
  assert.deepEqual(calls.map((c) => c.params), [{ name: 'echo', arguments: { i: 42 } }], 'the real server got the call');
});

test('run: a failing program exits 1 with the error on stderr; run - reads stdin; --json prints structuredContent', async () => {
  const fail = path.join(TMP, 'fail.js');
  fs.writeFileSync(fail, 'console.log("first");\nawait tools.maze.move({ direction: "north" });\nreturn "unreachable";\n');
  const r = await runBin(['run', fail, '--config', GOOD]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^first\nToolError: There is a wall to the north\.\n {4}at line 2\n/m);
  const stdin = await runBin(['run', '-', '--config', GOOD, '--json'], { input: 'return await tools.maze.look();' });
  assert.equal(stdin.code, 0, stdin.stderr);
  const sc = JSON.parse(stdin.stdout);
  assert.deepEqual(sc.result.position, { x: 0, y: 0 });
  assert.equal(sc.stats.toolCalls, 1);
  const argErr = await runBin(['run', '-', '--config', GOOD], { input: 'await tools.maze.move({ direction: "up" });' });
  assert.equal(argErr.code, 1);
  assert.match(argErr.stderr, /ToolArgumentError: Invalid arguments for maze\.move \(nothing was sent\):\n- \/direction: must be one of/);
});
