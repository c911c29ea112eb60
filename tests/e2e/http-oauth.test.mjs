// The HTTP endpoint as an OAuth 2.1 protected resource (docs/http-oauth.md)
// against a real authorization server (oidc-provider issuing resource-bound
// JWT access tokens, tests/fixtures/oauth/provider.mjs): the protected
// resource metadata and the 401/403 challenges; the official SDK client's
// whole OAuth flow (discovery from the 401, dynamic registration, code with
// PKCE, token, call) over Streamable HTTP and legacy SSE; principals from
// tokens (two users isolated, one user's sessions sharing state, a session
// refusing another user's token, rate limits); scope-bound policy rules;
// bad tokens refused with the right status and no effect, and a JWKS that
// is down (fail closed).
import { test, before, after } from 'node:test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startProvider } from '../fixtures/oauth/provider.mjs';
import { authorize } from '../fixtures/oauth/person.mjs';
import { fetchAll, JSON_HEADERS } from './lib/http.mjs';
import { freePort } from './lib/ports.mjs';
import { runBin, assertNoSanitizerReport } from './lib/downstream.mjs';
import { startProtected, userToken, tokenClient, run, startJwks, unsigned, hmacToken } from './lib/oauth-resource.mjs';

process.env.MCP_CODEMODE_TEST_WORKER_STATS = '1';

const SCOPES = ['mcp:tools', 'crm:write'];
const AUDIT = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-codemode-oauth-audit-')), 'audit.jsonl');
let op, srv;
const servers = [];

async function serve(...a) {
  const s = await startProtected(...a);
  servers.push(s);
  return s;
}

before(async () => {
  op = await startProvider({ scopes: SCOPES });
  srv = await serve({ issuer: op.issuer, requiredScopes: ['mcp:tools'] }, {
    codemode: {
      policy: { rules: { 'state.delete': { decision: 'allow', scope: 'crm:write' }, 'skills.delete': 'ask' } },
      audit: { path: AUDIT },
    },
  });
});

after(async () => {
  for (const s of servers) {
    const e = await s.stop();
    assert.doesNotMatch(s.stderr, /Sanitizer|runtime error:/, `${s.label}: sanitizer report`);
    assert.equal(e.code, 0, `${s.label} exited with ${e.code ?? e.signal}:\n${s.stderr.slice(-2000)}`);
  }
  await op.close();
});

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

function post(server, token, body = initialize, headers = {}) {
  return fetchAll(server, { headers: { ...JSON_HEADERS, ...(token !== undefined ? { Authorization: `Bearer ${token}` } : {}), ...headers }, body, wire: null });
}

function challengeOf(r) {
  const h = r.headers['www-authenticate'];
  assert.ok(h, `a WWW-Authenticate header (status ${r.status})`);
  assert.match(h, /^Bearer /);
  const params = {};
  for (const [, k, v] of h.matchAll(/(\w+)="([^"]*)"/g)) params[k] = v;
  return params;
}

test('protected resource metadata (RFC 9728) and the 401 that points at it', async () => {
  const resource = `${srv.url}/mcp`;
  for (const p of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    const r = await fetch(`${srv.url}${p}`, { headers: { Origin: 'https://inspector.example' } });
    assert.equal(r.status, 200, p);
    assert.equal(r.headers.get('access-control-allow-origin'), '*', 'public: readable by browser clients');
    const m = await r.json();
    assert.equal(m.resource, resource);
    assert.deepEqual(m.authorization_servers, [op.issuer]);
    assert.deepEqual(m.bearer_methods_supported, ['header']);
    assert.deepEqual(m.scopes_supported, ['mcp:tools']);
  }
  const r = await post(srv, undefined);
  assert.equal(r.status, 401);
  const c = challengeOf(r);
  assert.equal(c.resource_metadata, `${srv.url}/.well-known/oauth-protected-resource/mcp`);
  assert.equal(c.scope, 'mcp:tools');
  assert.equal(c.error, undefined, 'no error code when no credentials came (RFC 6750 3.1)');
  for (const p of ['/sse', '/message?sessionId=x']) {
    const x = await fetchAll(srv, { method: p === '/sse' ? 'GET' : 'POST', path: p, headers: JSON_HEADERS, body: p === '/sse' ? undefined : {}, wire: null });
    assert.equal(x.status, 401, `${p} is protected too`);
  }
  const basic = await post(srv, undefined, initialize, { Authorization: 'Basic YTpi' });
  assert.equal(basic.status, 401, 'another scheme is no credentials');
  const bad = await post(srv, undefined, initialize, { Authorization: 'Bearer a b' });
  assert.equal(bad.status, 400);
  assert.equal(challengeOf(bad).error, 'invalid_request');
});

