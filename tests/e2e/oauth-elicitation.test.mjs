// Logging in while a call waits (docs/oauth.md, issue 28): a remote server
// that needs an OAuth login (npm oidc-provider in front of an SDK MCP server,
// tests/fixtures/oauth/bed.mjs), called by a program whose client (the
// official SDK) declared URL-mode elicitation. The client gets
// elicitation/create in URL mode, hands the authorization URL to the person
// (tests/fixtures/oauth/person.mjs) and accepts; the redirect comes back on
// the loopback listener (stdio) or on /oauth/callback of the server's own
// endpoint (Streamable HTTP with codemode.http.publicUrl); once the tokens are
// stored the client gets notifications/elicitation/complete and the program's
// await resolves with the protected server's real answer. Also: the person's
// time does not count against timeoutMs, two calls share one login, a decline
// and a client without URL mode give ToolAuthError naming the login command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { tempDir, writeConfig, runBin, assertClean, eventually } from './lib/downstream.mjs';
import { authorize } from '../fixtures/oauth/person.mjs';
import { PERSON, assertLoginAsk, loggedOut, startBed as bed, elicitingClient as client } from './lib/oauth-client.mjs';
import { freePort } from './lib/ports.mjs';

const WHOAMI = 'const r = await tools.notes.whoami({}); return r.content ? r.content[0].text : r';
const CAUGHT = `try { await tools.notes.whoami({}); return 'no error'; } catch (e) { return [e.name, e instanceof ToolError, e.message]; }`;

test('stdio: URL-mode elicitation, the loopback redirect, complete, and the call returns the real result', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const c = await client(file);
  t.after(() => c.close());
  const r = await c.run(WHOAMI);
  assert.equal(r.ok, true, r.text);
  assert.equal(r.value, 'you are alice with notes:read notes:write');
  assert.equal(c.asked.length, 1);
  const q = c.asked[0];
  assert.equal(q.mode, 'url');
  assertLoginAsk(q, b);
  await eventually(() => c.completed.length === 1, { what: 'notifications/elicitation/complete' });
  assert.deepEqual(c.completed, [q.elicitationId]);
  // the tokens were stored: the next call needs no login
  const again = await c.run(WHOAMI);
  assert.equal(again.value, 'you are alice with notes:read notes:write');
  assert.equal(c.asked.length, 1);
  await c.close();
  await assertClean(c);
});

test('a legacy SSE downstream: the same login, then the real result', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b, {}, true);
  const c = await client(file);
  t.after(() => c.close());
  const r = await c.run(WHOAMI);
  assert.equal(r.ok, true, r.text);
  assert.equal(r.value, 'you are alice with notes:read notes:write');
  assert.equal(c.asked.length, 1);
  assert.equal(new URL(c.asked[0].url).searchParams.get('resource'), b.sse);
  await eventually(() => c.completed.length === 1, { what: 'notifications/elicitation/complete' });
  await c.close();
  await assertClean(c);
});

test('the person\'s time does not count against timeoutMs', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const c = await client(file, { delay: 2500 });
  t.after(() => c.close());
  const t0 = Date.now();
  const r = await c.run(WHOAMI, 1500);
  assert.equal(r.ok, true, r.text);
  assert.equal(r.value, 'you are alice with notes:read notes:write');
  assert.ok(Date.now() - t0 >= 2500, 'the person took longer than the timeout');
  await c.close();
  await assertClean(c);
});

test('two concurrent calls share one login: one elicitation, both get the result', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const c = await client(file, { delay: 300 });
  t.after(() => c.close());
  const r = await c.run(`const [a, b] = await Promise.all([tools.notes.whoami({}), tools.notes.whoami({})]);
    return [a, b].map((x) => x.content ? x.content[0].text : x)`);
  assert.equal(r.ok, true, r.text);
  assert.deepEqual(r.value, ['you are alice with notes:read notes:write', 'you are alice with notes:read notes:write']);
  assert.equal(c.asked.length, 1);
  const { provider } = await b.log();
  // the CLI's login, then one for both calls
  assert.equal(provider.filter((e) => e.event === 'authorize').length, 2, JSON.stringify(provider));
  await c.close();
  await assertClean(c);
});

