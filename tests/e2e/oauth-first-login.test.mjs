// A remote server nobody has logged in to yet (docs/oauth.md, "A server never
// logged in to"): a fresh state database, so no tokens and no tool list kept
// from an earlier session. The declarations show the server as present and
// needing a login (any tool name type-checks); a program's call of any name
// logs in through URL-mode elicitation (npm oidc-provider in front of an SDK
// server, tests/fixtures/oauth/bed.mjs, the person of person.mjs), then goes
// through the gate against the real list: the real result, the usual
// unknown-tool error, the usual argument check. Clients get
// notifications/tools/list_changed once the real tools are known. Also: a
// client without URL mode gets ToolAuthError naming the login command; a
// program that ends after its client accepted still gets the client told the
// login is complete; a malformed answer to our elicitation/create (a raw
// client) fails the call clearly and the server goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { TSC, tempDir, writeConfig, runBin, assertNoSanitizerReport, assertClean, eventually } from './lib/downstream.mjs';
import { PERSON, startBed as bed, elicitingClient as client } from './lib/oauth-client.mjs';
import { startServer } from './lib/raw.mjs';
import { freePort } from './lib/ports.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A config whose server "notes" (behind the bed b) has never been logged in to. */
function fresh(b) {
  const dir = tempDir('codemode-first-login-');
  const file = writeConfig(dir, {
    mcpServers: { notes: { url: b.mcp, oauth: {} } },
    codemode: { state: { path: path.join(dir, 'state.db') } },
  });
  return { dir, file };
}

const text = (x) => (x && x.content ? x.content[0].text : x);
const CAUGHT = `try { await tools.notes.echo({ text: 'hi' }); return 'no error'; }
  catch (e) { return [e.name, e instanceof ToolError, e.message, e.tool]; }`;

/** tsc --strict over the declarations and a program that uses them: the error lines. */
function typecheck(decls, use) {
  const dir = fs.mkdtempSync(path.join(tempDir('codemode-first-tsc-'), 'p-'));
  const files = { 'decls.d.ts': decls, 'use.ts': use };
  for (const [f, t] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), t);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', lib: ['es2022'], types: [] },
    files: Object.keys(files),
  }));
  const r = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8', timeout: 120000 });
  return `${r.stdout}${r.stderr}`.split('\n').filter((l) => /error TS/.test(l));
}

