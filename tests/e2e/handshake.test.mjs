// Handshakes of every protocol revision a client may speak, over raw stdio:
// legacy initialize + notifications/initialized (2024-11-05 .. 2025-11-25,
// version negotiation), 2026-07-28 stateless requests with per-request _meta
// (server/discover, tools/list, tools/call, their errors), and what happens
// before any handshake. Every reply is schema-validated (lib/wire.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import {
  CLIENT_CAPABILITIES_KEY, LOG_LEVEL_KEY, PROTOCOL_VERSION_KEY, SERVER_INFO_KEY,
  modernMeta, startServer,
} from './lib/raw.mjs';

const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

function assertServerInfo(info) {
  assert.equal(info.name, 'mcp-codemode');
  assert.match(info.version, /^\d+\.\d+\.\d+/);
}

for (const version of LEGACY) {
  test(`legacy handshake ${version}: version echoed, session serves tools in that revision`, async () => {
    const srv = startServer([], { label: `legacy-${version}` });
    const init = await srv.initialize(version);
    assert.equal(init.protocolVersion, version);
    assertServerInfo(init.serverInfo);
    assert.ok(init.capabilities.tools, 'tools capability declared');
    assert.equal(typeof init.instructions, 'string');
    assert.equal('resultType' in init, false, 'no resultType in legacy results');

    const mark = srv.mark;
    const list = await srv.request('tools/list', {});
    // notifications/initialized was sent before tools/list: it got no answer
    assert.equal(srv.linesSince(mark).length, 1);
    const tools = list.msg.result.tools;
    assert.equal(tools.length, 1);
    const t = tools[0];
    assert.equal(t.name, 'execute_code');
    assert.equal(t.inputSchema.type, 'object');
    assert.deepEqual(t.inputSchema.required, ['code']);
    assert.equal(t.inputSchema.properties.code.type, 'string');
    assert.equal(t.inputSchema.properties.timeoutMs.type, 'integer');
    // fields that exist only from some revision on
    assert.equal('title' in t, version >= '2025-06-18');
    assert.equal('outputSchema' in t, version >= '2025-06-18');
    assert.equal('annotations' in t, version >= '2025-03-26');
    assert.equal('ttlMs' in list.msg.result, false);

    const call = await srv.call('return 1+1');
    const r = call.msg.result;
    assert.deepEqual(r.content, [{ type: 'text', text: '2' }]);
    assert.equal(r.isError, undefined);
    assert.equal('structuredContent' in r, version >= '2025-06-18');
    assert.equal('resultType' in r, false);

    const ping = await srv.request('ping');
    assert.deepEqual(ping.msg.result, {});
    assert.equal(srv.wire.session, version);
  });
}

test('initialize with an unknown version (1999-01-01) negotiates 2025-11-25', async () => {
  const srv = startServer([], { label: 'unknown-version' });
  const init = await srv.initialize('1999-01-01');
  assert.equal(init.protocolVersion, '2025-11-25');
  const list = await srv.request('tools/list', {});
  assert.equal(list.msg.result.tools[0].name, 'execute_code');
});

test('initialize asking for 2026-07-28 negotiates 2025-11-25 (no InitializeResult in 2026)', async () => {
  const srv = startServer([], { label: 'init-2026' });
  const init = await srv.initialize('2026-07-28');
  assert.equal(init.protocolVersion, '2025-11-25');
  assert.equal('resultType' in init, false);
});

test('a second initialize on the same process is refused with -32600', async () => {
  const srv = startServer([], { label: 'double-init' });
  await srv.initialize('2025-06-18');
  const again = await srv.request('initialize', {
    protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' },
  });
  assert.equal(again.msg.error.code, -32600);
  const ping = await srv.request('ping');
  assert.deepEqual(ping.msg.result, {});
});

test('initialize without protocolVersion gets -32602', async () => {
  const srv = startServer([], { label: 'init-no-version' });
  const r = await srv.request('initialize', { capabilities: {}, clientInfo: { name: 'x', version: '1' } });
  assert.equal(r.msg.error.code, -32602);
  // the session was not opened: a real initialize still works
  const init = await srv.initialize('2025-03-26');
  assert.equal(init.protocolVersion, '2025-03-26');
});

test('2026-07-28 stateless: server/discover, tools/list, tools/call with per-request _meta', async () => {
  const srv = startServer([], { label: 'modern' });
  const d = await srv.modern('server/discover', {}, { id: '"discover-1"' });
  assert.equal(d.rev, '2026-07-28');
  const dr = d.msg.result;
  assert.equal(dr.resultType, 'complete');
  assert.ok(dr.supportedVersions.includes('2026-07-28'));
  assert.ok(dr.capabilities.tools, 'tools capability');
  assert.ok(Number.isInteger(dr.ttlMs) && dr.ttlMs >= 0);
  assert.ok(['public', 'private'].includes(dr.cacheScope));
  assertServerInfo(dr._meta[SERVER_INFO_KEY]);

  const l = await srv.modern('tools/list');
  const lr = l.msg.result;
  assert.equal(lr.resultType, 'complete');
  assert.ok(Number.isInteger(lr.ttlMs) && lr.ttlMs >= 0);
  assert.ok(['public', 'private'].includes(lr.cacheScope));
  assertServerInfo(lr._meta[SERVER_INFO_KEY]);
  assert.deepEqual(lr.tools.map((t) => t.name), ['execute_code']);
  assert.equal('nextCursor' in lr, false);

  const c = await srv.call('return {a: [1, "x"]}', { modern: true });
  const cr = c.msg.result;
  assert.equal(cr.resultType, 'complete');
  assertServerInfo(cr._meta[SERVER_INFO_KEY]);
  assert.deepEqual(cr.content[0], { type: 'text', text: '{"a":[1,"x"]}' });
  assert.deepEqual(cr.structuredContent.result, { a: [1, 'x'] });
  assert.equal(srv.wire.session, null, 'no legacy session was opened');
});

