#!/usr/bin/env node
// The client under test for the conformance suite's authorization
// scenarios (`conformance client --suite auth --command "node
// tests/conformance/auth-client.mjs"`): the suite appends its MCP server's
// URL and passes the scenario in MCP_CONFORMANCE_CONTEXT ({name, client_id,
// client_secret, private_key_pem, ...}). This turns them into a config
// entry with an "oauth" object, runs `mcp-codemode login` (the person is
// tests/fixtures/servers/oauth-browser.mjs as $BROWSER: the suite's
// authorization server approves at once) unless the grant is client
// credentials, then `mcp-codemode run` with a program that lists the
// server's tools and calls each. A run whose calls were refused for want of
// scope (step-up: its messages name the login command) gets one more login
// and run, as a person following the message would. Exit status: that of
// the last run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN } from '../e2e/lib/paths.mjs';

const TESTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BROWSER = path.join(TESTS, 'fixtures/servers/oauth-browser.mjs');
const url = process.argv[process.argv.length - 1];
const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-conf-auth-'));

const oauth = {};
if (ctx.client_id) oauth.clientId = ctx.client_id;
if (ctx.client_secret) oauth.clientSecret = ctx.client_secret;
if (ctx.private_key_pem) {
  oauth.privateKeyFile = path.join(dir, 'key.pem');
  fs.writeFileSync(oauth.privateKeyFile, ctx.private_key_pem, { mode: 0o600 });
}
if (/client-credentials/.test(ctx.name ?? '')) oauth.grant = 'client_credentials';
// the suite's Client ID Metadata Document (auth/basic-cimd): used only where the
// authorization server advertises client_id_metadata_document_supported
oauth.clientMetadataUrl = ctx.client_metadata_url ?? 'https://conformance-test.local/client-metadata.json';
const config = path.join(dir, 'config.json');
fs.writeFileSync(config, JSON.stringify({
  mcpServers: { conf: { url, oauth } },
  codemode: { state: { path: path.join(dir, 'state.db') } },
}));
const program = path.join(dir, 'program.js');
fs.writeFileSync(program, `const out = {};
for (const name of Object.keys(tools.conf ?? {})) {
  try { await tools.conf[name]({}); out[name] = 'ok'; } catch (e) { out[name] = e.name + ': ' + e.message; }
}
out`);

const env = { ...process.env, BROWSER };
const SANITIZER = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:/;
let sanitizer = false;
function step(args) {
  const r = spawnSync(BIN, args, { env, encoding: 'utf8', timeout: 25000 });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  if (SANITIZER.test(r.stderr ?? '')) sanitizer = true; // the sanitizer build found something
  return r;
}
const login = () => oauth.grant === 'client_credentials' || step(['login', 'conf', config]).status === 0;
let ok = login();
let run = step(['run', program, config, '--json']);
// a step-up: a call (or the tool list) was refused for want of scope; the
// message names the login command, which a person would run
if (/run: mcp-codemode login conf/.test(run.stdout + run.stderr) && login())
  run = step(['run', program, config, '--json']);
fs.rmSync(dir, { recursive: true, force: true });
if (sanitizer) process.stderr.write('auth-client: SANITIZER REPORT above\n');
process.exit(sanitizer ? 3 : ok ? run.status ?? 1 : 1);
