// Logging in while a call waits, where no server-to-client request can be
// sent (docs/oauth.md, issue 28): a remote server that needs an OAuth login
// (npm oidc-provider in front of an SDK MCP server, tests/fixtures/oauth/
// bed.mjs), called by a program of
// - a stateless 2026-07-28 request over Streamable HTTP whose per-request
//   capabilities declare elicitation.url: the call is answered
//   input_required with an `elicitation/create` in URL mode among its
//   inputRequests; the person (tests/fixtures/oauth/person.mjs) follows the
//   URL, the redirect comes back on the loopback listener, and the retry
//   with an accepting inputResponse gets the program's result with the
//   protected server's real answer (the person's time not counted against
//   timeoutMs); decline and cancel give ToolAuthError naming the login
//   command; a malformed answer is refused and the requestState stays good;
//   a request without elicitation.url gets ToolAuthError at once;
// - `mcp-codemode run` with $BROWSER playing the person: the login happens
//   as `mcp-codemode login` does it and the program completes; without a
//   person (no terminal, no $BROWSER) or with --no-login: ToolAuthError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { authorize } from '../fixtures/oauth/person.mjs';
import { assertNoSanitizerReport, runBin, tempDir, writeConfig } from './lib/downstream.mjs';
import { CLIENT_CAPABILITIES_KEY, HttpServer, modernCall } from './lib/http.mjs';
import { PERSON, assertLoginAsk, loggedOut, startBed as bed } from './lib/oauth-client.mjs';
import { freePort } from './lib/ports.mjs';
import { Wire } from './lib/wire.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ALICE = 'you are alice with notes:read notes:write';
const WHOAMI = 'const r = await tools.notes.whoami({}); return r.content ? r.content[0].text : r';
const CAUGHT = `try { await tools.notes.whoami({}); return 'no error'; } catch (e) { return [e.name, e instanceof ToolError, e.message]; }`;
const URL_CAPS = { elicitation: { url: {} } };

/**
 * mcp-codemode over HTTP on the config `file` (more arguments: args; stopped
 * after test t), and
 * call(code, extra, opts): one stateless execute_code request (extra: more
 * params, such as requestState and inputResponses; opts.caps: the declared
 * client capabilities, opts.timeoutMs), resolving with its last message.
 */
async function serve(t, file, args = []) {
  const srv = await HttpServer.start(['--config', file, '--pool-size', '2', ...args], { label: 'login stateless' });
  t.after(async () => {
    await srv.stop();
    assertNoSanitizerReport(srv.stderr);
  });
  const wire = new Wire('login stateless');
  let id = 0;
  const call = async (code, extra = {}, { caps = URL_CAPS, timeoutMs } = {}) => {
    const args = { code, ...(timeoutMs ? { timeoutMs } : {}) };
    const r = await modernCall(srv, wire, 'tools/call', { name: 'execute_code', arguments: args, ...extra },
      { id: ++id, meta: { [CLIENT_CAPABILITIES_KEY]: caps }, headers: { Connection: 'close' } });
    return r.messages.at(-1);
  };
  return { srv, call };
}

/** The one login request of an input_required result: [key, params]. */
function loginRequest(m) {
  const res = m.result;
  assert.equal(res?.resultType, 'input_required', JSON.stringify(m));
  assert.match(res.requestState, /^[0-9a-f]{32}$/);
  const keys = Object.keys(res.inputRequests);
  assert.equal(keys.length, 1, JSON.stringify(res.inputRequests));
  assert.match(keys[0], /^login-\d+$/);
  const q = res.inputRequests[keys[0]];
  assert.equal(q.method, 'elicitation/create');
  assert.equal(q.params.mode, 'url');
  return [keys[0], q.params];
}

test('stateless: input_required with the URL elicitation, the person logs in, the retry with accept gets the real result', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const { call } = await serve(t, file);
  const m1 = await call(WHOAMI, {}, { timeoutMs: 1500 });
  const [key, q] = loginRequest(m1);
  assertLoginAsk(q, b);
  await sleep(2000); // longer than timeoutMs: the program's clock is stopped
  const { redirect } = await authorize(q.url);
  assert.match(redirect, /^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
  const m2 = await call(WHOAMI, { requestState: m1.result.requestState, inputResponses: { [key]: { action: 'accept' } } }, { timeoutMs: 1500 });
  assert.equal(m2.result?.resultType, 'complete', JSON.stringify(m2));
  assert.equal(m2.result.isError, undefined, JSON.stringify(m2.result));
  assert.equal(m2.result.structuredContent.result, ALICE);
  // the tokens were stored: the next call needs no login
  const m3 = await call(WHOAMI);
  assert.equal(m3.result?.resultType, 'complete', JSON.stringify(m3));
  assert.equal(m3.result.structuredContent.result, ALICE);
  // the requestState was good once
  const replay = await call(WHOAMI, { requestState: m1.result.requestState, inputResponses: { [key]: { action: 'accept' } } });
  assert.equal(replay.error?.code, -32602);
  assert.match(replay.error.message, /requestState is unknown, expired or already used/);
});

