// MCP over HTTP, per revision: the initialize handshake and sessions of
// Streamable HTTP (2024-11-05 to 2025-11-25 clients at /mcp), the official
// SDK's StreamableHTTPClientTransport and SSEClientTransport, the legacy
// HTTP+SSE endpoints, and 2026-07-28 stateless requests with their header
// rules and status codes. Raw requests use node:http so every header is ours.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { auditSchemas } from './lib/audit.mjs';
import { HttpServer, JSON_HEADERS, MODERN, RawSession, fetchAll, modernCall, recordingFetch, request } from './lib/http.mjs';
import { Wire } from './lib/wire.mjs';

let srv;
const clients = [];

before(async () => {
  srv = await HttpServer.start(['--pool-size', '2'], { label: 'http-handshake' });
});

after(async () => {
  for (const c of clients) await c.close().catch(() => {});
});

const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
  test(`Streamable HTTP, ${version}: initialize echoes the version, a session id, 202 for initialized, tools/list, DELETE then 404`, async () => {
    const s = await RawSession.open(srv, version);
    assert.equal(s.initResult.protocolVersion, version);
    assert.match(s.id, VISIBLE_ASCII);
    assert.ok(s.id.length >= 32, 'a long random id');
    const list = await s.call('tools/list');
    assert.equal(list.status, 200);
    assert.match(list.headers['content-type'], /^application\/json/);
    assert.equal(list.headers['mcp-session-id'], s.id);
    assert.deepEqual(list.messages[0].result.tools.map((t) => t.name), ['execute_code']);
    const run = await s.call('tools/call', { name: 'execute_code', arguments: { code: 'return 6*7' } });
    assert.equal(run.messages[0].result.content[0].text, '42');
    const del = await s.delete();
    assert.equal(del.status, 200);
    const gone = await s.call('ping');
    assert.equal(gone.status, 404);
    assert.equal((await s.delete()).status, 404);
  });
}

