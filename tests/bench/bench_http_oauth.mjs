// What checking a per-user OAuth access token costs a request (issue 30,
// docs/http-oauth.md): mcp-codemode served with --http three ways in the same
// run, targets interleaved per round: no authentication, the shared bearer
// token (authToken, the baseline), and codemode.http.oauth with a JWKS served
// here (RS256 keys cached after the first request). One keep-alive node:http
// connection per target sends sequential 2026-07-28 tools/list requests, one
// of each case in turn;
// per-request latency p50 per round, median over rounds. Two OAuth cases: the
// same token on every request (what a client does), and a different token on
// every request (signed before timing: every request verifies a signature),
// each against its own server; also the CPU time of each server's loop thread
// per request (steadier than latency on a shared machine).
// Target of the issue: a cached-key JWT adds at most 50 us per request (p50)
// over the static-token path. A benchmark, not a test: a missed target is
// reported, never fatal; the exit status is 1 only when something is broken.
//
// Knobs (env): BENCH_ROUNDS (5), BENCH_REQUESTS (400 per target per round),
// BENCH_QUICK=1 (2 rounds of 200), MCP_CODEMODE_BIN (default build/mcp-codemode),
// BENCH_BASE_BIN (another build, e.g. before a change: its own server and
// row for the new-JWT case, interleaved with the others in the same run),
// BENCH_PIDS=1 (print each server's pid to stderr before the timed rounds, to
// attach a profiler: `perf record -g -p PID` on the "new JWTs" server).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { median, percentile } from './lib/stats.mjs';
import { table } from './lib/report.mjs';
import { BIN } from './lib/targets.mjs';
import { cpuMs } from './lib/proc.mjs';

const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 2 : 5));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? (quick ? 200 : 400));
const TARGET_US = 50;
const ISSUER = 'https://auth.example.com';
const TOKEN = 'bench-static-token';