test('2026-07-28: unsupported version in _meta gets -32022 with data {supported, requested}', async () => {
  const srv = startServer([], { label: 'modern-bad-version' });
  for (const method of ['server/discover', 'tools/list', 'tools/call']) {
    const r = await srv.request(method, { name: 'execute_code', arguments: { code: '1' }, _meta: modernMeta({ [PROTOCOL_VERSION_KEY]: '1900-01-01' }) });
    assert.equal(r.rev, '2026-07-28');
    assert.equal(r.msg.error.code, -32022, method);
    assert.equal(r.msg.error.data.requested, '1900-01-01');
    assert.ok(Array.isArray(r.msg.error.data.supported));
    assert.ok(r.msg.error.data.supported.includes('2026-07-28'));
  }
});

test('2026-07-28: missing clientCapabilities gets -32602; a non-string version gets -32602', async () => {
  const srv = startServer([], { label: 'modern-missing-caps' });
  const meta = modernMeta();
  delete meta[CLIENT_CAPABILITIES_KEY];
  const r = await srv.request('tools/list', { _meta: meta });
  assert.equal(r.msg.error.code, -32602);
  const d = await srv.request('server/discover', { _meta: meta });
  assert.equal(d.msg.error.code, -32602);
  const n = await srv.request('tools/list', { _meta: modernMeta({ [PROTOCOL_VERSION_KEY]: 20260728 }) });
  assert.equal(n.msg.error.code, -32602);
});

test('2026-07-28: methods removed in 2026 (ping, logging/setLevel) get -32601', async () => {
  const srv = startServer([], { label: 'modern-removed' });
  const p = await srv.modern('ping');
  assert.equal(p.msg.error.code, -32601);
  const l = await srv.modern('logging/setLevel', { level: 'info' });
  assert.equal(l.msg.error.code, -32601);
  // also inside a legacy session: the _meta decides the era of the request
  await srv.initialize('2025-11-25');
  const p2 = await srv.modern('ping');
  assert.equal(p2.msg.error.code, -32601);
  const p3 = await srv.request('ping');
  assert.deepEqual(p3.msg.result, {});
});

test('2026-07-28: a logLevel in _meta turns console lines into notifications/message for that request only', async () => {
  const srv = startServer([], { label: 'modern-loglevel' });
  let mark = srv.mark;
  const withLog = await srv.call('console.log("one"); console.warn("two"); console.debug("three"); return 1', {
    modern: true, meta: { [LOG_LEVEL_KEY]: 'info' },
  });
  const logs = srv.linesSince(mark).filter((l) => l.msg.method === 'notifications/message');
  assert.deepEqual(logs.map((l) => [l.msg.params.level, l.msg.params.data]), [['info', 'one'], ['warning', 'two']]);
  for (const l of logs) assert.ok(l.t <= withLog.t && srv.wire.lines.indexOf(l) < srv.wire.lines.indexOf(withLog));

  mark = srv.mark;
  await srv.call('console.log("quiet"); return 2', { modern: true });
  assert.equal(srv.linesSince(mark).length, 1, 'no notification without a logLevel');

  const bad = await srv.call('return 3', { modern: true, meta: { [LOG_LEVEL_KEY]: 'loud' } });
  assert.equal(bad.msg.error.code, -32602);
});

test('before initialize: requests without _meta get -32602, ping gets {}', async () => {
  const srv = startServer([], { label: 'pre-init' });
  const ping = await srv.request('ping');
  assert.deepEqual(ping.msg.result, {});
  for (const method of ['tools/list', 'tools/call', 'server/discover', 'logging/setLevel']) {
    const r = await srv.request(method, method === 'tools/call' ? { name: 'execute_code', arguments: { code: '1' } } : {});
    assert.equal(r.msg.error.code, -32602, method);
  }
  const noParams = await srv.request('tools/list');
  assert.equal(noParams.msg.error.code, -32602);
  // still able to open a session afterwards
  const init = await srv.initialize('2025-06-18');
  assert.equal(init.protocolVersion, '2025-06-18');
});

test('both eras on one process: server/discover and modern calls keep working inside a legacy session', async () => {
  const srv = startServer([], { label: 'dual-era' });
  const d1 = await srv.modern('server/discover');
  assert.equal(d1.msg.result.resultType, 'complete');
  await srv.initialize('2025-06-18');
  const d2 = await srv.modern('server/discover');
  assert.equal(d2.msg.result.resultType, 'complete');
  const legacy = await srv.call('return "L"');
  assert.equal(legacy.rev, '2025-06-18');
  assert.equal('resultType' in legacy.msg.result, false);
  assert.equal('_meta' in legacy.msg.result, false);
  const modern = await srv.call('return "M"', { modern: true });
  assert.equal(modern.rev, '2026-07-28');
  assert.equal(modern.msg.result.resultType, 'complete');
  assert.equal(modern.msg.result.structuredContent.result, 'M');
});

auditSchemas();
