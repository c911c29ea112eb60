// Remote servers that need OAuth (docs/oauth.md), against
// tests/fixtures/servers/oauth-protected.mjs: login through $BROWSER and
// through --no-browser, a program calling the protected tool with the
// stored token, check's login line, refresh of an expired token with
// rotation, two processes refreshing one rotating token without spending it
// twice, ToolAuthError after the tokens are refused, logout, and discovery
// refusals (issuer mismatch, no S256), bad input (malformed, oversized or
// cross-origin metadata, plain HTTP, access_denied, a hanging token endpoint)
// and a server needing a login beside working ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { statSync } from 'node:fs';
import { NODE, tempDir, writeConfig, runBin, assertNoSanitizerReport, entry } from './lib/downstream.mjs';
import { loginPasted } from './lib/oauth-client.mjs';
import { REPO_ROOT } from './lib/paths.mjs';

const FIXTURE = path.join(REPO_ROOT, 'tests/fixtures/servers/oauth-protected.mjs');
const BROWSER = path.join(REPO_ROOT, 'tests/fixtures/servers/oauth-browser.mjs');

async function provider(t, env = {}) {
  const p = spawn(NODE, [FIXTURE], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => p.kill());
  const line = await new Promise((resolve) => p.stdout.once('data', (b) => resolve(String(b))));
  const base = `http://127.0.0.1:${JSON.parse(line).port}`;
  return { base, log: async () => (await fetch(`${base}/log`)).json() };
}

function setup(base) {
  const dir = tempDir('codemode-oauth-');
  const file = writeConfig(dir, {
    mcpServers: { prot: { url: `${base}/mcp`, oauth: {} } },
    codemode: { state: { path: path.join(dir, 'state.db') } },
  });
  const program = path.join(dir, 'p.js');
  return { dir, file, program };
}

const browserEnv = { ...process.env, BROWSER: BROWSER };
/** The provider's authorization URL, as `login --no-browser` prints it. */
const AUTHORIZE_URL = /(http:\/\/\S+\/authorize\?\S+)/;

async function program(file, dir, code) {
  const p = path.join(dir, `p${Math.random().toString(36).slice(2)}.js`);
  (await import('node:fs')).writeFileSync(p, code);
  const r = await runBin(['run', p, file, '--json'], { timeout: 60000 });
  assertNoSanitizerReport(r.stderr);
  return r;
}

test('login through $BROWSER, call with the token, check, logout', async (t) => {
  const { base, log } = await provider(t);
  const { dir, file } = setup(base);
  const before = await runBin(['check', file]);
  assert.match(before.stdout, /login: needs login: mcp-codemode login prot/);
  const login = await runBin(['login', 'prot', file], { env: browserEnv, timeout: 30000 });
  assertNoSanitizerReport(login.stderr);
  assert.equal(login.code, 0, login.stderr);
  assert.match(login.stdout, new RegExp(`logged in to prot at ${base}`));
  assert.match(login.stderr, /\/authorize\?response_type=code&client_id=client-1/);
  assert.equal(statSync(path.join(dir, 'state.db')).mode & 0o777, 0o600);
  const l = await log();
  assert.equal(l.registrations, 1);
  assert.deepEqual(l.resources, [`${base}/mcp`, `${base}/mcp`]); // authorize and token requests
  const check = await runBin(['check', file]);
  assertNoSanitizerReport(check.stderr);
  assert.match(check.stdout, /prot: ready/);
  assert.match(check.stdout, new RegExp(`login: logged in at ${base} \\(until `));
  const r = await program(file, dir, 'const r = await tools.prot.whoami({}); console.log(JSON.stringify(r)); r');
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /you are in/);
  assert.doesNotMatch(r.stderr + r.stdout, /Bearer [A-Za-z0-9_-]{10}/); // no token in logs
  const out = await runBin(['logout', 'prot', file]);
  assert.equal(out.stdout, 'logged out of prot\n');
  assert.match((await runBin(['check', file])).stdout, /login: needs login/);
});

test('--no-browser: the pasted redirect URL completes the login; a wrong state is refused', async (t) => {
  const { base } = await provider(t);
  const { file } = setup(base);
  // the "person" runs on another machine: we follow the URL ourselves, but do
  // not let the redirect reach the listener; the URL is pasted instead
  const redirected = async (url) => (await fetch(url, { redirect: 'manual' })).headers.get('location');
  const forged = await loginPasted('prot', file, AUTHORIZE_URL,
    async (url) => (await redirected(url)).replace(/state=[^&]+/, 'state=forged'));
  assert.equal(forged.code, 1);
  assert.match(forged.stderr, /state does not match this login: refused/);
  assert.equal(forged.stdout, '');
  // the right one
  const right = await loginPasted('prot', file, AUTHORIZE_URL, redirected);
  assert.equal(right.code, 0, right.stderr);
  assert.match(right.stdout, /logged in to prot/);
});