/** An OAuthClientProvider whose "browser" is the person of the test bed. */
class PersonProvider {
  constructor(login) {
    this.login = login;
    this.redirectUrl = 'http://127.0.0.1:9/callback';
    this.clientMetadata = { client_name: 'e2e SDK client', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', application_type: 'native' };
    this.authorizations = [];
  }
  clientInformation() { return this.info; }
  saveClientInformation(i) { this.info = i; }
  tokens() { return this.saved; }
  saveTokens(t) { this.saved = t; }
  redirectToAuthorization(url) { this.authorizations.push(url); }
  saveCodeVerifier(v) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
}

/** The SDK's flow: connect (401), the person logs in, finishAuth, connect again. */
async function sdkLogin(makeTransport, provider) {
  const first = new Client({ name: 'e2e-sdk-oauth', version: '1.0.0' });
  const t1 = makeTransport(provider);
  await assert.rejects(first.connect(t1), UnauthorizedError, 'the first connect needs a login');
  assert.equal(provider.authorizations.length, 1, 'the SDK sent the person to the authorization server');
  const url = provider.authorizations[0];
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  const { redirect } = await authorize(url.href, { login: provider.login, deliver: false });
  const code = new URL(redirect).searchParams.get('code');
  assert.ok(code, `a code came back: ${redirect}`);
  await t1.finishAuth(code);
  const client = new Client({ name: 'e2e-sdk-oauth', version: '1.0.0' });
  await client.connect(makeTransport(provider));
  return { client, url };
}

test('the official SDK client does the whole flow over Streamable HTTP', async () => {
  const p = new PersonProvider('sdk-user');
  const { client, url } = await sdkLogin((prov) => new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { authProvider: prov }), p);
  assert.ok(p.info?.client_id, 'registered dynamically');
  assert.equal(url.searchParams.get('resource'), `${srv.url}/mcp`, 'the resource indicator is this server');
  assert.match(url.searchParams.get('scope'), /mcp:tools/, 'the scope of the challenge was asked for');
  const out = await run(client, 'await state.set("who", "sdk"); return await state.get("who")');
  assert.equal(out.result, 'sdk');
  const log = op.log.filter((e) => e.event === 'grant' && e.grantType === 'authorization_code');
  assert.ok(log.some((e) => e.resource === `${srv.url}/mcp`), 'the token was asked for this resource');
  await client.close();
});

test('the official SDK client does the whole flow over legacy SSE', async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // one resource for /mcp and /sse: the origin (the SDK wants the resource to prefix the URL it uses)
  const s = await serve({ issuer: op.issuer, requiredScopes: ['mcp:tools'] }, { codemode: { http: { publicUrl: origin } }, args: ['--http', `127.0.0.1:${port}`], label: 'oauth-sse' });
  const m = await (await fetch(`${origin}/.well-known/oauth-protected-resource/sse`)).json();
  assert.equal(m.resource, origin);
  const p = new PersonProvider('sse-user');
  const { client, url } = await sdkLogin((prov) => new SSEClientTransport(new URL(`${origin}/sse`), { authProvider: prov }), p);
  assert.equal(url.searchParams.get('resource'), origin);
  const out = await run(client, 'return 6 * 7');
  assert.equal(out.result, 42);
  await client.close();
});

