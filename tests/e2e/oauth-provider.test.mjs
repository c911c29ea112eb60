// OAuth against a real authorization server (docs/oauth.md): npm
// oidc-provider in front of an MCP server built with the official SDK that
// requires its JWT access tokens bound to the resource
// (tests/fixtures/oauth/bed.mjs). The person (tests/fixtures/oauth/person.mjs)
// answers the provider's login and consent forms, as $BROWSER or from the
// printed URL with --no-browser. Covers dynamic registration, a pre-registered
// client, a Client ID Metadata Document, PKCE S256, resource and iss, refresh
// with rotation, a revoked
// refresh token, step-up scopes, client credentials, revocation at logout,
// over Streamable HTTP and legacy SSE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import { tempDir, writeConfig, runBin, assertNoSanitizerReport, serve, valueOf, assertClean } from './lib/downstream.mjs';
import { loginPasted as pastedLogin, PERSON, startBed } from './lib/oauth-client.mjs';
import { freePort } from './lib/ports.mjs';
import { authorize } from '../fixtures/oauth/person.mjs';

const browserEnv = { ...process.env, BROWSER: PERSON };

function setup(url, oauth = {}, extra = {}) {
  const dir = tempDir('codemode-op-');
  const file = writeConfig(dir, {
    mcpServers: { notes: { url, ...(url.endsWith('/sse') ? { type: 'sse' } : {}), oauth }, ...extra },
    codemode: { state: { path: path.join(dir, 'state.db') } },
  });
  return { dir, file };
}

async function program(dir, file, code, env) {
  const p = path.join(dir, `p${Math.random().toString(36).slice(2)}.js`);
  fs.writeFileSync(p, code);
  const r = await runBin(['run', p, file, '--json'], { timeout: 60000, env });
  assertNoSanitizerReport(r.stderr);
  return r;
}

const WHOAMI = 'const r = await tools.notes.whoami({}); r.content ? r.content[0].text : r';
const resultOf = (r) => JSON.parse(r.stdout).result;

async function login(file, env = browserEnv) {
  const r = await runBin(['login', 'notes', file], { env, timeout: 30000 });
  assertNoSanitizerReport(r.stderr);
  return r;
}

/** login --no-browser: the person opens the printed URL elsewhere, the redirect is pasted. */
function loginPasted(file, person = {}) {
  return pastedLogin('notes', file, /(http:\/\/\S+\/auth\?\S+)/,
    async (url) => (await authorize(url, { ...person, deliver: false })).redirect);
}

test('dynamic registration, PKCE S256, resource and iss through $BROWSER over Streamable HTTP', async (t) => {
  const b = await startBed(t);
  const { dir, file } = setup(b.mcp);
  const r = await login(file);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`logged in to notes at ${b.issuer} \\(the token refreshes itself\\)`));
  const { provider } = await b.log();
  const reg = provider.filter((e) => e.event === 'register');
  assert.equal(reg.length, 1);
  assert.equal(reg[0].applicationType, 'native');
  const auth = provider.find((e) => e.event === 'authorize');
  assert.equal(auth.codeChallengeMethod, 'S256');
  assert.equal(auth.resource, b.mcp);
  assert.equal(auth.scope, 'notes:read notes:write'); // the resource's scopes_supported
  const grant = provider.find((e) => e.event === 'grant');
  assert.equal(grant.grantType, 'authorization_code');
  assert.equal(grant.resource, b.mcp);
  const check = await runBin(['check', file]);
  assert.match(check.stdout, /notes: ready, protocol 2025-11-25 over http, protected-notes/);
  assert.match(check.stdout, new RegExp(`login: logged in at ${b.issuer} \\(until `));
  const run = await program(dir, file, WHOAMI);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  assert.equal(resultOf(run), 'you are alice with notes:read notes:write');
  // a second login reuses the registration kept for the issuer
  assert.equal((await login(file)).code, 0);
  assert.equal((await b.log()).provider.filter((e) => e.event === 'register').length, 1);
});

