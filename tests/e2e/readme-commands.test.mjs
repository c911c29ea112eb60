// The README's commands do what the README says (issue 25, item 13): every
// line of its ```sh blocks runs from the repository root against the built
// binary and must exit 0 with the output described, except the set-up
// commands (`make run`, `make test`, which CI runs anyway) and the Inspector
// line (an npm download; cli-config.test.mjs launches the binary the way it
// does). A command added to the README without an expectation here fails
// the test. Also: docs/config.md's flag table lists exactly the flags of
// --help, with the same log levels, and the example program uses no
// undocumented internals.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { assertNoSanitizerReport, runBin, tempDir } from './lib/downstream.mjs';
import { BIN, REPO_ROOT } from './lib/paths.mjs';

const TMP = tempDir('codemode-readme-');
const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The command lines of the README's sh blocks, comments removed. */
function readmeCommands() {
  const out = [];
  for (const m of README.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of m[1].split('\n')) {
      const line = raw.replace(/\s+#.*$/, '').trim();
      if (line && !line.startsWith('#')) out.push(line);
    }
  }
  return out;
}

const SKIPPED = [/^make run$/, /^make test$/, /^npx @modelcontextprotocol\/inspector /];

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'readme', version: '1' } } });
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

/** Runs one shell line from the repository root: {code, stdout, stderr}. */
function sh(line, { input = '', timeout = 120000, onStderr, endWhen } = {}) {
  return new Promise((resolve, reject) => {
    // exec: signals reach the command itself, not a shell around it
    const p = spawn('sh', ['-c', line.includes('|') ? line : `exec ${line}`], {
      cwd: REPO_ROOT,
      env: { ...process.env, XDG_STATE_HOME: TMP },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '', stderr = '';
    p.stdout.on('data', (b) => {
      stdout += b;
      if (endWhen?.(stdout)) p.stdin.end();
    });
    p.stderr.on('data', (b) => { stderr += b; onStderr?.(stderr, p); });
    const timer = setTimeout(() => { p.kill('SIGKILL'); reject(new Error(`${line}: no exit within ${timeout} ms\n${stderr}`)); }, timeout);
    p.on('exit', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr }); });
    p.stdin.on('error', () => {});
    if (endWhen) p.stdin.write(input);
    else p.stdin.end(input);
  });
}

// What each README command must do: [pattern, check(line) -> Promise].
// build/mcp-codemode is replaced by the binary under test (MCP_CODEMODE_BIN).
const EXPECT = [
  [/^make$/, async (line) => {
    const r = await sh(line);
    assert.equal(r.code, 0, r.stderr);
  }],
  [/--help$/, async (line) => {
    const r = await sh(line);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^usage: mcp-codemode/);
  }],
  [/^make serve$/, async (line) => {
    // stdin stays open until tools/list is answered (the server ends at EOF)
    const r = await sh(line, { input: `${INIT}\n${LIST}\n`, endWhen: (out) => out.includes('"id":2') });
    assert.equal(r.code, 0, r.stderr);
    const replies = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const list = replies.find((m) => m.id === 2);
    assert.equal(list.result.tools[0].name, 'execute_code');
    assert.match(list.result.tools[0].description, /maze/, 'the maze server of examples/config.json is behind it');
  }],
  [/ run examples\/hello\.js$/, async (line) => {
    const r = await sh(line);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { longest: 'JavaScript', total: 28 });
    assert.match(r.stderr, /running 5 steps/);
  }],
  [/^echo 'return 6\*7' \| .* run -$/, async (line) => {
    const r = await sh(line);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), '42');
  }],
  [/ check examples\/config\.json$/, async (line) => {
    const r = await sh(line);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^maze: ready/m);
    assert.match(r.stdout, /tools\.maze\.move {2}allow/);
  }],
  [/ types -c examples\/config\.json$/, async (line) => {
    const r = await sh(line);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /declare const tools/);
    assert.match(r.stdout, /move\(args/);
  }],
  [/ lower examples\/hello\.js$/, async (line) => {
    const r = await sh(line);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /function/);
    assert.doesNotMatch(r.stdout, /=>/, 'arrows are lowered');
  }],
  [/ skills list$/, async (line) => {
    const r = await sh(line);
    assert.equal(r.code, 0, r.stderr);
  }],
  [/^make install PREFIX=\/usr\/local$/, async (line) => {
    const prefix = path.join(TMP, 'prefix');
    const r = await sh(line.replace('/usr/local', prefix));
    assert.equal(r.code, 0, r.stderr);
    for (const f of ['bin/mcp-codemode', 'bin/mcp-codemode-sandbox']) assert.ok(fs.existsSync(path.join(prefix, f)), f);
    const v = await sh(`${path.join(prefix, 'bin/mcp-codemode')} --version`);
    assert.equal(v.code, 0);
    assert.match(v.stdout, /^mcp-codemode /);
  }],
  [/ --http 127\.0\.0\.1:8080 --config examples\/config\.json$/, async (line) => {
    let port = null;
    const r = await sh(line.replace(':8080', ':0'), {
      onStderr: (err, p) => {
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+) /.exec(err);
        if (m && port === null) {
          port = Number(m[1]);
          fetch(`http://127.0.0.1:${port}/mcp`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: INIT,
          }).then(async (res) => { port = { status: res.status, body: await res.text() }; p.kill('SIGTERM'); },
            () => p.kill('SIGTERM'));
        }
      },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(port.status, 200, port.body);
    assert.match(port.body, /"serverInfo"/);
  }],
];