test('two users in parallel: state, skills and workers are theirs; one user\'s sessions share state', async () => {
  const resource = `${srv.url}/mcp`;
  const [alice, bob] = await Promise.all([
    userToken(op, { login: 'alice', resource, scope: 'mcp:tools' }),
    userToken(op, { login: 'bob', resource, scope: 'mcp:tools' }),
  ]);
  const [a1, a2, b1] = await Promise.all([tokenClient(srv, alice), tokenClient(srv, alice), tokenClient(srv, bob)]);
  const [ra, rb] = await Promise.all([
    run(a1, 'await state.set("k", "alice"); await skills.save({name: "mine", code: "return 1", description: "alice\'s"}); return 1'),
    run(b1, 'await state.set("k", "bob"); return 1'),
  ]);
  assert.notEqual(ra.stats.workerPid, rb.stats.workerPid, 'a worker never serves two subjects');
  assert.equal((await run(a2, 'return await state.get("k")')).result, 'alice', 'alice\'s second session sees her state');
  assert.equal((await run(b1, 'return await state.get("k")')).result, 'bob');
  const bobSkills = (await run(b1, 'return (await skills.list()).map(s => s.name)')).result;
  assert.ok(!bobSkills.includes('mine'), `bob does not see alice's skill: ${JSON.stringify(bobSkills)}`);
  const aliceSkills = (await run(a2, 'return (await skills.list()).map(s => s.name)')).result;
  assert.ok(aliceSkills.includes('mine'), 'alice sees her skill from her other session');

  // a stashed value is read by its own session only, never by another user
  const stashed = await a1.callTool({ name: 'execute_code', arguments: { code: 'return await content.stash({ secret: "alice" })' } });
  const link = stashed.content.find((c) => c.type === 'resource_link') ?? stashed.structuredContent?.result;
  assert.match(link?.uri ?? '', /^codemode:\/\/stash\//, JSON.stringify(stashed).slice(0, 300));
  assert.deepEqual(JSON.parse((await a1.readResource({ uri: link.uri })).contents[0].text), { secret: 'alice' });
  await assert.rejects(b1.readResource({ uri: link.uri }), 'bob cannot read alice\'s stash');

  // a session opened by alice refuses bob's token
  const init = await post(srv, alice);
  assert.equal(init.status, 200);
  const sid = init.headers['mcp-session-id'];
  const hijack = await post(srv, bob, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' });
  assert.equal(hijack.status, 403);
  const own = await post(srv, alice, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' });
  assert.equal(own.status, 202);
  await Promise.all([a1.close(), a2.close(), b1.close()]);
});

test('2026-07-28 stateless requests: each subject its own principal', async () => {
  const resource = `${srv.url}/mcp`;
  const [carol, dave] = await Promise.all([
    userToken(op, { login: 'carol', resource, scope: 'mcp:tools' }),
    userToken(op, { login: 'dave', resource, scope: 'mcp:tools' }),
  ]);
  const call = (token, code, extra = {}) => post(srv, token, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'execute_code', arguments: { code }, ...extra, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } } }, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'execute_code' });
  const set = await call(carol, 'await state.set("s", "carol"); return 1');
  assert.equal(set.status, 200, set.text);
  const got = await call(dave, 'return (await state.get("s")) ?? null');
  assert.equal(JSON.parse(got.text).result.structuredContent.result, null, 'dave does not see carol\'s stateless state');
  const mine = await call(carol, 'return await state.get("s")');
  assert.equal(JSON.parse(mine.text).result.structuredContent.result, 'carol');

  // a parked approval (requestState) is bound to the principal that received it
  const CODE = 'await skills.save({name: "carols", code: "return 1", description: "d"}); await skills.delete("carols"); return "gone"';
  const first = JSON.parse((await call(carol, CODE)).text).result;
  assert.equal(first.resultType, 'input_required', JSON.stringify(first));
  const [k] = Object.keys(first.inputRequests);
  const answer = { inputResponses: { [k]: { action: 'accept', content: { decision: 'once' } } }, requestState: first.requestState };
  const stolen = await call(dave, CODE, answer);
  assert.match(JSON.parse(stolen.text).error?.message ?? '', /requestState is unknown/, `another subject cannot answer it: ${stolen.text}`);
  const done = JSON.parse((await call(carol, CODE, answer)).text).result;
  assert.equal(done.structuredContent?.result, 'gone', JSON.stringify(done));

  // the audit log names the token's subject
  const lines = readFileSync(AUDIT, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const principals = new Set(lines.map((l) => l.principal).filter(Boolean));
  assert.ok(principals.has(`oauth:${op.issuer}#carol`), `audit principals: ${[...principals].join(', ')}`);
  assert.ok(principals.has(`oauth:${op.issuer}#dave`));
});