test('declined: ToolAuthError naming the login command; not asked again in the same program', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const c = await client(file, { answer: () => ({ action: 'decline' }) });
  t.after(() => c.close());
  const r = await c.run(`const out = [];
    for (let i = 0; i < 2; i++) {
      try { await tools.notes.whoami({}); out.push('no error'); } catch (e) { out.push([e.name, e instanceof ToolError, e.message]); }
    }
    return out`);
  assert.equal(r.ok, true, r.text);
  const [[name, isToolError, message], second] = r.value;
  assert.equal(name, 'ToolAuthError');
  assert.equal(isToolError, true);
  assert.match(message, /declined/);
  assert.match(message, /run: mcp-codemode login notes$/);
  assert.equal(second[0], 'ToolAuthError');
  assert.equal(c.asked.length, 1);
  const cancel = await client(file, { answer: () => ({ action: 'cancel' }) });
  t.after(() => cancel.close());
  const rc = await cancel.run(CAUGHT);
  assert.equal(rc.value[0], 'ToolAuthError');
  assert.match(rc.value[2], /cancelled/);
  await c.close();
  await cancel.close();
  await assertClean(c, cancel);
});

test('a client without URL-mode elicitation: ToolAuthError with the login command, nothing asked', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const c = await client(file, { caps: { elicitation: {} } }); // form mode only
  t.after(() => c.close());
  const r = await c.run(CAUGHT);
  assert.equal(r.ok, true, r.text);
  const [name, isToolError, message] = r.value;
  assert.equal(name, 'ToolAuthError');
  assert.equal(isToolError, true);
  assert.match(message, /run: mcp-codemode login notes$/);
  assert.equal(c.asked.length, 0);
  await c.close();
  await assertClean(c);
});

test('Streamable HTTP with publicUrl: the redirect comes back to /oauth/callback, once', async (t) => {
  const b = await bed(t);
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}/mcp`;
  const { file } = await loggedOut(b, { http: { publicUrl } });
  let redirect;
  const c = await client(file, { transport: 'streamable-http', args: ['--http', `127.0.0.1:${port}`] });
  t.after(() => c.close());
  c.client.setRequestHandler(ElicitRequestSchema, async (req) => {
    c.asked.push(req.params);
    c.people.push(authorize(req.params.url).then((x) => { redirect = x.redirect; }));
    return { action: 'accept' };
  });
  const r = await c.run(WHOAMI);
  assert.equal(r.ok, true, r.text);
  assert.equal(r.value, 'you are alice with notes:read notes:write');
  assert.equal(c.asked.length, 1);
  const u = new URL(c.asked[0].url);
  assert.equal(u.searchParams.get('redirect_uri'), `http://127.0.0.1:${port}/oauth/callback`);
  await Promise.all(c.people);
  assert.match(redirect, new RegExp(`^http://127\\.0\\.0\\.1:${port}/oauth/callback\\?code=`));
  await eventually(() => c.completed.length === 1, { what: 'notifications/elicitation/complete' });
  // the state was good for one redirect
  const replay = await fetch(redirect);
  assert.equal(replay.status, 400);
  assert.match(await replay.text(), /not valid/);
  const forged = await fetch(`http://127.0.0.1:${port}/oauth/callback?code=x&state=forged`);
  assert.equal(forged.status, 400);
  await c.close();
  await assertClean(c);
});

test('the person refuses at the authorization server: ToolAuthError with its reason', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const c = await client(file, { person: { deny: true } });
  t.after(() => c.close());
  const r = await c.run(CAUGHT);
  assert.equal(r.ok, true, r.text);
  const [name, , message] = r.value;
  assert.equal(name, 'ToolAuthError');
  assert.match(message, /the authorization server refused the login: access_denied/);
  assert.match(message, /run: mcp-codemode login notes$/);
  assert.equal(c.asked.length, 1);
  assert.deepEqual(c.completed, []); // never complete
  await c.close();
  await assertClean(c);
});

