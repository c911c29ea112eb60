// Two instances behind nginx (docs/deploy.md), on loopback ports: 2026-07-28
// stateless calls are balanced over both; a 2025 session, whose id starts
// with its instance's codemode.http.instanceId, stays on the instance that
// created it (the official SDK client through the proxy, progress on the POST's
// SSE stream as it happens); legacy SSE sessions route on the sessionId of
// their endpoint URL; Host checks still refuse a foreign Host through the
// proxy; and when one instance is killed under load, only the calls in flight
// on it fail. Skipped, with the reason, when nginx is not installed
// (scripts/setup.sh --npm installs it).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auditSchemas } from './lib/audit.mjs';
import { CLIENT_CAPABILITIES_KEY, HttpServer, JSON_HEADERS, RawSession, fetchAll, modernCall, request, writeConfig } from './lib/http.mjs';
import { NGINX, startNginx } from './lib/nginx.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { freePort } from './lib/ports.mjs';
import { allServers, sleep } from './lib/raw.mjs';
import { Wire } from './lib/wire.mjs';

const skip = NGINX ? false : 'nginx is not installed (scripts/setup.sh --npm installs it)';
const RECORDER = path.join(REPO_ROOT, 'tests/fixtures/servers/recorder.mjs');

let a, b, proxy, stickyProxy, nginx;

/** One instance: its instanceId, and a downstream server named after it, so
 *  that `Object.keys(tools)` tells a program which instance runs it. */
function startInstance(id, publicOrigins) {
  const cfg = writeConfig(
    { http: { instanceId: id, allowedOrigins: publicOrigins }, poolSize: 2, policy: { rules: { '*.plain-text': 'ask' } } },
    { [`inst_${id}`]: { command: process.execPath, args: [RECORDER, '--name', `inst_${id}`] } },
  );
  return HttpServer.start(['--config', cfg], { label: `instance ${id}` });
}

/** The configuration of docs/deploy.md, on loopback and without TLS, and on
 *  port `sticky` the same instances balanced by client (hash $remote_addr). */
function nginxConf(port, sticky, ua, ub) {
  return `
  upstream mcp_all { server 127.0.0.1:${ua} max_fails=1 fail_timeout=30s; server 127.0.0.1:${ub} max_fails=1 fail_timeout=30s; keepalive 16; }
  upstream mcp_a { server 127.0.0.1:${ua}; keepalive 4; }
  upstream mcp_b { server 127.0.0.1:${ub}; keepalive 4; }
  upstream mcp_sticky { hash $remote_addr consistent; server 127.0.0.1:${ua}; server 127.0.0.1:${ub}; keepalive 4; }
  map $arg_sessionId $mcp_by_query { "~^a[.]" mcp_a; "~^b[.]" mcp_b; default mcp_all; }
  map $http_mcp_session_id $mcp_upstream { "~^a[.]" mcp_a; "~^b[.]" mcp_b; default $mcp_by_query; }
  ${server(port, '$mcp_upstream')}
  ${server(sticky, 'mcp_sticky')}`;
}

/** A server block of nginxConf: every request to the upstream, unbuffered. */
function server(port, upstream) {
  return `server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout;
    }
  }`;
}

before(async () => {
  if (skip) return;
  const port = await freePort();
  const stickyPort = await freePort();
  const origins = [`http://127.0.0.1:${port}`, `http://127.0.0.1:${stickyPort}`];
  [a, b] = await Promise.all([startInstance('a', origins), startInstance('b', origins)]);
  nginx = await startNginx(port, nginxConf(port, stickyPort, a.port, b.port));
  proxy = { label: 'nginx', port, transportWire: new Wire('nginx (HTTP-level errors)') };
  stickyProxy = { label: 'nginx sticky', port: stickyPort, transportWire: new Wire('nginx sticky (HTTP-level errors)') };
});

after(async () => {
  await nginx?.stop();
});

const whoCode = 'await sleep(5); return Object.keys(tools)[0];';

/** A stateless 2026-07-28 execute_code through the proxy: the instance's name. */
async function statelessWho(wire, id) {
  const r = await modernCall(proxy, wire, 'tools/call', { name: 'execute_code', arguments: { code: whoCode } }, { id });
  if (r.status !== 200) return { failed: `HTTP ${r.status}` };
  const m = r.messages.at(-1);
  return m?.result?.isError ? { failed: m.result.content[0].text } : { who: m.result.structuredContent.result };
}

