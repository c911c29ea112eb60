// Nothing lost on the way to and from a downstream server over Streamable
// HTTP (issue 13, section 2; the stdio side is nothing-lost.test.mjs):
// arguments with U+0000 and lone surrogates reach it whole, a result body
// with lone surrogate escapes is delivered, and an answer event that is not
// JSON fails its call at once though its stream stays open.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { freePort, listening } from './lib/ports.mjs';

const FIXTURE = path.join(REPO_ROOT, 'tests/fixtures/servers/http-mcp.mjs');
let fixture, s;

/** A JavaScript literal of v, ASCII only (lone surrogates and U+2028 escaped). */
function lit(v) {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

before(async () => {
  const port = await freePort();
  fixture = spawn(process.execPath, [FIXTURE, '--mode', 'streamable', '--string-tools', '--port', String(port)], { stdio: 'ignore' });
  await listening(port);
  const dir = tempDir('codemode-lost-http-');
  const config = writeConfig(dir, { mcpServers: { web: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, timeoutMs: 20000 } } });
  s = await serve(config, { label: 'lost-http-downstream' });
});
after(async () => {
  await assertClean(s);
  fixture.kill();
});

const TRICKY = { nul: 'a\u0000b', lone: 'x\ud800y', low: '\udc00', seps: '\u2028\u2029', 'k\u0000': '\ud800k' };

test('arguments with U+0000 and lone surrogates reach an HTTP server whole, and come back', async () => {
  assert.deepEqual(valueOf(await s.exec(`return await tools.web.echo(${lit(TRICKY)})`)), TRICKY);
});

test('a result body holding lone surrogate and U+0000 escapes is delivered whole', async () => {
  assert.deepEqual(valueOf(await s.exec('return await tools.web.lone_surrogates()')),
    { lone: 'x\ud800y', nul: 'n\u0000l', 'k\ud800': 1 });
});

test('an answer event that is not JSON fails its call at once, naming the server', async () => {
  const t0 = Date.now();
  const r = valueOf(await s.exec(`
    try { await tools.web.unreadable({}); return "no error"; }
    catch (e) { return { name: e.name, message: e.message }; }`));
  const ms = Date.now() - t0;
  assert.equal(r.name, 'ToolError', JSON.stringify(r));
  assert.match(r.message, /^server 'web': 'unreadable' failed: its response to tools\/call could not be read/, r.message);
  assert.ok(ms < 3000, `${ms} ms (the entry's timeout is 20 s, and the stream stays open)`);
  assert.deepEqual(valueOf(await s.exec('return await tools.web.add({ a: 1, b: 2 })')), { sum: 3 });
});

auditSchemas();