test('scopes: a required scope missing is 403 insufficient_scope; a policy rule\'s scope decides a call', async () => {
  const resource = `${srv.url}/mcp`;
  const none = await userToken(op, { login: 'erin', resource, scope: 'crm:write' });
  const r = await post(srv, none);
  assert.equal(r.status, 403);
  const c = challengeOf(r);
  assert.equal(c.error, 'insufficient_scope');
  assert.equal(c.scope, 'mcp:tools', 'the scopes needed, for the client to step up');
  assert.match(c.resource_metadata, /oauth-protected-resource\/mcp$/);

  const plain = await userToken(op, { login: 'frank', resource, scope: 'mcp:tools' });
  const both = await userToken(op, { login: 'frank', resource, scope: 'mcp:tools crm:write' });
  const c1 = await tokenClient(srv, plain);
  const denied = await c1.callTool({ name: 'execute_code', arguments: { code: 'await state.set("x", 1); try { await state.delete("x"); return "deleted" } catch (e) { return e.name + ": " + e.message }' } });
  assert.match(denied.structuredContent.result, /ToolPolicyError: .*crm:write/, 'without crm:write the rule denies');
  const c2 = await tokenClient(srv, both);
  const allowed = await run(c2, 'await state.delete("x"); return "deleted"');
  assert.equal(allowed.result, 'deleted', 'with crm:write the rule allows');
  await Promise.all([c1.close(), c2.close()]);
});

test('bad tokens are refused with the right status and have no effect', async () => {
  const jwks = await startJwks();
  const s = await serve({ issuer: op.issuer, jwksUri: jwks.url }, { label: 'oauth-jwks', codemode: { logLevel: 'info' } });
  const aud = `${s.url}/mcp`;
  const now = Math.floor(Date.now() / 1000);
  const good = { iss: op.issuer, sub: 'mallory', aud, exp: now + 600, iat: now, scope: 'mcp:tools' };
  const ok = await post(s, await jwks.sign(good));
  assert.equal(ok.status, 200, `the control token works: ${ok.text}`);
  assert.equal((await post(s, await jwks.signEc(good))).status, 200, 'ES256 works too');
  const sig = await jwks.sign(good);
  const cases = {
    expired: await jwks.sign({ ...good, exp: now - 600, iat: now - 1200 }),
    'not yet valid': await jwks.sign({ ...good, nbf: now + 600 }),
    'wrong issuer': await jwks.sign({ ...good, iss: 'http://127.0.0.1:1/evil' }),
    'wrong audience': await jwks.sign({ ...good, aud: 'http://127.0.0.1:1/mcp' }),
    'bad signature': sig.slice(0, -6) + (sig.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA'),
    'alg none': unsigned(good),
    'HS256 with the RSA public key': hmacToken(good, jwks.rsaPem),
    'unknown kid': await jwks.sign(good, { header: { kid: 'nope' } }),
    'not a JWT': 'opaque-token-without-introspection',
  };
  const effect = (token) => post(s, token, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'await state.set("bad", 1); return 1' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'execute_code' });
  for (const [name, token] of Object.entries(cases)) {
    const r = await effect(token);
    assert.equal(r.status, 401, `${name}: ${r.status} ${r.text.slice(0, 200)}`);
    assert.equal(challengeOf(r).error, 'invalid_token', name);
  }
  const hits = jwks.state.hits;
  await Promise.all(Array.from({ length: 20 }, async (_, i) => post(s, await jwks.sign(good, { header: { kid: `burst-${i}` } }))));
  assert.ok(jwks.state.hits - hits <= 2, `a burst of unknown kids does not hammer the JWKS (${jwks.state.hits - hits} fetches)`);
  const huge = await post(s, 'a'.repeat(1024 * 1024)).catch((e) => ({ status: `error ${e.code}` }));
  assert.equal(huge.status, 431, 'a 1 MB token: the request head is too large');
  const big = await post(s, 'a'.repeat(16 * 1024));
  assert.equal(big.status, 401, 'a 16 KB token that fits the head: refused as a token');
  const check = await post(s, await jwks.sign(good), { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'return (await state.get("bad")) ?? null' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'execute_code' });
  assert.equal(JSON.parse(check.text).result.structuredContent.result, null, 'no refused request ran');

  // a token for another resource, from the real authorization server
  const other = await userToken(op, { login: 'alice', resource: 'http://127.0.0.1:1/other', scope: 'mcp:tools' });
  assert.equal((await post(srv, other)).status, 401, 'a token for another resource');
  await jwks.close();
});

