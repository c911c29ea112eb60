// Self-test of the checking machinery (lib/schema.mjs, lib/wire.mjs), without
// a server: hand-written lines, good and bad, fed to a Wire. It proves the
// audit of the other files can fail: each defect below must be reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateObject } from './lib/schema.mjs';
import { Wire } from './lib/wire.mjs';

const SI = 'io.modelcontextprotocol/serverInfo';
const PV = 'io.modelcontextprotocol/protocolVersion';
const modernMeta = { [PV]: '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A wire with a legacy session `rev` (or none) that received `lines`. */
function feed({ session, sent = [], lines }) {
  const w = new Wire('selftest', { register: false });
  if (session) {
    w.noteSent('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}');
    w.feed(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, result: {
      protocolVersion: session, capabilities: {}, serverInfo: { name: 's', version: '1' } } }) + '\n'));
  }
  for (const s of sent) w.noteSent(s);
  for (const l of lines) w.feed(Buffer.isBuffer(l) ? l : Buffer.from(l + '\n'));
  w.end();
  return w;
}

const call = (id, meta) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'execute_code', arguments: { code: '1' }, ...(meta ? { _meta: meta } : {}) } });
const tool = { name: 'execute_code', inputSchema: { type: 'object' } };

test('valid messages of each era pass', () => {
  const w = feed({
    session: '2025-06-18',
    sent: [call(1), call(2, modernMeta), '{"jsonrpc":"2.0","id":3,"method":"tools/list"}'],
    lines: [
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '2' }], structuredContent: { result: 2 } } }),
      JSON.stringify({ jsonrpc: '2.0', id: 2, result: { resultType: 'complete', content: [], structuredContent: 2, _meta: { [SI]: { name: 's', version: '1' } } } }),
      JSON.stringify({ jsonrpc: '2.0', id: 3, result: { tools: [tool] } }),
    ],
  });
  assert.deepEqual(w.problems, []);
  assert.equal(w.validated, 4);
  assert.deepEqual(w.lines.map((l) => l.rev), ['2025-06-18', '2025-06-18', '2026-07-28', '2025-06-18']);
});

test('schema violations are reported', () => {
  const cases = [
    // 2026-07-28 result without resultType
    { sent: [call(1, modernMeta)], lines: [JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } })], re: /resultType/ },
    // 2026-07-28 tools/list without the caching hints
    { sent: [`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${JSON.stringify({ _meta: modernMeta })}}`],
      lines: [JSON.stringify({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', tools: [tool] } })], re: /ttlMs|cacheScope/ },
    // structuredContent must be an object before 2026
    { session: '2025-11-25', sent: [call(1)], lines: [JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [], structuredContent: [1] } })], re: /structuredContent/ },
    // a content block of an unknown type
    { session: '2024-11-05', sent: [call(1)], lines: [JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'txt', text: 'x' }] } })], re: /CallToolResult/ },
    // a tool without inputSchema
    { session: '2025-03-26', sent: ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}'], lines: [JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'x' }] } })], re: /inputSchema/ },
    // an error without id in a 2025-06-18 session
    { session: '2025-06-18', lines: [JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'x' } })], re: /JSONRPCMessage/ },
    // -32022 without its data
    { sent: [call(1, { ...modernMeta, [PV]: '1999-01-01' })], lines: [JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'x' } })], re: /UnsupportedProtocolVersionError/ },
    // a progress notification without progress
    { session: '2025-11-25', sent: [call(1, { progressToken: 't' })], lines: [JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't' } })], re: /ProgressNotification/ },
    // a request from the server
    { session: '2025-11-25', lines: [JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'sampling/createMessage', params: {} })], re: /sent a request/ },
    // a result for an id never sent
    { session: '2025-11-25', lines: [JSON.stringify({ jsonrpc: '2.0', id: 42, result: {} })], re: /no request/ },
  ];
  for (const c of cases) {
    const w = feed(c);
    assert.ok(w.problems.some((p) => c.re.test(p)), `expected ${c.re} in ${JSON.stringify(w.problems)}`);
  }
});

test('stdout defects are reported: not JSON, invalid UTF-8, CR, partial last line, duplicate reply, late progress', () => {
  const ok = JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} });
  assert.match(feed({ lines: ['hello'] }).problems.join(), /not JSON/);
  assert.match(feed({ lines: [Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"x":"\xff"}}\n', 'latin1')] }).problems.join(), /UTF-8/);
  assert.match(feed({ sent: ['{"jsonrpc":"2.0","id":1,"method":"ping"}'], lines: [ok + '\r'] }).problems.join(), /CR/);
  assert.match(feed({ lines: [Buffer.from('{"jsonrpc"')] }).problems.join(), /inside a line/);
  assert.match(feed({ sent: ['{"jsonrpc":"2.0","id":1,"method":"ping"}'], lines: [ok, ok] }).problems.join(), /second response/);
  const late = feed({
    session: '2025-11-25',
    sent: [call(1, { progressToken: 5 })],
    lines: [
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 5, progress: 1 } }),
    ],
  });
  assert.match(late.problems.join(), /after its response/);
});

test('null-id errors are excluded only in sessions before 2025-11-25', () => {
  const nullId = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  const old = feed({ session: '2025-03-26', lines: [nullId] });
  assert.equal(old.excluded.length, 1);
  assert.deepEqual(old.problems, []);
  // in 2025-11-25 a null id is not allowed either (omit the id instead)
  const newer = feed({ session: '2025-11-25', lines: [nullId] });
  assert.equal(newer.excluded.length, 0);
  assert.ok(newer.problems.length > 0);
});

test('raw ids are matched by their exact text (big integers, escaped strings)', () => {
  const w = feed({
    session: '2025-11-25',
    sent: ['{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', '{"jsonrpc":"2.0","id":"a\\"b","method":"ping"}'],
    lines: ['{"jsonrpc":"2.0","id":9007199254740993,"result":{}}', '{"jsonrpc":"2.0","id":"a\\"b","result":{}}'],
  });
  assert.deepEqual(w.problems, []);
  assert.deepEqual([...w.pending.values()].map((r) => r.answered), [true, true, true]);
});

test('every revision schema compiles and knows the results we check', () => {
  for (const rev of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
    assert.deepEqual(validateObject(rev, { jsonrpc: '2.0', id: 1, result: {} }, { method: 'ping' }), []);
  }
  assert.deepEqual(validateObject('2026-07-28', { jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } }, { method: 'ping' }), []);
});
