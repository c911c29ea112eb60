// The HTTP endpoint as an OAuth protected resource (docs/http-oauth.md), for
// the e2e tests: a server configured with codemode.http.oauth, access tokens
// of real users from oidc-provider (tests/fixtures/oauth/provider.mjs) through
// the authorization code flow with PKCE (the person answering its forms is
// tests/fixtures/oauth/person.mjs), tokens the test signs itself against a
// JWKS it serves (for the bad-token cases), and an SDK client with a token.
import crypto from 'node:crypto';
import http from 'node:http';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair } from 'jose';
import { authorize } from '../../fixtures/oauth/person.mjs';
import { HttpServer } from './http.mjs';

/** Starts mcp-codemode over HTTP with codemode.http.oauth (and other codemode settings). */
export async function startProtected(oauth, { codemode = {}, mcpServers = {}, args = [], label = 'oauth' } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-codemode-oauth-'));
  const file = path.join(dir, 'config.json');
  const cm = { ...codemode, http: { ...(codemode.http ?? {}), oauth }, state: { path: path.join(dir, 'state.db'), ...(codemode.state ?? {}) } };
  writeFileSync(file, JSON.stringify({ mcpServers, codemode: cm }));
  const server = await HttpServer.start([...args, file], { label });
  server.dir = dir;
  return server;
}

let registered = new Map();

/** An access token of user `login` for `resource` with `scope`, from the provider's code flow. */
export async function userToken(op, { login, resource, scope }) {
  const meta = await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json();
  const redirect = 'http://127.0.0.1:9/callback';
  let client = registered.get(op.issuer);
  if (!client) {
    const r = await fetch(meta.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirect], application_type: 'native', token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }),
    });
    client = await r.json();
    if (!client.client_id) throw new Error(`registration: ${JSON.stringify(client)}`);
    registered.set(op.issuer, client);
  }
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const u = new URL(meta.authorization_endpoint);
  u.search = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: redirect, scope, resource, code_challenge: challenge, code_challenge_method: 'S256', state: 'st' }).toString();
  const { redirect: back } = await authorize(u.href, { login, deliver: false });
  const code = new URL(back).searchParams.get('code');
  if (!code) throw new Error(`no code: ${back}`);
  const t = await (await fetch(meta.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: client.client_id, code_verifier: verifier, resource }),
  })).json();
  if (!t.access_token) throw new Error(`token: ${JSON.stringify(t)}`);
  return t.access_token;
}

/** An SDK client (its own Streamable HTTP session) with a bearer token. */
export async function tokenClient(server, token, name = 'e2e-oauth') {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/** execute_code through an SDK client: the result's structuredContent. */
export async function run(client, code) {
  const r = await client.callTool({ name: 'execute_code', arguments: { code } });
  if (r.isError) throw new Error(`execute_code failed: ${JSON.stringify(r.content).slice(0, 500)}`);
  return r.structuredContent;
}

/**
 * A JWKS the test controls, served on loopback (kid "k1": RSA; an EC key
 * "k2"), and a signer of tokens with any claims. up=false answers 503.
 */
export async function startJwks() {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const ec = await generateKeyPair('ES256', { extractable: true });
  const pub = [
    { ...(await exportJWK(rsa.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(ec.publicKey)), kid: 'k2', alg: 'ES256', use: 'sig' },
  ];
  const state = { up: true, hang: false, hits: 0 };
  const server = http.createServer((req, res) => {
    state.hits++;
    if (state.hang) return; // never answers (until close)
    if (!state.up) { res.writeHead(503); res.end('down'); return; }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: pub }));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/jwks`;
  return {
    url,
    state,
    rsaPem: await exportSPKI(rsa.publicKey),
    /** A token signed with the RSA key (kid k1 unless header says otherwise). */
    async sign(claims, { header = {}, key = rsa.privateKey, alg = 'RS256' } = {}) {
      return new SignJWT(claims).setProtectedHeader({ alg, kid: 'k1', typ: 'at+jwt', ...header }).sign(key);
    },
    async signEc(claims) {
      return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'k2', typ: 'at+jwt' }).sign(ec.privateKey);
    },
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
  };
}

/** An unsigned token ({"alg":"none"}). */
export function unsigned(claims, header = { alg: 'none', typ: 'JWT' }) {
  const b = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b(header)}.${b(claims)}.`;
}

/** HS256 "signed" with a secret (the RSA public key's PEM: the key-confusion attack). */
export function hmacToken(claims, secret, kid = 'k1') {
  const b = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${b({ alg: 'HS256', typ: 'JWT', kid })}.${b(claims)}`;
  return `${head}.${crypto.createHmac('sha256', secret).update(head).digest('base64url')}`;
}