test('the JWKS endpoint down: fail closed with a clear log line', async () => {
  const jwks = await startJwks();
  jwks.state.up = false;
  const s = await serve({ issuer: op.issuer, jwksUri: jwks.url }, { label: 'oauth-down', codemode: { logLevel: 'info' } });
  const now = Math.floor(Date.now() / 1000);
  const r = await post(s, await jwks.sign({ iss: op.issuer, sub: 'x', aud: `${s.url}/mcp`, exp: now + 600, iat: now }));
  assert.equal(r.status, 503, r.text);
  assert.match(s.stderr, /JWKS|jwks|keys/i);
  assert.match(s.stderr, new RegExp(jwks.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the log line names the JWKS URL');
  await jwks.close();
});

test('check --token shows the token\'s principal and the decisions for its scopes', async () => {
  const jwks = await startJwks();
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-codemode-oauth-check-'));
  const file = path.join(dir, 'config.json');
  const aud = 'https://mcp.example.com/mcp';
  writeFileSync(file, JSON.stringify({ mcpServers: {}, codemode: {
    http: { publicUrl: aud, oauth: { issuer: op.issuer, jwksUri: jwks.url } },
    state: { path: path.join(dir, 'state.db') },
    policy: { rules: { 'state.delete': { decision: 'allow', scope: 'crm:write' } } },
  } }));
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: op.issuer, sub: 'olivia', aud, exp: now + 600, iat: now, client_id: 'cli-1' };
  const without = await runBin(['check', '--token', await jwks.sign({ ...claims, scope: 'mcp:tools' }), file]);
  assert.equal(without.code, 0, without.stderr);
  assert.match(without.stdout, new RegExp(`token: valid: principal oauth:${op.issuer.replace(/[.]/g, '\\.')}#olivia, scopes: mcp:tools, client cli-1`));
  assert.match(without.stdout, /"state\.delete": allow with scope crm:write: deny \(the token lacks the scope\)/);
  const withScope = await runBin(['check', '--token', await jwks.sign({ ...claims, scope: 'mcp:tools crm:write' }), file]);
  assert.match(withScope.stdout, /"state\.delete": allow with scope crm:write: allow\n/);
  const refused = await runBin(['check', '--token', await jwks.sign({ ...claims, aud: 'https://other.example/mcp' }), file]);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout, /token: refused: .*aud/i);
  assertNoSanitizerReport(without.stderr + withScope.stderr + refused.stderr);
  await jwks.close();
});