test('an expired token is refreshed with rotation; two processes never spend one refresh token twice', async (t) => {
  const { base, log } = await provider(t, { TOKEN_TTL: '2' });
  const { dir, file } = setup(base);
  assert.equal((await runBin(['login', 'prot', file], { env: browserEnv })).code, 0);
  await new Promise((r) => setTimeout(r, 2500)); // the access token expired
  const code = 'const r = await tools.prot.whoami({}); r';
  const [a, b] = await Promise.all([program(file, dir, code), program(file, dir, code)]);
  assert.equal(a.code, 0, a.stderr + a.stdout);
  assert.equal(b.code, 0, b.stderr + b.stdout);
  const l = await log();
  assert.equal(l.reusedRefresh, 0, 'a refresh token was spent twice');
  assert.ok(l.refreshes >= 1);
  assert.equal(l.calls, 2);
});

test('refused tokens: the call throws ToolAuthError naming the login command', async (t) => {
  const { base } = await provider(t, { TOKEN_TTL: '1' });
  const { dir, file } = setup(base);
  assert.equal((await runBin(['login', 'prot', file], { env: browserEnv })).code, 0);
  await fetch(`${base}/revoke-all`);
  await new Promise((r) => setTimeout(r, 1500));
  const r = await program(file, dir, `let out = 'no error';
    try { await tools.prot.whoami({}); } catch (e) { out = [e.name, e instanceof ToolError, e.message]; }
    out`);
  const value = JSON.parse(r.stdout).result;
  assert.equal(value[0], 'ToolAuthError', r.stdout);
  assert.equal(value[1], true);
  assert.match(value[2], /run: mcp-codemode login prot$/);
});

for (const [mode, why] of [['badissuer', /names issuer "https:\/\/evil.example": refused/], ['nos256', /does not list S256.*refused/]]) {
  test(`discovery refuses an authorization server: ${mode}`, async (t) => {
    const { base, log } = await provider(t, { MODE: mode });
    const { file } = setup(base);
    const r = await runBin(['login', 'prot', file], { env: browserEnv });
    assertNoSanitizerReport(r.stderr);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /server prot: /);
    assert.match(r.stderr, why);
    assert.equal((await log()).registrations, 0);
  });
}

for (const [mode, why] of [
  ['malformed', /no usable metadata of authorization server http:\/\/127\.0\.0\.1:\d+ was found .*oauth-authorization-server is not a JSON object/],
  ['oversized', /no usable metadata .*oauth-authorization-server answered more than 256 KiB/],
  ['crossredirect', /no usable metadata .*oauth-authorization-server redirected to another origin \(refused\)/],
  ['plainhttp', /http:\/\/auth\.example\.com\/token.*(HTTPS|https)/],
  ['denied', /the authorization server refused the login: access_denied: the person said no/],
]) {
  test(`bad input: ${mode} gives a clear error naming the server`, async (t) => {
    const { base } = await provider(t, { MODE: mode });
    const { file } = setup(base);
    const r = await runBin(['login', 'prot', file], { env: browserEnv });
    assertNoSanitizerReport(r.stderr);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /mcp-codemode: server prot: /);
    assert.match(r.stderr, why);
  });
}

test('bad input: a token endpoint that hangs times out with a clear error', { timeout: 40000 }, async (t) => {
  const { base } = await provider(t, { MODE: 'hangtoken' });
  const { file } = setup(base);
  const r = await runBin(['login', 'prot', file], { env: browserEnv, timeout: 35000 });
  assertNoSanitizerReport(r.stderr);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /server prot: .*\/token timed out after 15000 ms/);
});

test('a server that needs a login does not stop the others; over SSE too its calls throw ToolAuthError', async (t) => {
  const { base } = await provider(t);
  const dir = tempDir('codemode-oauth-');
  const file = writeConfig(dir, {
    mcpServers: {
      prot: { url: `${base}/mcp`, oauth: {} },
      legacy: { type: 'sse', url: `${base}/sse`, oauth: {} },
      other: entry.recorder(),
    },
    codemode: { state: { path: path.join(dir, 'state.db') } },
  });
  const check = await runBin(['check', file]);
  assert.match(check.stdout, /prot: failed.*\n  login: needs login: mcp-codemode login prot/);
  assert.match(check.stdout, /legacy: failed.*\n  login: needs login: mcp-codemode login legacy/);
  const r = await program(file, dir, `const e = await tools.other.echo({ i: 7 }); const out = [JSON.stringify(e)];
    for (const f of [() => tools.prot.whoami({}), () => tools.legacy.whoami({})]) {
      try { await f(); out.push('no error'); } catch (e) { out.push([e.name, e.message]); }
    }
    out`);
  const [echoed, prot, legacy] = JSON.parse(r.stdout).result ?? assert.fail(r.stdout);
  assert.match(echoed, /"i":7/); // the other server works
  assert.equal(prot[0], 'ToolAuthError');
  assert.match(prot[1], /run: mcp-codemode login prot$/);
  assert.equal(legacy[0], 'ToolAuthError');
  assert.match(legacy[1], /run: mcp-codemode login legacy$/);
});