async function jwksServer() {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const keys = [{ ...(await exportJWK(publicKey)), kid: 'b1', alg: 'RS256', use: 'sig' }];
  const srv = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' });
    res.end(JSON.stringify({ keys }));
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${srv.address().port}/jwks`, privateKey, close: () => srv.close() };
}

async function start(name, codemode, bin = BIN) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-oauth-'));
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ mcpServers: {}, codemode: { ...codemode, state: { path: path.join(dir, 'state.db') } } }));
  const proc = spawn(bin, ['--http', '127.0.0.1:0', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    proc.stderr.on('data', (b) => {
      err += b;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (c) => reject(new Error(`${name}: exited ${c}: ${err}`)));
  });
  const u = new URL(url);
  return { name, proc, url, port: Number(u.port), agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) };
}

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });

function once(t, auth) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list', 'Content-Length': Buffer.byteLength(BODY) };
    if (auth) headers.Authorization = `Bearer ${auth}`;
    const req = http.request({ host: '127.0.0.1', port: t.port, path: '/mcp', method: 'POST', headers, agent: t.agent }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${t.name}: HTTP ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - t0) / 1000);
      });
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

const jwks = await jwksServer();
const targets = [
  await start('no authentication', { http: {} }),
  await start('authToken (baseline)', { http: { authToken: TOKEN } }),
];
const oauthCfg = { http: { publicUrl: 'https://mcp.example.com/mcp', oauth: { issuer: ISSUER, jwksUri: jwks.url } } };
const oauth = await start('oauth', oauthCfg);
const oauth2 = await start('oauth (new JWTs)', oauthCfg);
const BASE_BIN = process.env.BENCH_BASE_BIN;
const oauthBase = BASE_BIN ? await start('oauth (new JWTs, BENCH_BASE_BIN)', oauthCfg, BASE_BIN) : null;
const now = Math.floor(Date.now() / 1000);
const claims = { iss: ISSUER, sub: 'bench', aud: 'https://mcp.example.com/mcp', iat: now, exp: now + 3600, scope: 'mcp:tools' };
const sign = (i) => new SignJWT({ ...claims, jti: `j${i}` }).setProtectedHeader({ alg: 'RS256', kid: 'b1', typ: 'at+jwt' }).sign(jwks.privateKey);
const same = await sign(0);
const fresh = [];
for (let i = 0; i < ROUNDS * REQUESTS + 1; i++) fresh.push(await sign(i + 1));
let next = 0;
let nextBase = 0;
const cases = [
  { name: 'no authentication', t: targets[0], auth: () => undefined },
  { name: 'authToken (baseline)', t: targets[1], auth: () => TOKEN },
  { name: 'oauth, the same JWT', t: oauth, auth: () => same },
  { name: 'oauth, a new JWT each request', t: oauth2, auth: () => fresh[next++] },
];
if (oauthBase) cases.push({ name: 'base build: a new JWT each request', t: oauthBase, auth: () => fresh[nextBase++] });

let broken = false;
const p50s = new Map(cases.map((c) => [c.name, []]));
const cpu = new Map(); // the server's main thread (the loop): CPU ms over the timed rounds
try {
  for (const c of cases) for (let i = 0; i < 100; i++) await once(c.t, c.name.includes('new') ? same : c.auth()); // warm up: keys fetched, workers idle
  if (process.env.BENCH_PIDS === '1') for (const c of cases) console.error(`bench_http_oauth: ${c.name}: pid ${c.t.proc.pid}`);
  for (const c of cases) cpu.set(c.name, -cpuMs(c.t.proc.pid));
  for (let r = 0; r < ROUNDS; r++) {
    const lat = new Map(cases.map((c) => [c.name, []]));
    for (let i = 0; i < REQUESTS; i++) // one request of each case in turn: drift hits all alike
      for (const c of cases) lat.get(c.name).push(await once(c.t, c.auth()));
    for (const c of cases) p50s.get(c.name).push(percentile(lat.get(c.name), 50));
  }
  for (const c of cases) cpu.set(c.name, cpu.get(c.name) + cpuMs(c.t.proc.pid));
} catch (e) {
  console.error(`bench_http_oauth: ${e.message}`);
  broken = true;
}

if (!broken) {
  const base = median(p50s.get('authToken (baseline)'));
  const perReq = (name) => (cpu.get(name) * 1000) / (ROUNDS * REQUESTS);
  const cpuBase = perReq('authToken (baseline)');
  const sign = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)} us`;
  const rows = cases.map((c) => {
    const m = median(p50s.get(c.name));
    return [c.name, `${m.toFixed(1)} us`, sign(m - base), `${(m / base).toFixed(3)}x`, `${perReq(c.name).toFixed(1)} us`, sign(perReq(c.name) - cpuBase)];
  });
  console.log(`HTTP request latency with and without OAuth (${ROUNDS} rounds x ${REQUESTS} sequential 2026-07-28 tools/list per case, one keep-alive connection; p50 per round, median over rounds)`);
  table(['case', 'latency p50', 'vs authToken', 'ratio', 'server CPU/request', 'vs authToken'], rows);
  const added = median(p50s.get('oauth, a new JWT each request')) - base;
  const sameAdded = median(p50s.get('oauth, the same JWT')) - base;
  console.log(`target: a cached-key JWT adds at most ${TARGET_US} us (p50): the same JWT ${sign(sameAdded)} ${sameAdded <= TARGET_US ? 'met' : 'MISSED'}; a new JWT each request ${sign(added)} ${added <= TARGET_US ? 'met' : 'MISSED'}`);
  console.log(`server CPU per request (the loop's thread, schedstat) is the steadier figure: the same JWT ${sign(perReq('oauth, the same JWT') - cpuBase)}, a new JWT ${sign(perReq('oauth, a new JWT each request') - cpuBase)} over authToken`);
  if (oauthBase) console.log(`a new JWT each request, this build against BENCH_BASE_BIN: latency ${sign(median(p50s.get('oauth, a new JWT each request')) - median(p50s.get('base build: a new JWT each request')))}, server CPU ${sign(perReq('oauth, a new JWT each request') - perReq('base build: a new JWT each request'))}`);
}
for (const t of [...targets, oauth, oauth2, ...(oauthBase ? [oauthBase] : [])]) t.proc.kill('SIGTERM');
jwks.close();
process.exit(broken ? 1 : 0);
