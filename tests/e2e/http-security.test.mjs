// The HTTP server's defences and shutdown: Host and Origin validation (the
// conformance suite's DNS rebinding check), the bearer token, the body cap,
// slow and idle clients, connections that never send a byte, the connection
// cap under a flood of idle connections (and under a low limit on open
// files), folded header lines and the HTTP/2 preface, many sessions at once,
// and SIGTERM: requests in progress finish, new connections are refused, the
// drain deadline cancels what is left, and the process exits 0 with no worker
// left behind.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auditSchemas } from './lib/audit.mjs';
import { HttpServer, JSON_HEADERS, RawSession, fetchAll, messagesOf, recordingFetch, request, writeConfig } from './lib/http.mjs';
import { childrenOf, isAlive, zygoteOf } from './lib/procs.mjs';
import { sleep } from './lib/raw.mjs';
import { Wire } from './lib/wire.mjs';

const initialize = (id = 1) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } });

test('DNS rebinding: Host or Origin evil.example.com get 403; the real host and origin 2xx', async () => {
  const srv = await HttpServer.start([], { label: 'rebinding' });
  const wire = new Wire('rebinding');
  const evilHost = await fetchAll(srv, { host: 'evil.example.com', headers: { ...JSON_HEADERS, Origin: 'http://evil.example.com' }, body: initialize() });
  assert.equal(evilHost.status, 403);
  const evilOrigin = await fetchAll(srv, { headers: { ...JSON_HEADERS, Origin: 'http://evil.example.com' }, body: initialize() });
  assert.equal(evilOrigin.status, 403);
  const wrongPort = await fetchAll(srv, { host: 'localhost:1', headers: JSON_HEADERS, body: initialize() });
  assert.equal(wrongPort.status, 403);
  const good = await fetchAll(srv, { host: `localhost:${srv.port}`, headers: { ...JSON_HEADERS, Origin: `http://localhost:${srv.port}` }, body: initialize(), wire });
  assert.equal(good.status, 200);
  assert.equal(good.headers['access-control-allow-origin'], `http://localhost:${srv.port}`);
  const sse = await fetchAll(srv, { method: 'GET', path: '/sse', headers: { Origin: 'http://evil.example.com' } });
  assert.equal(sse.status, 403, 'the legacy endpoint is guarded too');
  await srv.stop();
});

test('bearer token: 401 with WWW-Authenticate: Bearer without or with a wrong token; the SDK with the token works', async () => {
  const srv = await HttpServer.start(['--auth-token', 'e2e-s3cret'], { label: 'auth' });
  const none = await fetchAll(srv, { headers: JSON_HEADERS, body: initialize() });
  assert.equal(none.status, 401);
  assert.match(none.headers['www-authenticate'], /^Bearer /);
  const wrong = await fetchAll(srv, { headers: { ...JSON_HEADERS, Authorization: 'Bearer nope' }, body: initialize() });
  assert.equal(wrong.status, 401);
  assert.match(wrong.headers['www-authenticate'], /invalid_token/);
  const wire = new Wire('auth sdk');
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
    fetch: recordingFetch(srv, wire), requestInit: { headers: { Authorization: 'Bearer e2e-s3cret' } },
  });
  const client = new Client({ name: 'e2e-auth', version: '1.0.0' });
  await client.connect(transport);
  const r = await client.callTool({ name: 'execute_code', arguments: { code: 'return "in"' } });
  assert.equal(r.structuredContent.result, 'in');
  await client.close();
  await srv.stop();
});

test('413 for a body over maxMessageBytes; the server goes on serving', async () => {
  const srv = await HttpServer.start(['--max-message-bytes', '65536'], { label: 'body-cap' });
  const big = JSON.stringify({ ...initialize(), pad: 'x'.repeat(70000) });
  const r = await fetchAll(srv, { headers: JSON_HEADERS, body: big });
  assert.equal(r.status, 413);
  const s = await RawSession.open(srv, '2025-11-25');
  assert.equal((await s.call('ping')).status, 200);
  await srv.stop();
});

/** A raw TCP client; resolves {data, closedAfterMs} once the server closes. */
function rawSocket(port, steps) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let data = '';
    const t0 = Date.now();
    sock.setEncoding('utf8');
    sock.on('data', (d) => { data += d; });
    sock.on('error', () => {});
    sock.on('close', () => resolve({ data, closedAfterMs: Date.now() - t0 }));
    sock.on('connect', () => steps(sock).catch(reject));
    setTimeout(() => { sock.destroy(); reject(new Error(`the server did not close the connection: ${data}`)); }, 8000);
  });
}