test('the program ends while the person is asked: the elicitation is cancelled, the server goes on', async (t) => {
  const b = await bed(t);
  const { file } = await loggedOut(b);
  const c = await client(file);
  t.after(() => c.close());
  let aborted = false;
  c.client.setRequestHandler(ElicitRequestSchema, (req, extra) => {
    c.asked.push(req.params);
    return new Promise((resolve) => extra.signal.addEventListener('abort', () => { aborted = true; resolve({ action: 'cancel' }); }));
  });
  const ac = new AbortController();
  const call = c.client.callTool({ name: 'execute_code', arguments: { code: WHOAMI } }, undefined, { signal: ac.signal, timeout: 60000 });
  await eventually(() => c.asked.length === 1, { what: 'the elicitation', timeout: 15000 });
  ac.abort();
  await assert.rejects(call);
  await eventually(() => aborted, { what: 'notifications/cancelled for the elicitation' });
  const after = await c.run('return 6 * 7');
  assert.equal(after.value, 42);
  await c.close();
  await assertClean(c);
});

test('step-up on a connected server: a 403 insufficient_scope asks for the union, the call goes on with the new token', async (t) => {
  const b = await bed(t, { toolScopes: { write_note: 'notes:write' } });
  const dir = tempDir('codemode-elicit-');
  const file = writeConfig(dir, {
    mcpServers: { notes: { url: b.mcp, oauth: { scopes: ['notes:read'] } } },
    codemode: { state: { path: path.join(dir, 'state.db') } },
  });
  const login = await runBin(['login', 'notes', file], { env: { ...process.env, BROWSER: PERSON }, timeout: 30000 });
  assert.equal(login.code, 0, login.stderr);
  const c = await client(file);
  t.after(() => c.close());
  const r = await c.run(`const w = await tools.notes.write_note({ text: 'hi' });
    const who = await tools.notes.whoami({});
    return [w, who].map((x) => x.content ? x.content[0].text : x)`);
  assert.equal(r.ok, true, r.text);
  assert.deepEqual(r.value, ['written: hi', 'you are alice with notes:read notes:write']);
  assert.equal(c.asked.length, 1);
  assert.equal(new URL(c.asked[0].url).searchParams.get('scope'), 'notes:read notes:write');
  await eventually(() => c.completed.length === 1, { what: 'notifications/elicitation/complete' });
  await c.close();
  await assertClean(c);
});

test('two servers that need a login: one login each, both calls return', async (t) => {
  const [b1, b2] = await Promise.all([bed(t), bed(t)]);
  const dir = tempDir('codemode-elicit-');
  const file = writeConfig(dir, {
    mcpServers: { notes: { url: b1.mcp, oauth: {} }, other: { url: b2.mcp, oauth: {} } },
    codemode: { state: { path: path.join(dir, 'state.db') } },
  });
  const env = { ...process.env, BROWSER: PERSON };
  for (const name of ['notes', 'other']) {
    const r = await runBin(['login', name, file], { env, timeout: 30000 });
    assert.equal(r.code, 0, r.stderr);
  }
  const prog = path.join(dir, 'first.js');
  fs.writeFileSync(prog, 'await tools.notes.whoami({}); await tools.other.whoami({}); 1');
  assert.equal((await runBin(['run', prog, file, '--json'], { timeout: 30000 })).code, 0);
  for (const name of ['notes', 'other']) assert.equal((await runBin(['logout', name, file])).code, 0);
  const c = await client(file);
  t.after(() => c.close());
  const r = await c.run(`const [a, b] = await Promise.all([tools.notes.whoami({}), tools.other.whoami({})]);
    return [a, b].map((x) => x.content ? x.content[0].text : x)`);
  assert.equal(r.ok, true, r.text);
  assert.deepEqual(r.value, ['you are alice with notes:read notes:write', 'you are alice with notes:read notes:write']);
  assert.equal(c.asked.length, 2);
  assert.deepEqual(c.asked.map((q) => new URL(q.url).origin).sort(), [b1.issuer, b2.issuer].sort());
  assert.deepEqual(c.asked.map((q) => /"(\w+)" needs you to log in/.exec(q.message)[1]).sort(), ['notes', 'other']);
  assert.notEqual(c.asked[0].elicitationId, c.asked[1].elicitationId);
  await eventually(() => c.completed.length === 2, { what: 'both notifications/elicitation/complete' });
  await c.close();
  await assertClean(c);
});
