// Downstream servers over HTTP, end to end: the binary is started by the
// official SDK client with a config listing server-everything in its
// streamableHttp and sse modes, supergateway in front of server-filesystem
// (Streamable HTTP and SSE), the HTTP fixture behind a bearer token taken
// from the environment with ${VAR}, and server-everything over stdio for
// comparison. Programs must call the HTTP servers exactly like stdio ones.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, REPO_ROOT } from './lib/paths.mjs';
import { freePort, listening } from './lib/ports.mjs';

const MODULES = path.join(REPO_ROOT, 'tests/node_modules');
const EVERYTHING = path.join(MODULES, '@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = path.join(MODULES, '@modelcontextprotocol/server-filesystem/dist/index.js');
const GATEWAY = path.join(MODULES, 'supergateway/dist/index.js');
const FIXTURE = path.join(REPO_ROOT, 'tests/fixtures/servers/http-mcp.mjs');
const LOCALHOST = `--import=${path.join(REPO_ROOT, 'tests/fixtures/servers/listen-localhost.mjs')}`;
const TOKEN = 'e2e-s3cret';
const DIR = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-http-')));

const procs = [];
let client, transport, stderr = '';
const ports = {};

async function startServer(name, args) {
  const port = await freePort();
  const p = spawn(process.execPath, args.map((a) => (a === '@PORT@' ? String(port) : a)), {
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
    detached: true, // its own process group: supergateway's children go with it
  });
  procs.push(p);
  await listening(port);
  ports[name] = port;
  return p;
}

const run = async (code) => {
  const r = await client.callTool({ name: 'execute_code', arguments: { code, timeoutMs: 60000 } }, undefined, { timeout: 90000 });
  if (r.isError) throw new Error(`program failed: ${r.content[0].text}`);
  return r.structuredContent.result;
};

before(async () => {
  await Promise.all([
    startServer('ev_http', [LOCALHOST, EVERYTHING, 'streamableHttp']),
    startServer('ev_sse', [LOCALHOST, EVERYTHING, 'sse']),
    startServer('fs_http', [LOCALHOST, GATEWAY, '--stdio', `node ${FILESYSTEM} ${DIR}`, '--outputTransport', 'streamableHttp', '--stateful', '--port', '@PORT@']),
    startServer('fs_sse', [LOCALHOST, GATEWAY, '--stdio', `node ${FILESYSTEM} ${DIR}`, '--outputTransport', 'sse', '--port', '@PORT@']),
    startServer('fix', [FIXTURE, '--mode', 'streamable', '--token', TOKEN]),
    startServer('modern', [FIXTURE, '--mode', 'modern']),
    startServer('strict_http', [FIXTURE, '--mode', 'streamable', '--strict-init', '300']),
    startServer('strict_sse', [FIXTURE, '--mode', 'sse', '--strict-init', '300']),
  ]);
  const url = (name, p) => `http://127.0.0.1:${ports[name]}${p}`;
  const config = {
    mcpServers: {
      ev_stdio: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      ev_http: { type: 'streamableHttp', url: url('ev_http', '/mcp') },
      ev_sse: { url: url('ev_sse', '/sse') }, // the type is inferred from /sse
      fs_http: { type: 'http', url: url('fs_http', '/mcp') },
      fs_sse: { type: 'sse', url: url('fs_sse', '/sse') },
      fix: { type: 'streamable-http', url: url('fix', '/mcp'), headers: { Authorization: 'Bearer ${E2E_TOKEN}' } },
      locked: { url: url('fix', '/mcp'), headers: { Authorization: 'Bearer wrong' } },
      modern: { url: url('modern', '/mcp') },
      strict_http: { type: 'http', url: url('strict_http', '/mcp') },
      strict_sse: { type: 'sse', url: url('strict_sse', '/sse') },
    },
    // server-filesystem marks write_file destructiveHint: true, which asks for
    // approval by default (docs/policy.md); this client cannot approve, so say so
    codemode: { policy: { rules: { 'fs_http.*': 'allow', 'fs_sse.*': 'allow' } } },
  };
  const file = path.join(DIR, 'config.json');
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  transport = new StdioClientTransport({
    command: BIN,
    args: ['--config', file, '--log-level', 'info'],
    env: { ...process.env, E2E_TOKEN: TOKEN },
    stderr: 'pipe',
  });
  transport.stderr.on('data', (b) => { stderr += b.toString('utf8'); });
  client = new Client({ name: 'e2e-http', version: '1.0.0' });
  await client.connect(transport);
});

after(async () => {
  if (client) await client.close();
  for (const p of procs) {
    try { process.kill(-p.pid, 'SIGTERM'); } catch { /* gone */ }
  }
  fs.rmSync(DIR, { recursive: true, force: true });
});

test('the declarations list the HTTP servers like the stdio one', async () => {
  const { tools } = await client.listTools();
  const d = tools[0].description;
  for (const s of ['ev_stdio', 'ev_http', 'ev_sse', 'fs_http', 'fs_sse', 'fix', 'modern', 'strict_http', 'strict_sse'])
    assert.match(d, new RegExp(`\\b${s}\\b`), `${s} is in the execute_code description`);
});

test('the same program gives the same results over stdio, Streamable HTTP and SSE', async () => {
  const r = await run(`
    const out = {};
    for (const s of ["ev_stdio", "ev_http", "ev_sse"]) {
      out[s] = [await tools[s].echo({message: "hi " + s}), await tools[s]["get-sum"]({a: 19, b: 23})];
    }
    return out;`);
  for (const s of ['ev_stdio', 'ev_http', 'ev_sse']) {
    assert.equal(r[s][0], `Echo: hi ${s}`);
    assert.match(JSON.stringify(r[s][1]), /42/);
  }
  assert.deepEqual(r.ev_http[1], r.ev_stdio[1]);
  assert.deepEqual(r.ev_sse[1], r.ev_stdio[1]);
});

test('server-filesystem behind supergateway, over Streamable HTTP and SSE', async () => {
  const r = await run(`
    await tools.fs_http.write_file({path: ${JSON.stringify(DIR + '/a.txt')}, content: "over http"});
    await tools.fs_sse.write_file({path: ${JSON.stringify(DIR + '/b.txt')}, content: "over sse"});
    const a = await tools.fs_sse.read_text_file({path: ${JSON.stringify(DIR + '/a.txt')}});
    const b = await tools.fs_http.read_text_file({path: ${JSON.stringify(DIR + '/b.txt')}});
    let outside;
    try { await tools.fs_http.read_text_file({path: "/etc/passwd"}); } catch (e) { outside = e.name; }
    return {a, b, outside, dirs: await tools.fs_http.list_allowed_directories({})};`);
  assert.match(JSON.stringify(r.a), /over http/);
  assert.match(JSON.stringify(r.b), /over sse/);
  assert.equal(r.outside, 'ToolError');
  assert.match(JSON.stringify(r.dirs), new RegExp(DIR.replace(/[/.]/g, '\\$&')));
});

test('50 calls at once across the HTTP servers', async () => {
  const r = await run(`
    const names = ["ev_http", "ev_sse", "fix", "modern", "ev_stdio"];
    const calls = [];
    for (let i = 0; i < 50; i++) {
      const s = names[i % names.length];
      calls.push(s.startsWith("ev_") ? tools[s].echo({message: "n" + i}) : tools[s].echo({text: "n" + i}));
    }
    const t0 = Date.now();
    const got = await Promise.all(calls);
    return {ms: Date.now() - t0, got};`);
  assert.equal(r.got.length, 50);
  r.got.forEach((g, i) => assert.match(JSON.stringify(g), new RegExp(`n${i}\\b`)));
});

test('headers come from the config with ${VAR} expanded; a wrong token fails clearly', async () => {
  const r = await run(`
    const h = await tools.fix.headers({});
    let locked;
    try { await tools.locked.echo({}); } catch (e) { locked = e.message; }
    return {auth: h.authorization, version: h["mcp-protocol-version"], locked};`);
  assert.equal(r.auth, `Bearer ${TOKEN}`);
  assert.equal(r.version, '2025-11-25');
  assert.match(r.locked, /authentication failed/);
  assert.match(r.locked, /HTTP 401 Unauthorized/);
  assert.doesNotMatch(stderr, new RegExp(TOKEN), 'the token never appears in the log');
});

test('a 2026-07-28 server is called statelessly with its headers', async () => {
  const r = await run(`
    const h = await tools.modern.headers({});
    const region = await tools.modern.region({region: "eu-west1"});
    return {method: h["mcp-method"], name: h["mcp-name"], session: h["mcp-session-id"] || null, region};`);
  assert.deepEqual(r, { method: 'tools/call', name: 'headers', session: null, region: { region: 'eu-west1', n: null } });
  assert.match(stderr, /server 'modern': speaks 2026-07-28 over http/);
});

test('servers that refuse requests until they have taken notifications/initialized (like the Python SDK) get none early', async () => {
  // each message is its own POST: one sent after the notification could reach
  // the server first; these servers take the notification 300 ms late
  const { tools } = await client.listTools();
  for (const s of ['strict_http', 'strict_sse'])
    assert.match(tools[0].description, new RegExp(`\\b${s}\\b`), `${s} was listed`);
  const r = await run(`
    const out = {};
    for (const s of ["strict_http", "strict_sse"]) {
      const echo = await tools[s].echo({text: s});
      const stats = await tools[s].stats({});
      out[s] = {echo, premature: stats.premature, sessions: stats.sessions};
    }
    return out;`);
  for (const s of ['strict_http', 'strict_sse']) {
    assert.match(JSON.stringify(r[s].echo), new RegExp(s), JSON.stringify(r));
    assert.equal(r[s].premature, 0, `${s}: no request came before the notification was taken`);
    assert.equal(r[s].sessions, 1, `${s}: one session, no reconnection`);
  }
});

test('a server killed during a call: the program gets an error naming it', async () => {
  const r = await run(`
    try { await tools.fix.crash({delay_ms: 200}); return "no error"; }
    catch (e) { return {name: e.name, message: e.message}; }`);
  assert.match(r.message, /server 'fix' went down during the call to 'crash'/);
  const again = await run(`try { await tools.fix.echo({}); } catch (e) { return e.message; }`);
  assert.match(again, /server 'fix' is unavailable/);
});
