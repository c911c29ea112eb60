// Shared by state*.test.mjs and skills*.test.mjs: a config whose state
// database lives in a temporary directory, SDK clients of the binary over
// stdio or Streamable HTTP (a second client of the same HTTP server too),
// and making a file read-only even for root (chattr +i; chmod otherwise).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { assertClean, exec, writeConfig } from './downstream.mjs';
import { ON_POSTGRES, storeFor } from './pg.mjs';
import { connectSdk } from './sdk.mjs';

export { ON_POSTGRES };

/** The transports the state tests run over. */
export const STATE_TRANSPORTS = ['stdio', 'streamable-http'];

/**
 * Writes a config with `codemode` settings and the database at dir/<db>
 * (on PostgreSQL, with ON_POSTGRES, a database of its own); returns {file, db}.
 */
export function stateConfig(dir, { state = {}, skills, policy, audit, mcpServers = {}, db = 'state.db', maxToolCalls, http } = {}) {
  const dbPath = path.join(dir, db);
  const codemode = { state: state === false ? false : { path: dbPath, ...state } };
  // MCP_CODEMODE_TEST_STORE=postgres: the same suite on a PostgreSQL database of its own
  if (ON_POSTGRES) codemode.store = storeFor(createHash('sha256').update(dbPath).digest('hex').slice(0, 24));
  if (maxToolCalls !== undefined) codemode.maxToolCalls = maxToolCalls;
  if (http) codemode.http = http;
  if (skills !== undefined) codemode.skills = skills;
  if (policy) codemode.policy = policy;
  if (audit) codemode.audit = audit;
  return { file: writeConfig(dir, { mcpServers, codemode }), db: dbPath };
}

/** An SDK client of a new server for `file` over `transport`, with exec(code). */
export async function connect(file, transport = 'stdio', { label = `state ${transport}`, args = [] } = {}) {
  const h = await connectSdk(['--config', file, '--pool-size', '2', ...args], { label, transport });
  h.exec = (code, opts) => exec(h.client, code, opts);
  return h;
}

/**
 * connect() that keeps every handle, closed after the test file and checked
 * with assertClean (call at the top level of a test file).
 */
export function trackedConnect() {
  const handles = [];
  after(async () => {
    for (const h of handles) await h.close();
    await assertClean(...handles);
  });
  return async (file, transport, opts) => {
    const h = await connect(file, transport, opts);
    handles.push(h);
    return h;
  };
}

/**
 * Another SDK client (its own session) of the HTTP server of handle `h`
 * (or of an HttpServer), with a bearer token when given.
 */
export async function secondClient(h, token) {
  const url = new URL(`${(h.server ?? h).url}/mcp`);
  const requestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : undefined;
  const client = new Client({ name: 'e2e-second', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit }));
  return { client, exec: (code, opts) => exec(client, code, opts), close: () => client.close() };
}

/** Makes `file` read-only (on) or writable again (off), root included. */
export function readOnly(file, on) {
  if (process.getuid() === 0) execFileSync('chattr', [on ? '+i' : '-i', file]);
  else fs.chmodSync(file, on ? 0o444 : 0o644);
}