test('slow clients: a trickled request head gets 408 and the connection closed; idle keep-alive connections are closed', async () => {
  const cfg = writeConfig({ http: { headersTimeoutMs: 400, idleTimeoutMs: 500 } });
  const srv = await HttpServer.start(['--config', cfg], { label: 'slow' });
  const slow = await rawSocket(srv.port, async (sock) => {
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nContent-Type: application/json\r\nX-Padding: abcdefghijklmnop\r\n`;
    for (const ch of head) {
      if (sock.destroyed) return;
      sock.write(ch);
      await sleep(50);
    }
  });
  assert.match(slow.data, /^HTTP\/1\.1 408 /);
  assert.ok(slow.closedAfterMs >= 350 && slow.closedAfterMs < 2000, `closed after ${slow.closedAfterMs} ms`);
  const idle = await rawSocket(srv.port, async (sock) => {
    sock.write(`GET /nope HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\n\r\n`);
  });
  assert.match(idle.data, /^HTTP\/1\.1 404 /);
  assert.match(idle.data, /Keep-Alive: timeout=1\r\n/);
  assert.ok(idle.closedAfterMs >= 450 && idle.closedAfterMs < 2500, `closed after ${idle.closedAfterMs} ms`);
  // and it still serves
  assert.equal((await fetchAll(srv, { headers: JSON_HEADERS, body: initialize() })).status, 200);
  await srv.stop();
});

/** A legacy SSE session (2024-11-05) driven by hand: its stream, and POSTs to its endpoint. */
async function legacySession(srv, headers, label) {
  const wire = new Wire(label);
  const ac = new AbortController();
  const events = [];
  let wake;
  const stream = await request(srv, { method: 'GET', path: '/sse', headers: { ...headers, Accept: 'text/event-stream' }, signal: ac.signal, wire, onEvent: (e) => { events.push(e); wake?.(); } });
  assert.equal(stream.status, 200);
  const next = async (pred) => {
    for (let i = 0; i < 200; i++) {
      const e = events.find(pred);
      if (e) return e;
      await new Promise((r) => { wake = r; setTimeout(r, 50); });
    }
    throw new Error(`${label}: no such event`);
  };
  const endpoint = (await next((e) => e.event === 'endpoint')).data;
  const post = (body) => fetchAll(srv, { path: endpoint, headers: { ...headers, 'Content-Type': 'application/json' }, body, wire });
  const reply = async (id) => JSON.parse((await next((e) => e.event === 'message' && JSON.parse(e.data).id === id)).data);
  return { post, reply, close: () => ac.abort(), stream };
}

/** initialize + initialized + tools/call over a legacy SSE session; `between` runs before each POST. */
async function legacyCall(srv, headers, label, between = async () => {}) {
  const s = await legacySession(srv, headers, label);
  await between();
  assert.equal((await s.post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: label, version: '1' } } })).status, 202);
  assert.equal((await s.reply(1)).result.protocolVersion, '2024-11-05');
  await between();
  assert.equal((await s.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  await between();
  assert.equal((await s.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'return "legacy"' } } })).status, 202);
  const r = await s.reply(2);
  assert.equal(r.result?.content?.[0]?.text, JSON.stringify("legacy"), JSON.stringify(r));
  s.close();
}

/** initialize + initialized + tools/call over Streamable HTTP (2025-11-25); `between` runs before each POST. */
async function streamableCall(srv, headers, label, between = async () => {}) {
  const wire = new Wire(label);
  await between();
  const init = await fetchAll(srv, { headers: { ...JSON_HEADERS, ...headers }, body: initialize(), wire });
  assert.equal(init.status, 200);
  const h = { ...JSON_HEADERS, ...headers, 'Mcp-Session-Id': init.headers['mcp-session-id'], 'MCP-Protocol-Version': '2025-11-25' };
  await between();
  assert.equal((await fetchAll(srv, { headers: h, body: { jsonrpc: '2.0', method: 'notifications/initialized' }, wire })).status, 202);
  await between();
  const call = await fetchAll(srv, { headers: h, body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'return "streamable"' } } }, wire });
  assert.equal(call.status, 200);
  assert.equal(messagesOf(call)[0].result.structuredContent.result, 'streamable');
}

test('a connection that sends nothing is closed headersTimeoutMs after accept, not idleTimeoutMs; the server still serves both transports', async () => {
  const cfg = writeConfig({ http: { headersTimeoutMs: 400, idleTimeoutMs: 60000 } });
  const srv = await HttpServer.start(['--config', cfg], { label: 'silent' });
  const silent = await Promise.all([1, 2, 3].map(() => rawSocket(srv.port, async () => {})));
  for (const s of silent) {
    assert.equal(s.data, '', 'closed without a response');
    assert.ok(s.closedAfterMs >= 350 && s.closedAfterMs < 2000, `closed after ${s.closedAfterMs} ms`);
  }
  // empty lines are not a request: they do not keep the connection
  const blank = await rawSocket(srv.port, async (sock) => {
    for (let i = 0; i < 20 && !sock.destroyed; i++) {
      sock.write('\r\n');
      await sleep(50);
    }
  });
  assert.ok(blank.closedAfterMs < 2000, `closed after ${blank.closedAfterMs} ms`);
  await streamableCall(srv, {}, 'silent: streamable');
  await legacyCall(srv, {}, 'silent: legacy');
  await srv.stop();
});

test('at maxConnections, idle attackers make room: an authenticated client is served over Streamable HTTP and legacy SSE; all busy: 503', async (t) => {
  const CAP = 8;
  const cfg = writeConfig({ http: { authToken: 'e2e-s3cret', maxConnections: CAP } });
  const srv = await HttpServer.start(['--config', cfg], { label: 'cap' });
  const auth = { Authorization: 'Bearer e2e-s3cret' };
  const held = [];
  let opened = 0;
  const live = () => held.filter((s) => !s.destroyed && !s.readableEnded);
  // Attackers keep CAP connections open: half never send a byte, half got a
  // 401 and wait on keep-alive. Topped up before every step of the client.
  const topUp = async () => {
    for (let n = CAP - live().length, i = 0; i < n; i++) {
      const sock = net.connect(srv.port, '127.0.0.1');
      sock.on('error', () => {});
      await new Promise((r) => { sock.once('connect', r); sock.once('close', r); });
      if (opened++ % 2) {
        const got = new Promise((r) => { sock.once('data', r); sock.once('close', r); });
        sock.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nContent-Length: 0\r\n\r\n`);
        await got;
      }
      held.push(sock);
    }
    await sleep(30);
  };
  try {
    await topUp();
    assert.equal(live().length, CAP);
    await streamableCall(srv, auth, 'cap: streamable', topUp);
    await legacyCall(srv, auth, 'cap: legacy', topUp);
    t.diagnostic(`${opened} attacker connections opened, ${held.length - live().length} closed to make room`);
    assert.ok(held.length - live().length >= 6, 'attackers were closed to admit the client');
    // every connection answering (open SSE streams): a newcomer gets 503, the streams stay
    for (const s of held) s.destroy();
    await sleep(50);
    const streams = [];
    for (let i = 0; i < CAP; i++) streams.push(await legacySession(srv, auth, `cap: stream ${i}`));
    const refused = await fetchAll(srv, { headers: { ...JSON_HEADERS, ...auth }, body: initialize() });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal((await streams[0].post({ jsonrpc: '2.0', id: 1, method: 'ping' }).catch((e) => e)).status, 503, 'still full');
    streams.pop().close();
    await sleep(50);
    assert.equal((await streams[0].post({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'x', version: '1' } } })).status, 202);
    assert.equal((await streams[0].reply(2)).result.protocolVersion, '2024-11-05', 'the established stream was kept');
    for (const s of streams) s.close();
    await sleep(50);
    await streamableCall(srv, auth, 'cap: after');
  } finally {
    for (const s of held) s.destroy();
  }
  await srv.stop();
});