test('stateless requests are spread over both instances', { skip }, async () => {
  const wire = new Wire('nginx stateless');
  const seen = { inst_a: 0, inst_b: 0 };
  for (let i = 0; i < 12; i++) {
    const r = await statelessWho(wire, i + 1);
    assert.equal(r.failed, undefined, r.failed);
    seen[r.who]++;
  }
  assert.ok(seen.inst_a >= 3 && seen.inst_b >= 3, `round robin over both: ${JSON.stringify(seen)}`);
});

test('a 2025 session stays on its instance; progress arrives through the proxy as it happens', { skip }, async () => {
  for (let k = 0; k < 4; k++) {
    const client = new Client({ name: 'e2e-nginx', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${proxy.port}/mcp`));
    await client.connect(transport);
    const prefix = transport.sessionId.slice(0, 2);
    assert.match(prefix, /^[ab]\.$/, `session id ${transport.sessionId} starts with its instance id`);
    for (let i = 0; i < 5; i++) {
      const r = await client.callTool({ name: 'execute_code', arguments: { code: 'return Object.keys(tools)[0]' } });
      assert.equal(r.structuredContent.result, `inst_${prefix[0]}`, 'every call of the session runs on the instance that created it');
    }
    const arrivals = [];
    const t0 = Date.now();
    const code = 'for (let i = 1; i <= 3; i++) { console.log("step " + i); await sleep(150); }\nreturn "done";';
    const r = await client.callTool({ name: 'execute_code', arguments: { code } }, undefined, {
      onprogress: (p) => arrivals.push([p.message, Date.now() - t0]),
    });
    const end = Date.now() - t0;
    assert.equal(r.structuredContent.result, 'done');
    assert.deepEqual(arrivals.map((x) => x[0]), ['step 1', 'step 2', 'step 3']);
    assert.ok(end - arrivals[0][1] >= 300, `the first progress line arrived ${end - arrivals[0][1]} ms before the result, not buffered by the proxy`);
    await transport.terminateSession();
    await client.close();
  }
});

test('a raw 2025 session: its id routes every request, DELETE included; an unknown id gets 404 from its instance', { skip }, async () => {
  const s = await RawSession.open(proxy, '2025-11-25', 'nginx raw session');
  assert.match(s.id, /^[ab]\.[0-9a-f]{48}$/);
  for (let i = 0; i < 6; i++) {
    const r = await s.call('tools/call', { name: 'execute_code', arguments: { code: 'return Object.keys(tools)[0]' } });
    assert.equal(r.messages[0].result.structuredContent.result, `inst_${s.id[0]}`);
  }
  const other = (s.id[0] === 'a' ? 'b' : 'a') + s.id.slice(1);
  const wrong = await fetchAll(proxy, { headers: { ...JSON_HEADERS, 'Mcp-Session-Id': other, 'MCP-Protocol-Version': '2025-11-25' }, body: { jsonrpc: '2.0', id: 9, method: 'ping' } });
  assert.equal(wrong.status, 404, 'the same random part under the other prefix is routed there, where it is unknown');
  assert.equal((await s.delete()).status, 200);
});

test('legacy SSE: the endpoint URL carries the instance prefix and POSTs reach the stream', { skip }, async () => {
  const events = [];
  const ac = new AbortController();
  const stream = await request(proxy, { method: 'GET', path: '/sse', headers: { Accept: 'text/event-stream' }, signal: ac.signal, onEvent: (e) => events.push(e), wire: null });
  assert.equal(stream.status, 200);
  for (let i = 0; i < 300 && !events.some((e) => e.event === 'endpoint'); i++) await sleep(10);
  const endpoint = events.find((e) => e.event === 'endpoint').data;
  assert.match(endpoint, /^\/message\?sessionId=[ab]\.[0-9a-f]{48}$/);
  const wire = new Wire('nginx legacy SSE');
  const post = (body) => fetchAll(proxy, { path: endpoint, headers: { 'Content-Type': 'application/json' }, body, wire: null });
  assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'sse', version: '1' } } })).status, 202);
  assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  assert.equal((await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'return Object.keys(tools)[0]' } } })).status, 202);
  const want = `inst_${endpoint.split('=')[1][0]}`;
  for (let i = 0; i < 200 && !events.some((e) => e.data?.includes('"id":2')); i++) await sleep(10);
  const reply = JSON.parse(events.find((e) => e.data?.includes('"id":2')).data);
  assert.equal(JSON.parse(reply.result.content[0].text), want);
  ac.abort();
});

test('a stateless approval: the requestState names its instance; the other instance says so; sticky routing resumes it', { skip }, async () => {
  const wire = new Wire('nginx stateless approval');
  const caps = { [CLIENT_CAPABILITIES_KEY]: { elicitation: {} } };
  const args = { code: 'const s = Object.keys(tools)[0]; const t = await callTool(s + ".plain-text", {}); return [s, typeof t];' };
  const ask = async (server, id) => {
    const r = await modernCall(server, wire, 'tools/call', { name: 'execute_code', arguments: args }, { id, meta: caps });
    const res = r.messages.at(-1).result;
    assert.equal(res?.resultType, 'input_required', JSON.stringify(r.messages.at(-1)));
    return res;
  };
  const retry = (server, res, id) => modernCall(server, wire, 'tools/call', {
    name: 'execute_code', arguments: args, requestState: res.requestState,
    inputResponses: { [Object.keys(res.inputRequests)[0]]: { action: 'accept', content: { decision: 'once' } } },
  }, { id, meta: caps });

  // through the balanced upstream, then the retry on the other instance
  const res = await ask(proxy, 1);
  assert.match(res.requestState, /^[ab]\.[0-9a-f]{32}$/);
  const mine = res.requestState[0], other = mine === 'a' ? b : a;
  const wrong = (await retry(other, res, 2)).messages.at(-1);
  assert.equal(wrong.error?.code, -32602, JSON.stringify(wrong));
  assert.equal(wrong.error.message, `requestState was issued by the instance "${mine}", and this is the instance "${mine === 'a' ? 'b' : 'a'}": the execution waits there, so the retry must reach that instance (behind a load balancer, keep a client's requests on one instance: docs/deploy.md)`);
  const right = (await retry(mine === 'a' ? a : b, res, 3)).messages.at(-1);
  assert.deepEqual(right.result?.structuredContent?.result, [`inst_${mine}`, 'string'], JSON.stringify(right));

  // the sticky upstream (docs/deploy.md) keeps one client on one instance
  for (let i = 0; i < 4; i++) {
    const r1 = await ask(stickyProxy, 10 + i);
    const done = (await retry(stickyProxy, r1, 20 + i)).messages.at(-1);
    assert.deepEqual(done.result?.structuredContent?.result, [`inst_${r1.requestState[0]}`, 'string'], JSON.stringify(done));
  }
});

test('DNS-rebinding protection still holds behind the proxy: a foreign Host gets 403', { skip }, async () => {
  const r = await fetchAll(proxy, { host: 'evil.example', headers: JSON_HEADERS, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
  assert.equal(r.status, 403);
});

test('one instance killed under load: stateless calls go on through the other; only calls in flight on it fail', { skip }, async (t) => {
  const wire = new Wire('nginx under load');
  const CONCURRENCY = 6, TOTAL = 240;
  let next = 0, done = 0, killedAt = -1;
  const results = [];
  const worker = async () => {
    while (next < TOTAL) {
      const i = next++;
      const r = await statelessWho(wire, 1000 + i).catch((e) => ({ failed: String(e) }));
      results[i] = { ...r, afterKill: killedAt >= 0 };
      done++;
    }
  };
  const killer = (async () => {
    while (done < TOTAL / 3) await sleep(5);
    killedAt = done;
    b.proc.kill('SIGKILL');
    allServers.splice(allServers.indexOf(b), 1); // killed on purpose: not a bad exit
  })();
  await Promise.all([killer, ...Array.from({ length: CONCURRENCY }, worker)]);
  const failed = results.filter((r) => r.failed);
  t.diagnostic(`killed after ${killedAt} of ${TOTAL} calls; ${failed.length} failed (in flight at most ${CONCURRENCY})`);
  assert.ok(failed.length <= CONCURRENCY, `${failed.length} failed calls, at most the ${CONCURRENCY} in flight may: ${JSON.stringify(failed)}`);
  const lastThird = results.slice(Math.ceil((TOTAL * 2) / 3));
  assert.ok(lastThird.every((r) => r.who === 'inst_a'), 'after the kill every call runs on the surviving instance');
  const before = results.slice(0, Math.floor(TOTAL / 4));
  assert.ok(before.some((r) => r.who === 'inst_b'), 'before the kill both instances served');
});

auditSchemas({ minMessages: skip ? 0 : 20 });