test('mcp-remote signs in through the person and calls the server', async () => {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const proxy = path.join(path.dirname(new URL(import.meta.url).pathname), '../node_modules/mcp-remote/dist/proxy.js');
  const configDir = mkdtempSync(path.join(tmpdir(), 'mcp-remote-'));
  const callbackPort = await freePort();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [proxy, `${srv.url}/mcp`, String(callbackPort), '--allow-http', '--transport', 'http-only'],
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: '/bin/false', DISPLAY: '', PATH: '/nonexistent' },
    stderr: 'pipe',
  });
  let log = '';
  let signedIn;
  transport.stderr.on('data', (b) => {
    log += b;
    const m = /Please authorize this client by visiting:\s*(\S+)/.exec(log);
    if (m && !signedIn) signedIn = authorize(m[1], { login: 'remote-user', deliver: true });
  });
  const client = new Client({ name: 'e2e-mcp-remote', version: '1.0.0' });
  await client.connect(transport);
  assert.ok(signedIn, `mcp-remote asked for a sign-in:\n${log.slice(-2000)}`);
  await signedIn;
  const r = await client.callTool({ name: 'execute_code', arguments: { code: 'await state.set("via", "mcp-remote"); return await state.get("via")' } });
  assert.equal(r.structuredContent?.result, 'mcp-remote', JSON.stringify(r).slice(0, 500));
  await client.close();
});

test('rate limits count all of a user\'s sessions; a legacy SSE session refuses another user', async () => {
  const s = await serve({ issuer: op.issuer }, { label: 'oauth-limits', codemode: { sandbox: { maxConcurrentPerPrincipal: 1 } } });
  const resource = `${s.url}/mcp`;
  const [gina, hank] = await Promise.all([
    userToken(op, { login: 'gina', resource, scope: 'mcp:tools' }),
    userToken(op, { login: 'hank', resource, scope: 'mcp:tools' }),
  ]);
  const [g1, g2, h1] = await Promise.all([tokenClient(s, gina), tokenClient(s, gina), tokenClient(s, hank)]);
  await Promise.all([run(g1, 'return 1'), run(g2, 'return 1'), run(h1, 'return 1')]); // warm workers
  const t0 = Date.now();
  const slow = run(g1, 'await sleep(1500); return "slow"');
  await new Promise((r) => setTimeout(r, 200));
  const other = run(h1, 'return "hank"').then((v) => ({ v, ms: Date.now() - t0 }));
  const same = run(g2, 'return "gina again"').then((v) => ({ v, ms: Date.now() - t0 }));
  const [sl, ot, sa] = await Promise.all([slow, other, same]);
  assert.equal(sl.result, 'slow');
  assert.ok(ot.ms < 1200, `another user is not held up by gina's limit (${ot.ms} ms)`);
  assert.ok(sa.ms >= 1400, `gina's second session waits for her first one's execution (${sa.ms} ms)`);
  await Promise.all([g1.close(), g2.close(), h1.close()]);

  // legacy SSE: the session belongs to the token's user
  const { request } = await import('./lib/http.mjs');
  const ac = new AbortController();
  let endpoint;
  const got = new Promise((resolve) => {
    request(s, { method: 'GET', path: '/sse', headers: { Accept: 'text/event-stream', Authorization: `Bearer ${gina}` }, wire: null, signal: ac.signal, onEvent: (e) => { if (e.event === 'endpoint') { endpoint = e.data; resolve(); } } }).catch(() => {});
  });
  await got;
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const theirs = await fetchAll(s, { path: endpoint, headers: { ...JSON_HEADERS, Authorization: `Bearer ${hank}` }, body: init, wire: null });
  assert.equal(theirs.status, 403, 'another user cannot post to gina\'s SSE session');
  const mine = await fetchAll(s, { path: endpoint, headers: { ...JSON_HEADERS, Authorization: `Bearer ${gina}` }, body: init, wire: null });
  assert.equal(mine.status, 202);
  ac.abort();
});

test('a request waiting for the keys when the server stops: it ends cleanly', async () => {
  const jwks = await startJwks();
  jwks.state.hang = true;
  const s = await serve({ issuer: op.issuer, jwksUri: jwks.url }, { label: 'oauth-hang', codemode: { http: { drainTimeoutMs: 300 } } });
  const now = Math.floor(Date.now() / 1000);
  const pending = post(s, await jwks.sign({ iss: op.issuer, sub: 'x', aud: `${s.url}/mcp`, exp: now + 600, iat: now })).catch((e) => ({ error: e }));
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(jwks.state.hits >= 1, 'the server asked for the keys');
  const e = await s.stop();
  assert.equal(e.code, 0, s.stderr.slice(-2000));
  const r = await pending;
  assert.ok(r.error || r.status === 503, `the waiting request was answered 503 or its connection closed: ${r.status}`);
  await jwks.close();
});