test('--no-browser over legacy SSE: the pasted redirect completes the login', async (t) => {
  const b = await startBed(t);
  const { dir, file } = setup(b.sse);
  const r = await loginPasted(file, { login: 'bob' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.redirect, /^http:\/\/127\.0\.0\.1:\d+\/callback\?code=.*&iss=/); // RFC 9207
  assert.match(r.url, new RegExp(`resource=${encodeURIComponent(b.sse)}`));
  const run = await program(dir, file, WHOAMI);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  assert.equal(resultOf(run), 'you are bob with notes:read notes:write');
});

test('a pre-registered confidential client with a fixed redirect port and configured scopes', async (t) => {
  const port = await freePort();
  const b = await startBed(t, {
    registration: false,
    clients: [{
      client_id: 'codemode-app', client_secret: 'app-secret-1',
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic', // what RFC 8414 says to use by default
    }],
  });
  const { dir, file } = setup(b.mcp, { clientId: '${APP_ID}', clientSecret: '${APP_SECRET}', redirectPort: port, scopes: ['notes:read'] });
  const env = { ...browserEnv, APP_ID: 'codemode-app', APP_SECRET: 'app-secret-1' };
  const r = await runBin(['login', 'notes', file], { env, timeout: 30000 });
  assert.equal(r.code, 0, r.stderr);
  const { provider } = await b.log();
  assert.equal(provider.filter((e) => e.event === 'register').length, 0);
  assert.equal(provider.find((e) => e.event === 'grant').clientId, 'codemode-app');
  const run = await program(dir, file, WHOAMI, env);
  assert.equal(resultOf(run), 'you are alice with notes:read');
  // without dynamic registration and without clientId: what to configure
  const { file: bare } = setup(b.mcp);
  const r2 = await login(bare);
  assert.equal(r2.code, 1);
  assert.match(r2.stderr, /server notes: authorization server .* offers no dynamic client registration.*clientId/);
});

test('a Client ID Metadata Document: the provider fetches it, no registration, the URL is the client_id', async (t) => {
  const port = await freePort();
  const id = 'https://client.example.test/mcp-codemode.json';
  const b = await startBed(t, {
    registration: false,
    clientMetadataDocuments: {
      [id]: {
        client_id: id, client_name: 'mcp-codemode', application_type: 'native',
        redirect_uris: [`http://127.0.0.1:${port}/callback`],
        grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
    },
  });
  const { dir, file } = setup(b.mcp, { clientMetadataUrl: id, redirectPort: port });
  const r = await login(file);
  assert.equal(r.code, 0, r.stderr);
  const { provider } = await b.log();
  assert.equal(provider.filter((e) => e.event === 'register').length, 0);
  assert.deepEqual(provider.filter((e) => e.event === 'cimd.fetch').map((e) => e.url).slice(0, 1), [id]);
  assert.equal(provider.find((e) => e.event === 'authorize').clientId, id);
  assert.equal(provider.find((e) => e.event === 'grant').clientId, id);
  assert.match(resultOf(await program(dir, file, WHOAMI)), /^you are alice/);
});

test('refresh with rotation: expired tokens are refreshed at each start, each refresh token spent once', async (t) => {
  const b = await startBed(t, { accessTokenTTL: 2, rotateRefreshToken: true });
  const { dir, file } = setup(b.mcp);
  assert.equal((await login(file)).code, 0);
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 2100));
    const run = await program(dir, file, WHOAMI);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(resultOf(run), /^you are alice/);
  }
  const { provider } = await b.log();
  const refreshes = provider.filter((e) => e.event === 'grant' && e.grantType === 'refresh_token');
  assert.ok(refreshes.length >= 3, JSON.stringify(provider));
  assert.equal(provider.filter((e) => e.event === 'grant.error').length, 0, JSON.stringify(provider));
  assert.equal(provider.filter((e) => e.event === 'refresh_token.consumed').length, refreshes.length);
});

