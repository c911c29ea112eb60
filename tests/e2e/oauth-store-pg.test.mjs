// OAuth tokens on a shared PostgreSQL store (codemode.store, docs/oauth.md):
// two mcp-codemode processes naming one database share one rotating refresh
// token. The protected server (tests/fixtures/oauth/bed.mjs, npm
// oidc-provider with rotating refresh tokens) refuses each access token
// after 2 calls in a session, so both processes get 401s mid-session, at the same moments,
// more than 100 times: each refused call is sent again once after a refresh,
// and the refresh token is spent exactly once per rotation (compare-and-set
// under PostgreSQL's row lock; the loser reads the winner's token). Skipped,
// with the reason, without the PostgreSQL server binaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir, writeConfig, runBin, assertNoSanitizerReport } from './lib/downstream.mjs';
import { PERSON, startBed } from './lib/oauth-client.mjs';
import { pgAvailable, startCluster } from './lib/pg.mjs';

const skip = pgAvailable() ? false : 'PostgreSQL (initdb, pg_ctl) is not installed: scripts/setup.sh --npm';

test('two processes on one PostgreSQL refresh one rotating token over 100 times on 401s mid-session: every call answered, no refresh token spent twice', { skip, timeout: 180000 }, async (t) => {
  const cluster = startCluster();
  const db = cluster.database('oauth_shared');
  const b = await startBed(t, { rotateRefreshToken: true, tokenUses: 2 });
  const dir = tempDir('codemode-opg-');
  const file = writeConfig(dir, {
    mcpServers: { notes: { url: b.mcp, oauth: {} } },
    codemode: { state: { path: path.join(dir, 'state.db') }, store: { url: cluster.url(db) } },
  });
  const login = await runBin(['login', 'notes', file], { env: { ...process.env, BROWSER: PERSON }, timeout: 30000 });
  assertNoSanitizerReport(login.stderr);
  assert.equal(login.code, 0, login.stderr);
  // the tokens are PostgreSQL's, not the state file's
  assert.match(cluster.psql("SELECT count(*) FROM codemode_oauth WHERE kind='token'", db), /\b1\b/);
  const check = await runBin(['check', file], { timeout: 30000 });
  assert.match(check.stdout, /login: logged in/, check.stdout + check.stderr);

  const code = `let ok = 0, failed = [];
    for (let i = 0; i < 300; i++) {
      try { const r = await tools.notes.whoami({}); if (/^you are alice/.test(r.content ? r.content[0].text : r)) ok++; }
      catch (e) { failed.push(e.name + ': ' + e.message); }
    }
    [ok, failed.slice(0, 3)]`;
  const prog = path.join(dir, 'calls.js');
  fs.writeFileSync(prog, code);
  const runs = await Promise.all([1, 2].map(() => runBin(['run', prog, file, '--json'], { timeout: 150000 })));
  for (const r of runs) {
    assertNoSanitizerReport(r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).result, [300, []], r.stdout + r.stderr);
  }
  const { provider, mcp } = await b.log();
  const refreshes = provider.filter((e) => e.event === 'grant' && e.grantType === 'refresh_token');
  assert.ok(refreshes.length >= 100, `${refreshes.length} refreshes`);
  assert.ok(mcp.usedUp >= 150, `${mcp.usedUp} calls refused with 401`);
  assert.deepEqual(provider.filter((e) => e.event === 'grant.error'), []);
  // each rotation spent its refresh token once
  assert.equal(provider.filter((e) => e.event === 'refresh_token.consumed').length, refreshes.length);
});