test('every command in the README runs and does what the README says', async () => {
  const commands = readmeCommands();
  assert.ok(commands.length >= 10, `${commands.length} commands found`);
  const ran = [];
  for (const line of commands) {
    if (SKIPPED.some((re) => re.test(line))) continue;
    const hit = EXPECT.find(([re]) => re.test(line));
    assert.ok(hit, `README command without an expectation in this test: ${line}`);
    const run = line.replace(/(^|[\s|])build\/mcp-codemode\b/g, `$1${BIN}`);
    await hit[1](run).catch((e) => { e.message = `${line}\n${e.message}`; throw e; });
    ran.push(line);
  }
  assert.ok(ran.length >= 10, ran.join('\n'));
});

/** `--flag` names in a text. */
const flagsIn = (text) => new Set([...text.matchAll(/(?<![\w-])(--[a-z][a-z-]*)/g)].map((m) => m[1]));

test('docs/config.md lists every flag of --help, and no other; the log levels agree', async () => {
  const help = await runBin(['--help']);
  assert.equal(help.code, 0);
  assertNoSanitizerReport(help.stderr);
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/config.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Command-line flags'), doc.indexOf('\n## ', doc.indexOf('## Command-line flags') + 5));
  const table = section.split('\n').filter((l) => l.startsWith('| `-')).join('\n');
  const helpFlags = flagsIn(help.stdout.slice(help.stdout.indexOf('options:')));
  const docFlags = flagsIn(table);
  assert.deepEqual([...helpFlags].filter((f) => !docFlags.has(f)), [], 'flags of --help missing from the docs table');
  assert.deepEqual([...docFlags].filter((f) => !helpFlags.has(f)), [], 'flags in the docs table that --help does not have');
  assert.match(table, /`-c FILE`/);
  const levels = /log level \(default warning\): ([a-z, ]+)/.exec(help.stdout)[1];
  assert.equal(levels, 'debug, info, notice, warning, error, critical, alert, emergency, off');
  assert.ok(doc.replace(/\s+/g, ' ').includes(`\`logLevel\` is one of ${levels.split(', ').map((l) => `\`${l}\``).join(', ')}`),
    'docs/config.md names the same log levels as --help');
});

test('examples/hello.js uses plain await, not engine internals', () => {
  const code = fs.readFileSync(path.join(REPO_ROOT, 'examples/hello.js'), 'utf8');
  assert.doesNotMatch(code, /__await|Duktape/);
  assert.match(code, /\bawait sleep\(/);
});