test('stateless: a server never logged in to (a fresh state database): the first call of any name logs in, then meets the real list', async (t) => {
  const b = await bed(t);
  const dir = tempDir('codemode-stateless-first-');
  const file = writeConfig(dir, {
    mcpServers: { notes: { url: b.mcp, oauth: {} } },
    codemode: { state: { path: path.join(dir, 'state.db') } },
  });
  const { call } = await serve(t, file);
  const prog = `const w = await tools.notes.whoami({});
    let typo;
    try { await tools.notes.whoam({}); typo = 'no error'; } catch (e) { typo = e.message; }
    return [w.content ? w.content[0].text : w, typo];`;
  const m1 = await call(prog);
  const [key, q] = loginRequest(m1);
  assert.equal(new URL(q.url).origin, b.issuer);
  await authorize(q.url);
  const m2 = await call(prog, { requestState: m1.result.requestState, inputResponses: { [key]: { action: 'accept' } } });
  assert.equal(m2.result?.resultType, 'complete', JSON.stringify(m2));
  const [who, typo] = m2.result.structuredContent.result;
  assert.equal(who, ALICE);
  assert.match(typo, /^Unknown tool "notes\.whoam"\. Did you mean: notes\.whoami/);
});

test('stateless with codemode.http.publicUrl: the person comes back to /oauth/callback of our own endpoint', async (t) => {
  const b = await bed(t);
  const port = await freePort();
  const { file } = await loggedOut(b, { http: { publicUrl: `http://127.0.0.1:${port}/mcp` } });
  const { call } = await serve(t, file, ['--http', `127.0.0.1:${port}`]);
  const m1 = await call(WHOAMI);
  const [key, q] = loginRequest(m1);
  assert.equal(new URL(q.url).searchParams.get('redirect_uri'), `http://127.0.0.1:${port}/oauth/callback`);
  const { redirect } = await authorize(q.url);
  assert.match(redirect, new RegExp(`^http://127\\.0\\.0\\.1:${port}/oauth/callback\\?code=`));
  const m2 = await call(WHOAMI, { requestState: m1.result.requestState, inputResponses: { [key]: { action: 'accept' } } });
  assert.equal(m2.result?.resultType, 'complete', JSON.stringify(m2));
  assert.equal(m2.result.structuredContent.result, ALICE);
});

test('stateless: the retry comes first and waits for the person; the program goes on once logged in', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const { call } = await serve(t, file);
  const code = `const a = await tools.notes.whoami({}); const b = await tools.notes.whoami({});
    return [a, b].map((x) => x.content ? x.content[0].text : x)`;
  const m1 = await call(code);
  const [key, q] = loginRequest(m1);
  const retry = call(code, { requestState: m1.result.requestState, inputResponses: { [key]: { action: 'accept' } } });
  await sleep(500);
  await authorize(q.url);
  const m2 = await retry;
  assert.equal(m2.result?.resultType, 'complete', JSON.stringify(m2));
  assert.deepEqual(m2.result.structuredContent.result, [ALICE, ALICE]);
  const { provider } = await b.log();
  // the CLI's login, then one for this program
  assert.equal(provider.filter((e) => e.event === 'authorize').length, 2, JSON.stringify(provider));
});

test('stateless: decline and cancel give ToolAuthError naming the login command', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const { call } = await serve(t, file);
  for (const action of ['decline', 'cancel']) {
    const m1 = await call(CAUGHT);
    const [key] = loginRequest(m1);
    const m2 = await call(CAUGHT, { requestState: m1.result.requestState, inputResponses: { [key]: { action } } });
    assert.equal(m2.result?.resultType, 'complete', JSON.stringify(m2));
    const [name, isToolError, message] = m2.result.structuredContent.result;
    assert.equal(name, 'ToolAuthError');
    assert.equal(isToolError, true);
    assert.match(message, action === 'decline' ? /the person declined/ : /the person cancelled/);
    assert.match(message, /run: mcp-codemode login notes$/);
  }
});

test('stateless: a malformed inputResponse is refused with a clear error; the requestState stays good', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const { call } = await serve(t, file);
  const m1 = await call(WHOAMI);
  const [key, q] = loginRequest(m1);
  const state = m1.result.requestState;
  for (const bad of ['accept', { action: 'maybe' }, { content: {} }, null]) {
    const m = await call(WHOAMI, { requestState: state, inputResponses: { [key]: bad } });
    assert.equal(m.error?.code, -32602, JSON.stringify(m));
    assert.match(m.error.message, new RegExp(`inputResponses\\["${key}"\\] answers a login \\(URL-mode elicitation\\) and must be an elicitation result`));
  }
  await authorize(q.url);
  const m2 = await call(WHOAMI, { requestState: state, inputResponses: { [key]: { action: 'accept' } } });
  assert.equal(m2.result?.resultType, 'complete', JSON.stringify(m2));
  assert.equal(m2.result.structuredContent.result, ALICE);
});