test('a revoked refresh token: one refused refresh, ToolAuthError naming login, no loop; login again works', async (t) => {
  const b = await startBed(t, { accessTokenTTL: 3 });
  const { dir, file } = setup(b.mcp);
  assert.equal((await login(file)).code, 0);
  await fetch(`${b.control}/revoke-refresh`, { method: 'POST' });
  await new Promise((r) => setTimeout(r, 3100));
  const run = await program(dir, file, `let out = 'no error';
    for (let i = 0; i < 3; i++) {
      try { await tools.notes.whoami({}); } catch (e) { out = [e.name, e instanceof ToolError, e.message]; }
    }
    out`);
  const [name, isToolError, message] = resultOf(run);
  assert.equal(name, 'ToolAuthError', run.stdout);
  assert.equal(isToolError, true);
  assert.match(message, /run: mcp-codemode login notes$/);
  const { provider } = await b.log();
  const refused = provider.filter((e) => e.event === 'grant.error' && e.grantType === 'refresh_token');
  assert.equal(refused.length, 1, JSON.stringify(provider)); // once, not in a loop
  assert.equal(refused[0].error, 'invalid_grant');
  assert.match((await runBin(['check', file])).stdout, /login: needs login: mcp-codemode login notes/);
  assert.equal((await login(file)).code, 0);
  const after = await program(dir, file, WHOAMI);
  assert.match(resultOf(after) ?? after.stdout, /^you are alice/);
});

const ccClient = (id, method, extra = {}) => ({
  client_id: id, grant_types: ['client_credentials'], response_types: [], redirect_uris: [],
  token_endpoint_auth_method: method, scope: 'notes:read', ...extra,
});

for (const [method, offered] of [
  ['client_secret_basic', undefined],
  ['client_secret_post', ['client_secret_post', 'private_key_jwt']],
]) {
  test(`client credentials with ${method}: no login, a new token whenever one expires`, async (t) => {
    const b = await startBed(t, { accessTokenTTL: 2, clientAuthMethods: offered, clients: [ccClient('robot', method, { client_secret: 'robot-secret-123' })] });
    const { dir, file } = setup(b.mcp, { grant: 'client_credentials', clientId: 'robot', clientSecret: '${ROBOT_SECRET}', scopes: ['notes:read'] });
    const env = { ...process.env, ROBOT_SECRET: 'robot-secret-123' };
    const first = await program(dir, file, WHOAMI, env);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    assert.equal(resultOf(first), 'you are robot with notes:read');
    await new Promise((r) => setTimeout(r, 2100));
    assert.equal(resultOf(await program(dir, file, WHOAMI, env)), 'you are robot with notes:read');
    const { provider } = await b.log();
    const grants = provider.filter((e) => e.event === 'grant');
    assert.equal(grants.length, 2, JSON.stringify(provider));
    assert.ok(grants.every((g) => g.grantType === 'client_credentials' && g.resource === b.mcp));
    assert.equal(provider.filter((e) => e.event === 'grant.error').length, 0);
    // `login` does the same, without a person
    const l = await runBin(['login', 'notes', file], { env });
    assert.equal(l.code, 0, l.stderr);
    assert.match(l.stdout, /got a token for notes from .* with the client credentials grant/);
    // a wrong secret: a clear error naming the server, the call fails with ToolAuthError
    const bad = await program(dir, setup(b.mcp, { grant: 'client_credentials', clientId: 'robot', clientSecret: 'wrong', scopes: ['notes:read'] }).file,
      `let out = 'no error'; try { await tools.notes.whoami({}); } catch (e) { out = [e.name, e.message]; } out`);
    const [name, message] = resultOf(bad);
    assert.equal(name, 'ToolAuthError', bad.stdout);
    assert.match(message, /invalid_client/);
  });
}