test('sessions: no session id gives 400, an unknown one 404, a bad version header 400; ids differ', async () => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  assert.equal((await fetchAll(srv, { headers: JSON_HEADERS, body: ping })).status, 400);
  assert.equal((await fetchAll(srv, { headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': '2025-11-25' }, body: ping })).status, 400);
  assert.equal((await fetchAll(srv, { headers: { ...JSON_HEADERS, 'Mcp-Session-Id': 'no-such-session' }, body: ping })).status, 404);
  const a = await RawSession.open(srv, '2025-11-25');
  const b = await RawSession.open(srv, '2025-11-25');
  assert.notEqual(a.id, b.id);
  const bad = await a.post(ping, { headers: { 'MCP-Protocol-Version': '1999-01-01' } });
  assert.equal(bad.status, 400);
  const ok = await a.call('ping');
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.messages[0].result, {});
});

test('GET /mcp: 405 without a session, an event stream with one (409 for a second), 404 after DELETE', async () => {
  assert.equal((await fetchAll(srv, { method: 'GET', headers: { Accept: 'text/event-stream' } })).status, 405);
  const s = await RawSession.open(srv, '2025-11-25');
  const ac = new AbortController();
  const stream = await request(srv, { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': s.id }, signal: ac.signal, wire: s.wire });
  assert.equal(stream.status, 200);
  assert.match(stream.headers['content-type'], /^text\/event-stream/);
  const second = await fetchAll(srv, { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': s.id } });
  assert.equal(second.status, 409);
  assert.equal((await s.delete()).status, 200);
  const body = await stream.done; // DELETE ended the stream
  assert.equal(body.events.length, 0);
  assert.equal((await fetchAll(srv, { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': s.id } })).status, 404);
});

test('batches: a 2025-03-26 session takes them, a 2025-11-25 one answers 400 with one error', async () => {
  const old = await RawSession.open(srv, '2025-03-26');
  const batch = [{ jsonrpc: '2.0', id: 'a', method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }, { jsonrpc: '2.0', id: 'b', method: 'tools/list' }];
  old.wire.noteSent(JSON.stringify(batch));
  const r = await old.post(batch);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.map((m) => m.id).sort(), ['a', 'b']);
  const notes = await old.post([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 2 } }]);
  assert.equal(notes.status, 202);
  assert.equal(notes.text, '');
  const s = await RawSession.open(srv, '2025-11-25');
  const no = await s.post([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
  assert.equal(no.status, 400);
  assert.equal(no.json.error.code, -32600);
});

test('SDK StreamableHTTPClientTransport: connect, listTools, callTool, terminateSession', async () => {
  const wire = new Wire('sdk streamable');
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), { fetch: recordingFetch(srv, wire) });
  const client = new Client({ name: 'e2e-http', version: '1.0.0' });
  const errors = [];
  transport.onerror = (e) => errors.push(e);
  await client.connect(transport);
  clients.push(client);
  assert.equal(wire.session, '2025-11-25');
  assert.match(transport.sessionId, VISIBLE_ASCII);
  const { tools } = await client.listTools();
  assert.equal(tools[0].name, 'execute_code');
  const r = await client.callTool({ name: 'execute_code', arguments: { code: 'return [1,2,3].map(x => x * 2)' } });
  assert.deepEqual(r.structuredContent.result, [2, 4, 6]);
  const sid = transport.sessionId;
  await transport.terminateSession();
  assert.equal(transport.sessionId, undefined);
  const after = await fetchAll(srv, { headers: { ...JSON_HEADERS, 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' }, body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
  assert.equal(after.status, 404);
  await client.close();
  assert.deepEqual(errors.map(String), []);
});

test('SDK SSEClientTransport (legacy /sse): the endpoint event, negotiation of 2025-11-25, calls', async () => {
  const wire = new Wire('sdk sse');
  const transport = new SSEClientTransport(new URL(`${srv.url}/sse`), { fetch: recordingFetch(srv, wire) });
  const client = new Client({ name: 'e2e-http-sse', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  assert.equal(wire.session, '2025-11-25');
  const { tools } = await client.listTools();
  assert.equal(tools.length, 1);
  const r = await client.callTool({ name: 'execute_code', arguments: { code: 'console.log("x"); return "ok"' } });
  assert.equal(r.structuredContent.result, 'ok');
  assert.deepEqual(r.structuredContent.logs, ['x']);
  await client.close();
});

test('legacy SSE, raw: endpoint event first, 202 for POSTs, replies as message events, 404 at once for an unknown session', async () => {
  const wire = new Wire('raw sse');
  const ac = new AbortController();
  const events = [];
  let wake;
  const stream = await request(srv, { method: 'GET', path: '/sse', headers: { Accept: 'text/event-stream' }, signal: ac.signal, wire, onEvent: (e) => { events.push(e); wake?.(); } });
  assert.equal(stream.status, 200);
  const next = async (pred) => {
    for (let i = 0; i < 100; i++) {
      const e = events.find(pred);
      if (e) return e;
      await new Promise((r) => { wake = r; setTimeout(r, 50); });
    }
    throw new Error('no such event');
  };
  const endpoint = await next((e) => e.event === 'endpoint');
  assert.match(endpoint.data, /^\/message\?sessionId=[\x21-\x7e]+$/);
  const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const t0 = Date.now();
  const posted = await fetchAll(srv, { path: endpoint.data, headers: { 'Content-Type': 'application/json' }, body: init, wire });
  assert.equal(posted.status, 202);
  const reply = await next((e) => e.event === 'message' && JSON.parse(e.data).id === 1);
  assert.equal(JSON.parse(reply.data).result.protocolVersion, '2024-11-05');
  const unknown = await fetchAll(srv, { path: '/message?sessionId=nope', headers: { 'Content-Type': 'application/json' }, body: init });
  assert.equal(unknown.status, 404);
  assert.ok(Date.now() - t0 < 2000, 'answered promptly');
  ac.abort();
});

test('2026-07-28 stateless: discover, tools/list, tools/call with their headers; no session minted', async () => {
  const wire = new Wire('modern');
  const d = await modernCall(srv, wire, 'server/discover', {}, { id: 'd' });
  assert.equal(d.status, 200);
  assert.deepEqual(d.messages[0].result.supportedVersions, [MODERN]);
  assert.equal(d.headers['mcp-session-id'], undefined);
  const l = await modernCall(srv, wire, 'tools/list', {}, { id: 2 });
  assert.equal(l.messages[0].result.resultType, 'complete');
  assert.equal(typeof l.messages[0].result.ttlMs, 'number');
  const c = await modernCall(srv, wire, 'tools/call', { name: 'execute_code', arguments: { code: 'return 5' } }, { id: 3 });
  assert.equal(c.status, 200);
  assert.equal(c.messages[0].result.structuredContent.result, 5);
  const n = await fetchAll(srv, { headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN }, body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } } });
  assert.equal(n.status, 202);
});

test('2026-07-28 status codes: -32022 400, -32020 400 (missing, mismatched, base64), -32601 404 (initialize too), missing _meta 400, GET/DELETE 405', async () => {
  const wire = new Wire('modern errors');
  const v = await fetchAll(srv, { headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': '1900-01-01', 'Mcp-Method': 'server/discover' }, body: { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '1900-01-01', 'io.modelcontextprotocol/clientCapabilities': {} } } }, wire });
  assert.equal(v.status, 400);
  assert.equal(v.json.error.code, -32022);
  assert.deepEqual(v.json.error.data, { supported: [MODERN], requested: '1900-01-01' });
  const noMethod = await modernCall(srv, wire, 'tools/list', {}, { id: 2, headers: { 'Mcp-Method': null } });
  assert.equal(noMethod.status, 400);
  assert.equal(noMethod.json.error.code, -32020);
  const wrongName = await modernCall(srv, wire, 'tools/call', { name: 'execute_code', arguments: { code: '1' } }, { id: 3, headers: { 'Mcp-Name': 'other' } });
  assert.equal(wrongName.status, 400);
  assert.equal(wrongName.json.error.code, -32020);
  const b64 = Buffer.from('execute_code').toString('base64');
  const encoded = await modernCall(srv, wire, 'tools/call', { name: 'execute_code', arguments: { code: 'return 2' } }, { id: 4, headers: { 'Mcp-Name': `=?base64?${b64}?=` } });
  assert.equal(encoded.status, 200);
  const unknown = await modernCall(srv, wire, 'nope/nope', {}, { id: 5 });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json.error.code, -32601);
  // initialize does not exist in 2026-07-28 (conformance: sep-2575-http-server-method-not-found-404-initialize)
  const init = await modernCall(srv, wire, 'initialize', {}, { id: 7 });
  assert.equal(init.status, 404);
  assert.equal(init.json.error.code, -32601);
  assert.equal(init.headers['mcp-session-id'], undefined);
  const noMeta = await fetchAll(srv, { headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/list' }, body: { jsonrpc: '2.0', id: 6, method: 'tools/list', params: {} }, wire });
  assert.equal(noMeta.status, 400);
  assert.equal(noMeta.json.error.code, -32602);
  for (const method of ['GET', 'DELETE']) {
    const r = await fetchAll(srv, { method, headers: { Accept: 'text/event-stream', 'MCP-Protocol-Version': MODERN } });
    assert.equal(r.status, 405, method);
  }
});

test('2026-07-28 subscriptions/listen: an open stream, acknowledged first, closed by the client', async () => {
  const wire = new Wire('listen');
  const ac = new AbortController();
  const events = [];
  const body = { jsonrpc: '2.0', id: 'sub', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } };
  const r = await request(srv, { headers: { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'subscriptions/listen' }, body, wire, signal: ac.signal, onEvent: (e) => events.push(e) });
  assert.equal(r.status, 200);
  assert.match(r.headers['content-type'], /^text\/event-stream/);
  for (let i = 0; i < 50 && events.length === 0; i++) await new Promise((ok) => setTimeout(ok, 20));
  const ack = JSON.parse(events[0].data);
  assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
  assert.equal(ack.params._meta['io.modelcontextprotocol/subscriptionId'], 'sub');
  ac.abort();
});

auditSchemas({ minMessages: 40 });