test('stateless: an approval parks first, the login is asked meanwhile: the requestState outlives approvalTimeoutMs, both are answered', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b, { policy: { approvalTimeoutMs: 2500, rules: { 'notes.write_note': 'ask' } } });
  const { call } = await serve(t, file);
  const caps = { elicitation: { form: {}, url: {} } };
  const code = `const [w, who] = await Promise.all([tools.notes.write_note({ text: 'hi' }), tools.notes.whoami({})]);
    return [w, who].map((x) => x.content ? x.content[0].text : x)`;
  const m1 = await call(code, {}, { caps });
  assert.equal(m1.result?.resultType, 'input_required', JSON.stringify(m1));
  const approval = Object.keys(m1.result.inputRequests).find((k) => /^approval-/.test(k));
  assert.ok(approval, JSON.stringify(m1.result.inputRequests));
  await sleep(3500); // longer than approvalTimeoutMs: the login asked meanwhile keeps the park
  const m2 = await call(code, { requestState: m1.result.requestState, inputResponses: { [approval]: { action: 'accept', content: { decision: 'once' } } } }, { caps });
  assert.equal(m2.error, undefined, `the requestState outlived approvalTimeoutMs: ${JSON.stringify(m2)}`);
  let last = m2;
  if (m2.result?.resultType === 'input_required') { // the login, unless it came with the approval
    const [key, q] = loginRequest(m2);
    await authorize(q.url);
    last = await call(code, { requestState: m2.result.requestState, inputResponses: { [key]: { action: 'accept' } } }, { caps });
  } else {
    const key = Object.keys(m1.result.inputRequests).find((k) => /^login-/.test(k));
    assert.ok(key, `the login was asked: ${JSON.stringify(m1.result)} then ${JSON.stringify(m2)}`);
  }
  assert.equal(last.result?.resultType, 'complete', JSON.stringify(last));
  assert.deepEqual(last.result.structuredContent.result, ['written: hi', ALICE]);
});

test('stateless: a request that does not declare elicitation.url gets ToolAuthError at once, nothing asked', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const { call } = await serve(t, file);
  for (const caps of [{}, { elicitation: {} }]) {
    const m = await call(CAUGHT, {}, { caps });
    assert.equal(m.result?.resultType, 'complete', JSON.stringify(m));
    const [name, , message] = m.result.structuredContent.result;
    assert.equal(name, 'ToolAuthError');
    assert.match(message, /run: mcp-codemode login notes$/);
  }
  const { provider } = await b.log();
  assert.equal(provider.filter((e) => e.event === 'authorize').length, 1, 'only the CLI login');
});

test('run: with $BROWSER the person logs in while the program waits; without a person, or --no-login, ToolAuthError', async (t) => {
  const b = await bed(t);
  const { dir, file } = await loggedOut(b);
  const prog = path.join(dir, 'caught.js');
  fs.writeFileSync(prog, CAUGHT);
  const noPerson = { ...process.env };
  delete noPerson.BROWSER;
  const refusals = [
    [['run', prog, file, '--json'], noPerson],
    [['run', prog, file, '--json', '--no-login'], { ...process.env, BROWSER: PERSON }],
  ];
  for (const [args, env] of refusals) {
    const r = await runBin(args, { env, timeout: 30000 });
    assertNoSanitizerReport(r.stderr);
    assert.equal(r.code, 0, r.stderr);
    const [name, , message] = JSON.parse(r.stdout).result;
    assert.equal(name, 'ToolAuthError', r.stdout);
    assert.match(message, /run: mcp-codemode login notes$/);
    assert.doesNotMatch(r.stderr, /needs a login; the program waits/);
  }
  const r = await runBin(['run', prog, file, '--json'], { env: { ...process.env, BROWSER: PERSON }, timeout: 60000 });
  assertNoSanitizerReport(r.stderr);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).result, 'no error', r.stdout);
  assert.match(r.stderr, /the server "notes" needs a login; the program waits/);
  const url = /^ {2}(http:\/\/\S+)$/m.exec(r.stderr);
  assert.ok(url, r.stderr);
  assert.equal(new URL(url[1]).origin, b.issuer);
  assert.equal(new URL(url[1]).searchParams.get('code_challenge_method'), 'S256');
  assert.match(r.stderr, /logged in to notes; the program goes on/);
  // the tokens were stored: the next run needs nobody
  const again = await runBin(['run', prog, file, '--json'], { env: noPerson, timeout: 30000 });
  assert.equal(JSON.parse(again.stdout).result, 'no error', again.stderr);
});