for (const [kind, options] of [['rsa', { modulusLength: 2048 }], ['ec', { namedCurve: 'P-256' }], ['ed25519', {}]]) {
  test(`client credentials with private_key_jwt (${kind} key) over SSE`, async (t) => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync(kind, options);
    const jwk = { ...publicKey.export({ format: 'jwk' }), use: 'sig' };
    const b = await startBed(t, { clients: [ccClient('signer', 'private_key_jwt', { jwks: { keys: [jwk] } })] });
    const dir0 = tempDir('codemode-key-');
    const keyFile = path.join(dir0, 'key.pem');
    fs.writeFileSync(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    const { dir, file } = setup(b.sse, { grant: 'client_credentials', clientId: 'signer', privateKeyFile: keyFile, scopes: ['notes:read'] });
    const r = await program(dir, file, WHOAMI);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(resultOf(r), 'you are signer with notes:read');
    const { provider } = await b.log();
    assert.equal(provider.filter((e) => e.event === 'grant' && e.grantType === 'client_credentials').length, 1);
  });
}

test('logout revokes the tokens at the revocation endpoint (RFC 7009)', async (t) => {
  const b = await startBed(t);
  const { file } = setup(b.mcp);
  assert.equal((await login(file)).code, 0);
  const out = await runBin(['logout', 'notes', file]);
  assertNoSanitizerReport(out.stderr);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, 'logged out of notes; its tokens were revoked\n');
  const revoked = (await b.log()).provider.filter((e) => e.event === 'revoke');
  assert.ok(revoked.some((e) => e.kind === 'RefreshToken'), JSON.stringify(revoked));
  assert.equal((await runBin(['logout', 'notes', file])).stdout, 'notes was not logged in\n');
  // a server without a revocation endpoint: forgotten only
  const b2 = await startBed(t, { revocation: false });
  const { file: f2 } = setup(b2.mcp);
  assert.equal((await login(f2)).code, 0);
  assert.equal((await runBin(['logout', 'notes', f2])).stdout, 'logged out of notes\n');
});

test('during a session the token is refreshed before it expires: no 401, no reconnection', async (t) => {
  const b = await startBed(t, { accessTokenTTL: 4 });
  const { file } = setup(b.mcp);
  assert.equal((await login(file)).code, 0);
  const probes = (await b.log()).mcp.rejected; // login's unauthenticated probe
  const h = await serve(file);
  t.after(() => h.close());
  for (let i = 0; i < 4; i++) {
    assert.match(valueOf(await h.exec(WHOAMI)), /^you are alice/);
    await new Promise((r) => setTimeout(r, 1500));
  }
  const { provider, mcp } = await b.log();
  const refreshes = provider.filter((e) => e.event === 'grant' && e.grantType === 'refresh_token');
  assert.ok(refreshes.length >= 2, JSON.stringify(provider));
  assert.equal(mcp.rejected, probes, 'a request was answered 401');
  assert.equal(provider.filter((e) => e.event === 'grant.error').length, 0);
  await h.close();
  await assertClean(h);
});

const WRITE = `let out;
  try { const r = await tools.notes.write_note({ text: 'hi' }); out = r.content ? r.content[0].text : r; }
  catch (e) { out = [e.name, e.message]; }
  const who = await tools.notes.whoami({});
  [out, who.content ? who.content[0].text : who]`;

