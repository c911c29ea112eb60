// The host's descriptor limit (common/fd_limit.h), from outside: started
// under a soft limit of 256 open files, mcp-codemode makes 400 calls at once
// to a Streamable HTTP server (one connection each) and every one succeeds.
// Without the raise, socket() failed past the limit, the server was taken
// for unreachable and all 400 calls failed. Under a hard limit of 256, the
// calls that find no descriptor fail alone, saying so, and the server stays
// up for the next call. (That spawned servers get the limit back is tested
// in tests/unit/test_common_fd_limit.c: Node, which most servers run on,
// raises its own limit at start anyway.)
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { NODE, assertNoSanitizerReport, tempDir, writeConfig } from './lib/downstream.mjs';
import { BIN, REPO_ROOT } from './lib/paths.mjs';

const HTTP_FIXTURE = path.join(REPO_ROOT, 'tests/fixtures/servers/http-mcp.mjs');
const TMP = tempDir('codemode-fdlimit-');
const SOFT = 256;
const CALLS = 400;
// lowering the limits needs a hard limit above them
const HARD = execFileSync('/bin/sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim();
const SKIP = HARD !== 'unlimited' && Number(HARD) < 2 * CALLS ? `the hard limit on open files is ${HARD}` : false;
let web;

before(async () => {
  web = spawn(NODE, [HTTP_FIXTURE, '--mode', 'streamable', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  web.port = await new Promise((resolve, reject) => {
    createInterface({ input: web.stdout }).on('line', (l) => {
      const m = /^PORT (\d+)$/.exec(l);
      if (m) resolve(Number(m[1]));
    });
    web.on('exit', (c) => reject(new Error(`the HTTP fixture exited (${c})`)));
  });
});
after(() => web?.kill('SIGTERM'));

/** Runs `run FILE --json` under `ulimit -Sn SOFT` (or -n: soft and hard). */
function runLimited(args, which = '-Sn') {
  return new Promise((resolve, reject) => {
    const p = spawn('/bin/sh', ['-c', `ulimit ${which} ${SOFT} && exec "$0" "$@"`, BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    p.stdout.on('data', (b) => { stdout += b; });
    p.stderr.on('data', (b) => { stderr += b; });
    const timer = setTimeout(() => { p.kill('SIGKILL'); reject(new Error(`no exit within 60 s\n${stderr}`)); }, 60000);
    p.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/** Runs CALLS parallel 300 ms calls, then one more: what became of them. */
async function manyCalls(which) {
  const config = writeConfig(TMP, {
    mcpServers: {
      web: { type: 'http', url: `http://127.0.0.1:${web.port}/mcp` },
    },
    codemode: { maxConcurrentCalls: 1000 },
  });
  const program = path.join(TMP, 'many.js');
  writeFileSync(program, `
    const calls = [];
    for (let i = 0; i < ${CALLS}; i++)
      calls.push(tools.web.sleep({ ms: 300 }).then(() => "ok", (e) => e.message));
    const r = await Promise.all(calls);
    const failed = r.filter((x) => x !== "ok");
    const after = await tools.web.echo({ text: "after" }).then(() => "ok", (e) => e.message);
    return { ok: r.length - failed.length, failed: failed.length, messages: [...new Set(failed)], after };`);
  const r = await runLimited(['run', program, '--json', '--config', config], which);
  assertNoSanitizerReport(r.stderr);
  assert.equal(r.code, 0, r.stderr.slice(-2000));
  return JSON.parse(r.stdout).result;
}

test(`under a soft limit of ${SOFT} open files, ${CALLS} calls at once to an HTTP server all succeed`, { skip: SKIP }, async (t) => {
  const out = await manyCalls('-Sn');
  t.diagnostic(JSON.stringify(out));
  assert.deepEqual(out, { ok: CALLS, failed: 0, messages: [], after: 'ok' });
});

test(`under a hard limit of ${SOFT}, the calls left without a descriptor fail alone and say why`, { skip: SKIP }, async (t) => {
  const out = await manyCalls('-n');
  t.diagnostic(JSON.stringify(out));
  assert.ok(out.ok > 0 && out.failed > 0, JSON.stringify(out));
  assert.equal(out.messages.length, 1, JSON.stringify(out.messages));
  assert.match(out.messages[0], /^server 'web': 'sleep' failed: got no connection: mcp-codemode is at its limit on open files.*ulimit -n/);
  assert.equal(out.after, 'ok', 'the server is still up');
});
