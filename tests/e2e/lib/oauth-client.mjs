// mcp-codemode as an OAuth client (docs/oauth.md): the test bed
// (tests/fixtures/oauth/bed.mjs, npm oidc-provider in front of an SDK server
// that requires its tokens), the person who answers its forms
// (tests/fixtures/oauth/person.mjs, also a $BROWSER), and `login
// --no-browser` with the redirect pasted back; an SDK client of mcp-codemode
// that declares URL-mode elicitation and hands the URL to the person; a
// config whose server has been logged in to once and logged out of.
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  ElicitRequestSchema, ElicitationCompleteNotificationSchema, ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { NODE, assertNoSanitizerReport, runBin, tempDir, writeConfig } from './downstream.mjs';
import { BIN, REPO_ROOT } from './paths.mjs';
import { connectSdk } from './sdk.mjs';
import { authorize } from '../../fixtures/oauth/person.mjs';

const BED = path.join(REPO_ROOT, 'tests/fixtures/oauth/bed.mjs');
/** The person as a $BROWSER program. */
export const PERSON = path.join(REPO_ROOT, 'tests/fixtures/oauth/person.mjs');

/** Starts the bed with opts (stopped after test t); { issuer, mcp, sse, control, log() }. */
export async function startBed(t, opts = {}) {
  const p = spawn(NODE, [BED, JSON.stringify(opts)], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.after(() => p.kill());
  const info = await new Promise((resolve, reject) => {
    let out = '';
    p.stdout.on('data', (b) => {
      out += b;
      const line = out.split('\n').find((l) => l.startsWith('{"issuer"'));
      if (line) resolve(JSON.parse(line));
    });
    p.on('exit', () => reject(new Error(`the bed exited: ${out}`)));
  });
  return { ...info, log: async () => (await fetch(`${info.control}/log`)).json() };
}

/**
 * `login server file --no-browser`: the person opens the printed URL (the
 * first match of urlPattern) elsewhere; answer(url) resolves with the
 * redirect, which is pasted. Resolves with { code, stdout, stderr, url,
 * redirect } once the login exits; its stderr has no sanitizer report.
 */
export async function loginPasted(server, file, urlPattern, answer) {
  const p = spawn(BIN, ['login', server, file, '--no-browser'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '', stdout = '';
  p.stdout.on('data', (b) => { stdout += b; });
  const exited = new Promise((resolve) => p.on('exit', resolve));
  const url = await new Promise((resolve) => p.stderr.on('data', (b) => {
    stderr += b;
    const m = urlPattern.exec(stderr);
    if (m) resolve(m[1]);
  }));
  const redirect = await answer(url);
  p.stdin.write(`${redirect}\n`);
  const code = await exited;
  assertNoSanitizerReport(stderr);
  return { code, stdout, stderr, url, redirect };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * An SDK client of mcp-codemode with config `file` and `caps`; the person
 * behind it: answer(params) gives the elicitation's answer (default accept)
 * and, when accepting, the person follows the URL after `delay` ms (with
 * person.mjs's options `person`). It records what it was asked (`asked`),
 * the elicitations said complete (`completed`), the people's logins
 * (`people`) and the notifications/tools/list_changed it got
 * (`listChanged`); run(code, timeoutMs) runs execute_code.
 */
export async function elicitingClient(file, { transport = 'stdio', caps = { elicitation: { url: {} } }, args = [], answer, delay = 0, person = {} } = {}) {
  const c = await connectSdk(['--config', file, '--pool-size', '2', ...args], { label: `elicit ${transport}`, transport, capabilities: caps });
  c.asked = [];
  c.completed = [];
  c.people = [];
  c.listChanged = 0;
  c.client.setRequestHandler(ElicitRequestSchema, async (req) => {
    c.asked.push(req.params);
    const a = answer ? answer(req.params) : { action: 'accept' };
    if (a.action === 'accept') c.people.push(sleep(delay).then(() => authorize(req.params.url, person)));
    return a;
  });
  c.client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => { c.completed.push(n.params.elicitationId); });
  c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => { c.listChanged++; });
  c.run = async (code, timeoutMs) => {
    const raw = await c.client.callTool({ name: 'execute_code', arguments: { code, ...(timeoutMs ? { timeoutMs } : {}) } }, undefined, { timeout: 90000 });
    return { ok: raw.isError !== true, value: raw.structuredContent?.result, text: raw.content?.[0]?.text };
  };
  return c;
}

/**
 * A config whose server "notes" needs a login and has listed its tools
 * before: logged in once (the CLI, the person as $BROWSER), one call (its
 * tools are kept), logged out. Its tools stay declared, marked "Needs login".
 */
export async function loggedOut(b, codemode = {}, sse = false) {
  const dir = tempDir('codemode-elicit-');
  const file = writeConfig(dir, {
    mcpServers: { notes: sse ? { type: 'sse', url: b.sse, oauth: {} } : { url: b.mcp, oauth: {} } },
    codemode: { state: { path: path.join(dir, 'state.db') }, ...codemode },
  });
  const env = { ...process.env, BROWSER: PERSON };
  const login = await runBin(['login', 'notes', file], { env, timeout: 30000 });
  assert.equal(login.code, 0, login.stderr);
  const prog = path.join(dir, 'first.js');
  fs.writeFileSync(prog, 'const r = await tools.notes.whoami({}); r.content ? r.content[0].text : r');
  const first = await runBin(['run', prog, file, '--json'], { timeout: 30000 });
  assert.equal(first.code, 0, first.stderr);
  const out = await runBin(['logout', 'notes', file]);
  assert.equal(out.code, 0, out.stderr);
  assertNoSanitizerReport(login.stderr + first.stderr + out.stderr);
  return { dir, file };
}

/**
 * Asserts what a login's URL elicitation q carries for the bed b: its id and
 * message, the authorization URL at b's issuer with PKCE S256, the resource
 * and a state, the redirect to the loopback listener.
 */
export function assertLoginAsk(q, b) {
  assert.match(q.elicitationId, /^[0-9a-f]{32}$/);
  assert.match(q.message, /"notes" needs you to log in/);
  const u = new URL(q.url);
  assert.equal(u.origin, b.issuer);
  assert.equal(u.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(u.searchParams.get('resource'), b.mcp);
  assert.ok(u.searchParams.get('state'));
  assert.match(u.searchParams.get('redirect_uri'), /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
}