for (const kind of ['mcp', 'sse']) {
  test(`step-up over ${kind}: 403 insufficient_scope gives ToolAuthError; the next login asks for the union, once`, async (t) => {
    const b = await startBed(t, { toolScopes: { write_note: 'notes:write' } });
    const { dir, file } = setup(b[kind], { scopes: ['notes:read'] });
    assert.equal((await login(file)).code, 0);
    const first = resultOf(await program(dir, file, WRITE));
    assert.equal(first[0][0], 'ToolAuthError', JSON.stringify(first));
    assert.match(first[0][1], /needs scope "notes:read notes:write".*a new login asks for "notes:read notes:write"\); run: mcp-codemode login notes$/);
    assert.equal(first[1], 'you are alice with notes:read'); // the other calls go on
    assert.equal((await login(file)).code, 0);
    const auths = (await b.log()).provider.filter((e) => e.event === 'authorize');
    assert.equal(auths.at(-1).scope, 'notes:read notes:write');
    const second = resultOf(await program(dir, file, WRITE));
    assert.deepEqual(second, ['written: hi', 'you are alice with notes:read notes:write']);
  });
}

test('step-up is bounded: a scope the provider does not grant is not asked for again and again', async (t) => {
  const b = await startBed(t, { scopes: ['notes:read'], scopesSupported: ['notes:read'], toolScopes: { write_note: 'notes:write' } });
  const { dir, file } = setup(b.mcp);
  assert.equal((await login(file)).code, 0);
  const first = resultOf(await program(dir, file, WRITE));
  assert.equal(first[0][0], 'ToolAuthError', JSON.stringify(first));
  const again = await login(file);
  assert.equal(again.code, 0, again.stderr);
  const second = resultOf(await program(dir, file, WRITE));
  assert.equal(second[0][0], 'ToolError', JSON.stringify(second));
  assert.match(second[0][1], /still needs scope .*notes:write.* after a login that asked for it/);
  assert.doesNotMatch(second[0][1], /run: mcp-codemode login/);
  assert.equal(second[1], 'you are alice with notes:read');
});

test('a server that needs a login keeps the tools it listed before declared, marked as needing login', async (t) => {
  const b = await startBed(t);
  const { dir, file } = setup(b.mcp);
  assert.equal((await login(file)).code, 0);
  assert.match(resultOf(await program(dir, file, WHOAMI)), /^you are alice/); // lists its tools
  assert.equal((await runBin(['logout', 'notes', file])).code, 0);
  const types = await runBin(['types', file]);
  assertNoSanitizerReport(types.stderr);
  assert.match(types.stdout, /Needs login: mcp-codemode login notes[^\n]*\n[^]*whoami/);
  const r = await program(dir, file, `let out = 'no error';
    try { await tools.notes.whoami({}); } catch (e) { out = [e.name, e.message, e.tool]; }
    out`);
  const [name, message, tool] = resultOf(r);
  assert.equal(name, 'ToolAuthError', r.stdout);
  assert.equal(tool, 'notes.whoami');
  assert.match(message, /run: mcp-codemode login notes$/);
});

test('two processes sharing one state database, tokens expiring every 2 s with rotation, 200 calls each: no invalid_grant, no lost token', { timeout: 90000 }, async (t) => {
  const b = await startBed(t, { accessTokenTTL: 2, rotateRefreshToken: true });
  const { dir, file } = setup(b.mcp);
  assert.equal((await login(file)).code, 0);
  const code = `let ok = 0, failed = [];
    for (let i = 0; i < 200; i++) {
      try { const r = await tools.notes.whoami({}); if (/^you are alice/.test(r.content ? r.content[0].text : r)) ok++; }
      catch (e) { failed.push(e.name + ': ' + e.message); }
      await sleep(30);
    }
    [ok, failed.slice(0, 3)]`;
  const [a, c] = await Promise.all([program(dir, file, code), program(dir, file, code)]);
  for (const r of [a, c]) assert.deepEqual(resultOf(r), [200, []], r.stdout + r.stderr);
  const { provider } = await b.log();
  const refreshes = provider.filter((e) => e.event === 'grant' && e.grantType === 'refresh_token');
  assert.ok(refreshes.length >= 4, `${refreshes.length} refreshes`);
  assert.deepEqual(provider.filter((e) => e.event === 'grant.error'), []);
  assert.equal(provider.filter((e) => e.event === 'refresh_token.consumed').length, refreshes.length);
});
