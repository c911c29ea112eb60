// Shared by the downstream-*.test.mjs files: where the downstream servers
// are (our fixtures, the pinned reference servers, the example maze), config
// files written to a temporary directory, an SDK client of the binary
// serving such a config, and execute_code calls with their outcome unpacked.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, REPO_ROOT } from './paths.mjs';
import { connectSdk } from './sdk.mjs';

export const NODE = process.execPath;
export const RECORDER = path.join(REPO_ROOT, 'tests/fixtures/servers/recorder.mjs');
export const MISBEHAVING = path.join(REPO_ROOT, 'tests/fixtures/servers/misbehaving.mjs');
export const MAZE = path.join(path.dirname(BIN), 'examples/maze-server');
export const CONFIG_FIXTURES = path.join(REPO_ROOT, 'tests/fixtures/config');
export const TSC = path.join(REPO_ROOT, 'tests/node_modules/typescript/bin/tsc');
const MODULES = path.join(REPO_ROOT, 'tests/node_modules/@modelcontextprotocol');
export const EVERYTHING = path.join(MODULES, 'server-everything/dist/index.js');
export const FILESYSTEM = path.join(MODULES, 'server-filesystem/dist/index.js');
export const MEMORY = path.join(MODULES, 'server-memory/dist/index.js');

/** A temporary directory for this test file, removed at exit. */
export function tempDir(prefix = 'codemode-ds-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Config entries for the usual servers. */
export const entry = {
  recorder: (extra = [], more = {}) => ({ command: NODE, args: [RECORDER, ...extra], ...more }),
  misbehaving: (extra = [], more = {}) => ({ command: NODE, args: [MISBEHAVING, ...extra], ...more }),
  maze: (seed = 7, more = {}) => ({ command: MAZE, args: ['--seed', String(seed)], ...more }),
  everything: (more = {}) => ({ command: NODE, args: [EVERYTHING, 'stdio'], ...more }),
  filesystem: (dir, more = {}) => ({ command: NODE, args: [FILESYSTEM, dir], ...more }),
  memory: (file, more = {}) => ({ command: NODE, args: [MEMORY], env: { MEMORY_FILE_PATH: file }, ...more }),
};

let configCount = 0;
/** Writes `config` (an object, or a string written as is) to a file in `dir`; returns its path. */
export function writeConfig(dir, config, name = `config-${++configCount}.json`) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return file;
}

/**
 * An SDK client of the binary serving `configFile`, with `args` added.
 * Returns connectSdk's handle plus exec() and description().
 */
export async function serve(configFile, { args = [], label = 'sdk', env, cwd, capabilities } = {}) {
  const h = await connectSdk(['--config', configFile, '--pool-size', '2', ...args], { label, env, cwd, capabilities });
  h.exec = (code, opts = {}) => exec(h.client, code, opts);
  h.description = async () => (await h.client.listTools()).tools[0].description;
  return h;
}

const SANITIZER = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: (Address|Undefined|Leak)/;

/**
 * For after(): the SDK transport saw no errors and the server's stderr
 * has no sanitizer report (meaningful with MCP_CODEMODE_BIN=build-san/...).
 */
export async function assertClean(...handles) {
  await new Promise((r) => setTimeout(r, 100)); // stderr may still be draining after the exit
  for (const h of handles) {
    assert.deepEqual(h.errors.map(String), [], `${h.wire.label}: the SDK transport reported errors`);
    const m = SANITIZER.exec(h.stderr());
    assert.equal(m, null, `${h.wire.label}: sanitizer report on stderr:\n${h.stderr().slice(Math.max(0, (m?.index ?? 0) - 200), (m?.index ?? 0) + 3000)}`);
  }
}

/** Asserts that output of runBin has no sanitizer report. */
export function assertNoSanitizerReport(stderr, what = 'mcp-codemode') {
  const m = SANITIZER.exec(stderr);
  assert.equal(m, null, `${what}: sanitizer report on stderr:\n${stderr.slice(m?.index ?? 0, (m?.index ?? 0) + 3000)}`);
}

/**
 * Runs `code` through execute_code. Resolves with {ok, value, error, text,
 * logs, raw}: `value` is structuredContent.result (the program's value),
 * `error` structuredContent.error, `text` content[0].text.
 */
export async function exec(client, code, { timeoutMs, signal, requestTimeout = 60000 } = {}) {
  const args = { code };
  if (timeoutMs !== undefined) args.timeoutMs = timeoutMs;
  const raw = await client.callTool({ name: 'execute_code', arguments: args }, undefined, { signal, timeout: requestTimeout });
  const sc = raw.structuredContent ?? {};
  return { ok: raw.isError !== true, value: sc.result, error: sc.error, text: raw.content?.[0]?.text, logs: sc.logs, raw };
}

/** Asserts that an execution succeeded and returns its value. */
export function valueOf(r) {
  assert.equal(r.ok, true, `the program failed: ${r.text}`);
  return r.value;
}

/** Runs the binary with `args` to completion: {code, signal, stdout, stderr, ms}. */
export function runBin(args, { env, cwd, input, timeout = 30000 } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const p = spawn(BIN, args, { env: env ?? process.env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    p.stdout.on('data', (b) => { stdout += b; });
    p.stderr.on('data', (b) => { stderr += b; });
    const timer = setTimeout(() => { p.kill('SIGKILL'); reject(new Error(`${args.join(' ')}: no exit within ${timeout} ms\n${stderr}`)); }, timeout);
    p.on('exit', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr, ms: Date.now() - t0 }); });
    p.stdin.on('error', () => {});
    p.stdin.end(input ?? '');
  });
}

/** Polls `fn` until it returns a truthy value (returned) or `timeout` ms pass (throws). */
export async function eventually(fn, { timeout = 5000, every = 25, what = 'the condition' } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what} did not happen within ${timeout} ms`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** The JSON lines of a --log file of the recorder ([] when it does not exist). */
export function readLog(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}