test('declared as needing login: types, the execute_code description, search, check; any name type-checks', async (t) => {
  const b = await bed(t);
  const { file } = fresh(b);
  const types = await runBin(['types', file]);
  assertNoSanitizerReport(types.stderr);
  assert.equal(types.code, 0, types.stderr);
  assert.match(types.stdout, /Needs login: the tools of server "notes" are not known until someone logs in/);
  assert.match(types.stdout, /run `mcp-codemode login notes`/);
  assert.match(types.stdout, /\n {2}notes: \{\n {4}\[tool: string\]: \(args\?: object\) => Promise<unknown>;\n {2}\};/);
  const errors = typecheck(types.stdout, `async function main() {
    const a: unknown = await tools.notes.echo({ text: 'hi' });
    const b: unknown = await tools.notes.anything();
    const c: unknown = await callTool('notes.anything', { x: 1 });
    return [a, b, c];
  }
  main();
  export {};
`);
  assert.deepEqual(errors, []);

  const c = await client(file);
  t.after(() => c.close());
  const listed = await c.client.listTools();
  const desc = listed.tools.find((x) => x.name === 'execute_code').description;
  assert.match(desc, /Needs login: the tools of server "notes"/);
  assert.match(desc, /notes: \{\n {4}\[tool: string\]/);
  const found = await c.run('return await searchTools("notes")');
  assert.equal(found.ok, true, found.text);
  assert.deepEqual(found.value.map((x) => x.name), ['notes.*']);
  assert.match(found.value[0].summary, /^Needs login/);
  // a dry run sends nothing and asks nobody
  const dry = await c.client.callTool({ name: 'execute_code', arguments: { code: CAUGHT, dryRun: true } });
  assert.equal(dry.structuredContent.result[0], 'ToolAuthError', JSON.stringify(dry));
  assert.match(dry.structuredContent.result[2], /run: mcp-codemode login notes$/);
  assert.equal(c.asked.length, 0); // declaring, searching and a dry run ask nobody
  await c.close();
  await assertClean(c);

  const check = await runBin(['check', file]);
  assertNoSanitizerReport(check.stderr);
  const out = check.stdout + check.stderr;
  assert.match(out, /login: needs login: mcp-codemode login notes/);
  assert.match(out, /declared as any tool name until a login lists their tools: notes/);
});

test('a call of any name logs in through URL elicitation, then meets the real list: result, unknown name, arguments; list_changed', async (t) => {
  const b = await bed(t);
  const { file } = fresh(b);
  const c = await client(file, { delay: 200 });
  t.after(() => c.close());
  const before = c.listChanged;
  const r = await c.run(`const out = await Promise.allSettled([
      tools.notes.echo({ text: 'hi' }),
      tools.notes.ech({ text: 'hi' }),
      callTool('notes.echo', { text: 5 }),
    ]);
    return out.map((o) => o.status === 'fulfilled' ? o.value
      : [o.reason.name, o.reason.message, o.reason instanceof ToolError || o.reason instanceof ToolArgumentError]);`);
  assert.equal(r.ok, true, r.text);
  const [echo, typo, badArgs] = r.value;
  assert.equal(text(echo), 'echo: hi');
  assert.equal(typo[0], 'Error');
  assert.match(typo[1], /^Unknown tool "notes\.ech"\. Did you mean: notes\.echo/);
  assert.equal(badArgs[0], 'ToolArgumentError');
  assert.match(badArgs[1], /text/);
  assert.equal(c.asked.length, 1); // one login for the three calls
  assert.equal(c.asked[0].mode, 'url');
  assert.match(c.asked[0].message, /"notes" needs you to log in/);
  assert.equal(new URL(c.asked[0].url).origin, b.issuer);
  await eventually(() => c.completed.length === 1, { what: 'notifications/elicitation/complete' });
  assert.deepEqual(c.completed, [c.asked[0].elicitationId]);
  await eventually(() => c.listChanged > before, { what: 'notifications/tools/list_changed' });
  // the real tools are declared now, the login note is gone
  const desc = (await c.client.listTools()).tools.find((x) => x.name === 'execute_code').description;
  assert.match(desc, /echo\(args: \{/);
  assert.match(desc, /whoami/);
  assert.doesNotMatch(desc, /\[tool: string\]/);
  // a nonexistent name now: the usual unknown-tool error, nobody asked
  const after = await c.run(`try { await tools.notes.nope({}); return 'no error'; } catch (e) { return [e.name, e.message]; }`);
  assert.equal(after.ok, true, after.text);
  assert.match(after.value[1], /^Unknown tool "notes\.nope"/);
  const direct = await c.run(`try { await callTool('notes.nope', {}); return 'no error'; } catch (e) { return [e.name, e.message]; }`);
  assert.match(direct.value[1], /^Unknown tool "notes\.nope"/);
  const who = await c.run('return await tools.notes.whoami({})');
  assert.equal(text(who.value), 'you are alice with notes:read notes:write');
  assert.equal(c.asked.length, 1);
  await c.close();
  await assertClean(c);
});

test('run with the person as $BROWSER: the first call logs in at the terminal, then meets the real list', async (t) => {
  const b = await bed(t);
  const { dir, file } = fresh(b);
  const prog = path.join(dir, 'first.js');
  fs.writeFileSync(prog, `const echo = await tools.notes.echo({ text: 'hi' });
    let typo;
    try { await tools.notes.ech({ text: 'hi' }); typo = 'no error'; } catch (e) { typo = e.message; }
    return [echo.content ? echo.content[0].text : echo, typo];`);
  const r = await runBin(['run', prog, file, '--json'], { env: { ...process.env, BROWSER: PERSON }, timeout: 60000 });
  assertNoSanitizerReport(r.stderr);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const [echo, typo] = JSON.parse(r.stdout).result;
  assert.equal(echo, 'echo: hi');
  assert.match(typo, /^Unknown tool "notes\.ech"\. Did you mean: notes\.echo/);
  assert.match(r.stderr, /the server "notes" needs a login; the program waits/);
  assert.match(r.stderr, /logged in to notes; the program goes on/);
});

test('Streamable HTTP with publicUrl: the first call logs in through /oauth/callback; the session gets list_changed', async (t) => {
  const b = await bed(t);
  const port = await freePort();
  const dir = tempDir('codemode-first-login-');
  const file = writeConfig(dir, {
    mcpServers: { notes: { url: b.mcp, oauth: {} } },
    codemode: { state: { path: path.join(dir, 'state.db') }, http: { publicUrl: `http://127.0.0.1:${port}/mcp` } },
  });
  const c = await client(file, { transport: 'streamable-http', args: ['--http', `127.0.0.1:${port}`] });
  t.after(() => c.close());
  const r = await c.run('return await tools.notes.echo({ text: "over http" })');
  assert.equal(r.ok, true, r.text);
  assert.equal(text(r.value), 'echo: over http');
  assert.equal(c.asked.length, 1);
  assert.equal(new URL(c.asked[0].url).searchParams.get('redirect_uri'), `http://127.0.0.1:${port}/oauth/callback`);
  await eventually(() => c.completed.length === 1, { what: 'notifications/elicitation/complete' });
  await eventually(() => c.listChanged > 0, { what: 'notifications/tools/list_changed on the session' });
  await c.close();
  await assertClean(c);
});

test('a client without URL-mode elicitation: ToolAuthError naming the login command, nothing asked', async (t) => {
  const b = await bed(t);
  const { file } = fresh(b);
  const c = await client(file, { caps: { elicitation: {} } }); // form mode only
  t.after(() => c.close());
  const r = await c.run(CAUGHT);
  assert.equal(r.ok, true, r.text);
  const [name, isToolError, message, tool] = r.value;
  assert.equal(name, 'ToolAuthError');
  assert.equal(isToolError, true);
  assert.equal(tool, 'notes.echo');
  assert.match(message, /"notes"/);
  assert.match(message, /run: mcp-codemode login notes$/);
  assert.equal(c.asked.length, 0);
  await c.close();
  await assertClean(c);
});

test('a name a policy rule denies, or the execution was not granted: refused at once, nobody asked to log in', async (t) => {
  const b = await bed(t);
  const dir = tempDir('codemode-first-login-');
  const file = writeConfig(dir, {
    mcpServers: { notes: { url: b.mcp, oauth: {} } },
    codemode: { state: { path: path.join(dir, 'state.db') }, policy: { rules: { 'notes.purge*': 'deny' } } },
  });
  const c = await client(file);
  t.after(() => c.close());
  const denied = await c.run(`try { await tools.notes.purge_all({}); return 'no error'; }
    catch (e) { return [e.name, e.message, e.decision]; }`);
  assert.equal(denied.ok, true, denied.text);
  assert.equal(denied.value[0], 'ToolPolicyError');
  assert.match(denied.value[1], /^Tool "notes\.purge_all" is denied by this server's policy \(rule "notes\.purge\*"\)/);
  const raw = await c.client.callTool({ name: 'execute_code', arguments: {
    code: `try { await tools.notes.echo({ text: 'hi' }); return 'no error'; } catch (e) { return [e.name, e.message]; }`,
    allow: ['other.*'],
  } });
  const [name, message] = raw.structuredContent.result;
  assert.equal(name, 'ToolPolicyError');
  assert.match(message, /^Tool "notes\.echo" was not granted to this execution/);
  assert.equal(c.asked.length, 0);
  // a name no rule decides still logs in, then goes on as usual
  const ok = await c.run(`const r = await tools.notes.echo({ text: 'hi' }); return r.content ? r.content[0].text : r;`);
  assert.equal(ok.value, 'echo: hi', ok.text);
  assert.equal(c.asked.length, 1);
  await c.close();
  await assertClean(c);
});

test('a declined login: ToolAuthError, and the server stays declared as needing login', async (t) => {
  const b = await bed(t);
  const { file } = fresh(b);
  const c = await client(file, { answer: () => ({ action: 'decline' }) });
  t.after(() => c.close());
  const r = await c.run(CAUGHT);
  assert.equal(r.ok, true, r.text);
  assert.equal(r.value[0], 'ToolAuthError');
  assert.match(r.value[2], /declined/);
  assert.match(r.value[2], /run: mcp-codemode login notes$/);
  const desc = (await c.client.listTools()).tools.find((x) => x.name === 'execute_code').description;
  assert.match(desc, /Needs login: the tools of server "notes"/);
  await c.close();
  await assertClean(c);
});

for (const transport of ['stdio', 'streamable-http']) {
  test(`${transport}: the program ends after its client accepted: the client is still told the login completed`, async (t) => {
    const b = await bed(t);
    const { file } = fresh(b);
    const args = transport === 'stdio' ? [] : ['--http', `127.0.0.1:${await freePort()}`];
    const c = await client(file, { delay: 1500, transport, args });
    t.after(() => c.close());
    const ac = new AbortController();
    const call = c.client.callTool({ name: 'execute_code', arguments: { code: 'return await tools.notes.echo({ text: "hi" })' } },
      undefined, { signal: ac.signal, timeout: 60000 });
    await eventually(() => c.asked.length === 1, { what: 'the elicitation', timeout: 15000 });
    await sleep(300); // the client's accept reaches the server
    ac.abort();
    await assert.rejects(call);
    assert.equal(c.completed.length, 0);
    await Promise.all(c.people);
    await eventually(() => c.completed.length === 1, { what: 'notifications/elicitation/complete after the program ended', timeout: 15000 });
    assert.deepEqual(c.completed, [c.asked[0].elicitationId]);
    const r = await c.run('return await tools.notes.echo({ text: "again" })');
    assert.equal(r.ok, true, r.text);
    assert.equal(text(r.value), 'echo: again');
    assert.equal(c.asked.length, 1); // the tokens were stored
    await c.close();
    await assertClean(c);
  });
}

test('a malformed answer to elicitation/create (a raw client): a clear ToolAuthError, and the server goes on', async (t) => {
  const b = await bed(t);
  const { file } = fresh(b);
  const s = startServer(['--config', file, '--pool-size', '2'], { label: 'raw elicit' });
  t.after(() => s.stop());
  const init = await s.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { url: {} } },
    clientInfo: { name: 'e2e-raw', version: '1.0.0' },
  });
  assert.ok(init.msg.result, init.raw);
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const answers = [{ action: 5 }, 'accept', null];
  for (const answer of answers) {
    const from = s.mark;
    const id = `"run-${answers.indexOf(answer)}"`;
    s.send(s.requestLine('tools/call', { name: 'execute_code', arguments: { code: CAUGHT } }, id));
    const ask = await s.wire.waitFor((l) => l.msg?.method === 'elicitation/create', { from, timeout: 15000, what: 'elicitation/create' });
    assert.equal(ask.msg.params.mode, 'url');
    s.send(`{"jsonrpc":"2.0","id":${JSON.stringify(ask.msg.id)},"result":${JSON.stringify(answer)}}`);
    const reply = await s.wire.response(id, { from, timeout: 15000 });
    const [name, isToolError, message] = reply.msg.result.structuredContent.result;
    assert.equal(name, 'ToolAuthError', reply.raw);
    assert.equal(isToolError, true);
    assert.match(message, /the client's answer to the elicitation has no action/);
    assert.match(message, /run: mcp-codemode login notes$/);
  }
  // an error response and an unknown action are refused alike
  for (const [body, why] of [['"error":{"code":-32603,"message":"boom"}', /answered the elicitation with an error/], ['"result":{"action":"maybe"}', /unknown action/]]) {
    const from = s.mark;
    const id = `"run-${body.length}"`;
    s.send(s.requestLine('tools/call', { name: 'execute_code', arguments: { code: CAUGHT } }, id));
    const ask = await s.wire.waitFor((l) => l.msg?.method === 'elicitation/create', { from, timeout: 15000, what: 'elicitation/create' });
    s.send(`{"jsonrpc":"2.0","id":${JSON.stringify(ask.msg.id)},${body}}`);
    const reply = await s.wire.response(id, { from, timeout: 15000 });
    assert.match(reply.msg.result.structuredContent.result[2], why);
  }
  const alive = await s.request('tools/call', { name: 'execute_code', arguments: { code: 'return 6 * 7' } });
  assert.equal(alive.msg.result.structuredContent.result, 42);
  const exit = await s.stop();
  assert.equal(exit.code, 0);
  assertNoSanitizerReport(s.stderr);
});