test('the inbound token is never sent downstream: the downstream server gets its own credentials', async () => {
  const { spawn } = await import('node:child_process');
  const { listening } = await import('./lib/ports.mjs');
  const port = await freePort();
  const fixture = path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/servers/http-mcp.mjs');
  const ds = spawn(process.execPath, [fixture, '--mode', 'streamable', '--port', String(port), '--token', 'downstream-own'], { stdio: 'ignore' });
  try {
    await listening(port);
    const s = await serve({ issuer: op.issuer }, {
      label: 'oauth-downstream',
      mcpServers: { fix: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: 'Bearer downstream-own' } } },
    });
    const token = await userToken(op, { login: 'ivy', resource: `${s.url}/mcp`, scope: 'mcp:tools' });
    const c = await tokenClient(s, token);
    const seen = (await run(c, 'return await tools.fix.headers({})')).result;
    const headers = typeof seen === 'string' ? JSON.parse(seen) : seen;
    assert.equal(headers.authorization, 'Bearer downstream-own', 'the downstream server got its own credentials');
    assert.ok(!JSON.stringify(headers).includes(token), 'the user\'s token is not in the downstream request');
    assert.ok(!JSON.stringify(headers).includes(token.split('.')[1]), 'not even a part of it');
    await c.close();
  } finally {
    ds.kill();
  }
});

test('an idle user\'s stateless server is let go and comes back with their state', async () => {
  const s = await serve({ issuer: op.issuer }, { label: 'oauth-idle', codemode: { http: { sessionTimeoutMs: 1000 } } });
  const token = await userToken(op, { login: 'jill', resource: `${s.url}/mcp`, scope: 'mcp:tools' });
  const call = (code) => post(s, token, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'execute_code', arguments: { code }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'execute_code' });
  const first = JSON.parse((await call('await state.set("kept", 1); return 1')).text).result.structuredContent;
  await new Promise((r) => setTimeout(r, 2500)); // past the timeout and a tick or two
  const again = JSON.parse((await call('return await state.get("kept")')).text).result.structuredContent;
  assert.equal(again.result, 1, 'the state is the user\'s, not the server\'s');
  assert.notEqual(again.stats.workerPid, first.stats.workerPid, 'the idle server and its worker were let go');
});

test('oauth on every address without publicUrl: a clear error at start', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-codemode-oauth-wild-'));
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ mcpServers: {}, codemode: { http: { oauth: { issuer: op.issuer } }, state: { path: path.join(dir, 'state.db') } } }));
  const r = await runBin(['--http', '0.0.0.0:0', file], { timeout: 15000 });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /set codemode\.http\.publicUrl to the URL clients use for \/mcp/);
  assertNoSanitizerReport(r.stderr);
});

test('an audience other than publicUrl: tokens name it, the metadata still names publicUrl', async () => {
  const jwks = await startJwks();
  const pub = 'https://mcp.example.com/mcp';
  const s = await serve({ issuer: op.issuer, jwksUri: jwks.url, audience: 'api://codemode' }, { label: 'oauth-audience', codemode: { http: { publicUrl: pub, allowedOrigins: ['https://mcp.example.com'] } } });
  const m = await (await fetch(`${s.url}/.well-known/oauth-protected-resource/mcp`)).json();
  assert.equal(m.resource, pub);
  const r401 = await post(s, undefined);
  assert.equal(challengeOf(r401).resource_metadata, 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: op.issuer, sub: 'kim', exp: now + 600, iat: now };
  assert.equal((await post(s, await jwks.sign({ ...claims, aud: 'api://codemode' }))).status, 200);
  assert.equal((await post(s, await jwks.sign({ ...claims, aud: ['https://elsewhere', 'api://codemode'] }))).status, 200, 'one of several audiences');
  assert.equal((await post(s, await jwks.sign({ ...claims, aud: pub }))).status, 401, 'the URL is not the audience here');
  await jwks.close();
});