test('under a low limit on open files the cap is half of it: idle connections make room instead of accept failing', async (t) => {
  const srv = await HttpServer.start(['--log-level', 'info'], { label: 'nofile', openFiles: 160 });
  assert.match(srv.stderr, /at most 80 connections \(half the limit on open files, 160\)/);
  const held = [];
  try {
    for (let i = 0; i < 150; i++) {
      const sock = net.connect(srv.port, '127.0.0.1');
      sock.on('error', () => {});
      await new Promise((r) => { sock.once('connect', r); sock.once('close', r); });
      held.push(sock);
    }
    await sleep(100);
    await streamableCall(srv, {}, 'nofile: streamable');
    await legacyCall(srv, {}, 'nofile: legacy');
    const closed = held.filter((s) => s.destroyed || s.readableEnded).length;
    t.diagnostic(`${closed} of 150 idle connections closed to make room`);
    assert.ok(closed >= 60, `${closed} idle connections were closed`);
    assert.doesNotMatch(srv.stderr, /cannot accept/);
  } finally {
    for (const s of held) s.destroy();
  }
  await srv.stop();
});

test('a folded header line (obs-fold) gets 400 on /mcp and /sse; the HTTP/2 preface gets 505; the server still serves', async () => {
  const srv = await HttpServer.start([], { label: 'nits' });
  const host = `Host: 127.0.0.1:${srv.port}\r\n`;
  const body = JSON.stringify(initialize());
  const folded = [
    `POST /mcp HTTP/1.1\r\n${host}Content-Type: application/json\r\nAccept: application/json,\r\n text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    `GET /sse HTTP/1.1\r\n${host}Accept: text/event-stream\r\nX-Note: a\r\n\tb\r\n\r\n`,
  ];
  for (const text of folded) {
    const r = await rawSocket(srv.port, async (sock) => sock.write(text));
    assert.match(r.data, /^HTTP\/1\.1 400 /);
    assert.match(r.data, /obs-fold/);
    assert.match(r.data, /Connection: close\r\n/);
  }
  const h2 = await rawSocket(srv.port, async (sock) => sock.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00'));
  assert.match(h2.data, /^HTTP\/1\.1 505 HTTP Version Not Supported\r\n/);
  await streamableCall(srv, {}, 'nits: streamable');
  await legacyCall(srv, {}, 'nits: legacy');
  await srv.stop();
});

test('many sessions at once: 100 initialize + tools/call, every id distinct', async () => {
  const srv = await HttpServer.start(['--pool-size', '2'], { label: 'many' });
  const sessions = await Promise.all([...Array(100).keys()].map((i) => RawSession.open(srv, '2025-11-25', `many ${i}`)));
  assert.equal(new Set(sessions.map((s) => s.id)).size, 100);
  const out = await Promise.all(sessions.map((s, i) => s.call('tools/call', { name: 'execute_code', arguments: { code: `return ${i}` } })));
  assert.deepEqual(out.map((r) => r.messages[0].result.structuredContent.result), [...Array(100).keys()]);
  await srv.stop();
});

test('SIGTERM: a running execution finishes, new connections are refused, exit 0 with no worker left', async () => {
  const srv = await HttpServer.start(['--pool-size', '2'], { label: 'drain' });
  const s = await RawSession.open(srv, '2025-11-25');
  const zygote = zygoteOf(srv.pid);
  const workers = childrenOf(zygote);
  const call = s.call('tools/call', { name: 'execute_code', arguments: { code: 'await sleep(800); return "finished"' } });
  await sleep(200);
  const t0 = Date.now();
  srv.proc.kill('SIGTERM');
  srv.stopped = true;
  await sleep(100);
  await assert.rejects(fetchAll(srv, { headers: JSON_HEADERS, body: initialize() }), /ECONNREFUSED/);
  const r = await call;
  assert.equal(r.status, 200);
  assert.equal(r.messages[0].result.structuredContent.result, 'finished');
  const e = await srv.exit;
  assert.equal(e.code, 0);
  assert.ok(e.at - t0 < 2500, `exited ${e.at - t0} ms after SIGTERM`);
  await sleep(100);
  for (const p of [zygote, ...workers]) assert.equal(isAlive(p), false, `process ${p} is gone`);
});

test('SIGTERM: past drainTimeoutMs what still runs is cancelled and the process exits 0', async () => {
  const cfg = writeConfig({ http: { drainTimeoutMs: 500 } });
  const srv = await HttpServer.start(['--config', cfg, '--pool-size', '1'], { label: 'drain-deadline' });
  const s = await RawSession.open(srv, '2025-11-25');
  const zygote = zygoteOf(srv.pid);
  const pending = request(srv, { headers: s.headers(), body: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'while (true) {}', timeoutMs: 60000 } } }, wire: s.wire })
    .then((r) => r.done).catch((err) => err);
  await sleep(300);
  const t0 = Date.now();
  srv.proc.kill('SIGTERM');
  srv.stopped = true;
  const e = await srv.exit;
  assert.equal(e.code, 0);
  const ms = e.at - t0;
  assert.ok(ms >= 450 && ms < 2500, `exited ${ms} ms after SIGTERM`);
  await pending;
  s.wire.pending.get('9').answered = true; // cancelled at shutdown: no reply
  await sleep(100);
  assert.equal(isAlive(zygote), false);
  assert.match(srv.stderr, /cancelled/);
});

auditSchemas({ minMessages: 100 });
