// Validation and result mapping (issue 4, "Validation" and "Results") through
// the real binary: arguments that break a tool's inputSchema throw
// ToolArgumentError with .violations and nothing reaches the server (the
// recorder fixture lists what it received), caught or uncaught;
// structuredContent checked against outputSchema; and each way a result maps
// to a value (structuredContent, one JSON text, one plain text, a content
// array whose images and resources stay objects); isError throws ToolError
// with .tool and .result, caught or uncaught.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, entry, readLog, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-ds-results-');
const LOG = path.join(TMP, 'rec.log');

let s;
before(async () => {
  s = await serve(writeConfig(TMP, { mcpServers: { rec: entry.recorder(['--log', LOG]) } }), { label: 'results' });
});
after(() => assertClean(s));

const callsTo = (tool) => readLog(LOG).filter((m) => m.method === 'tools/call' && m.params.name === tool);

test('ToolArgumentError: every violation with its JSON Pointer path, keyword and message; nothing is sent', async () => {
  const r = valueOf(await s.exec(`
    try {
      await tools.rec.strict({ name: "A", count: 11, tags: ["a", 2, "c", "d"], mode: "medium", nested: {}, extra: true });
      return "sent";
    } catch (e) {
      return { name: e.name, isTAE: e instanceof ToolArgumentError, isError: e instanceof Error, tool: e.tool,
               message: e.message, violations: e.violations, received: await tools.rec.received() };
    }`));
  assert.equal(r.name, 'ToolArgumentError');
  assert.equal(r.isTAE, true);
  assert.equal(r.isError, true);
  assert.equal(r.tool, 'rec.strict');
  assert.match(r.message, /^Invalid arguments for rec\.strict \(nothing was sent\):\n/);
  const got = r.violations.map((v) => `${v.path} ${v.keyword}`).sort();
  assert.deepEqual(got, [
    ' additionalProperties',
    '/count maximum',
    '/mode enum',
    '/name minLength',
    '/name pattern',
    '/nested required',
    '/tags maxItems',
    '/tags/1 type',
  ]);
  for (const v of r.violations) {
    assert.deepEqual(Object.keys(v).sort(), ['keyword', 'message', 'path']);
    assert.ok(v.message.length > 5);
    assert.ok(r.message.includes(v.message), `the message lists "${v.message}"`);
  }
  assert.deepEqual(r.received.filter((m) => m.method === 'tools/call' && m.params.name === 'strict'), []);
  assert.deepEqual(callsTo('strict'), [], 'the server never saw a call to strict');
});

test('ToolArgumentError uncaught: an isError result whose text lists the violations; missing arguments too', async () => {
  const r = await s.exec('await tools.rec.strict({ count: "3" });\nreturn "unreachable";');
  assert.equal(r.ok, false);
  assert.match(r.text, /^ToolArgumentError: Invalid arguments for rec\.strict \(nothing was sent\):\n/);
  assert.match(r.text, /- \(root\): .*"name".*\[required\]/);
  assert.match(r.text, /- \/count: expected integer, got string "3" \[type\]/);
  assert.match(r.text, /at line 1/);
  assert.equal(r.error.name, 'ToolArgumentError');
  const none = await s.exec('return await tools.rec.strict()');
  assert.equal(none.ok, false);
  assert.match(none.text, /^ToolArgumentError: .*\n- \(root\): .*"name"/);
  assert.deepEqual(callsTo('strict'), []);
  // and a valid call does go through, exactly as written
  const ok = valueOf(await s.exec('return await tools.rec.strict({ name: "ab", count: 10, tags: ["x"], mode: "fast", nested: { ok: true } })'));
  assert.deepEqual(ok, { accepted: { name: 'ab', count: 10, tags: ['x'], mode: 'fast', nested: { ok: true } } });
  assert.equal(callsTo('strict').length, 1);
});

test('outputSchema: conforming structuredContent is the value; non-conforming is an error naming the tool', async () => {
  const r = valueOf(await s.exec(`
    const good = await tools.rec.good_output();
    let bad;
    try { bad = { value: await tools.rec["bad-output"]() }; } catch (e) { bad = { name: e.name, message: e.message, tool: e.tool }; }
    return { good, bad };`));
  assert.deepEqual(r.good, { count: 3, label: 'three' });
  assert.equal(r.bad.value, undefined);
  assert.equal(r.bad.name, 'Error');
  assert.match(r.bad.message, /^rec\.bad-output returned structuredContent that does not match its outputSchema:\n- \/count: expected integer, got string "three"/);
  const uncaught = await s.exec('return await tools.rec.bad_output()');
  assert.equal(uncaught.ok, false);
  assert.match(uncaught.text, /rec\.bad-output returned structuredContent that does not match its outputSchema/);
});

test('results: structuredContent, one JSON text parsed, one plain text, content arrays with images and resources', async () => {
  const r = valueOf(await s.exec(`return {
    structured: await tools.rec.get_item({ id: "7" }),
    json: await tools.rec.json_text(),
    plain: await tools.rec.plain_text(),
    two: await tools.rec.two_texts(),
    image: await tools.rec.image(),
  };`));
  assert.deepEqual(r.structured, { from: 'get_item', id: '7' }, 'structuredContent wins over the text');
  assert.deepEqual(r.json, { a: [1, 2, { b: null }], s: 'x' });
  assert.equal(r.plain, 'hello, world');
  assert.deepEqual(r.two, [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }]);
  assert.equal(r.image.length, 3);
  assert.equal(r.image[0].type, 'image');
  assert.equal(r.image[0].mimeType, 'image/png');
  assert.match(r.image[0].data, /^iVBORw0KGgo/);
  assert.deepEqual(r.image[1], { type: 'resource', resource: { uri: 'file:///tmp/note.txt', mimeType: 'text/plain', text: 'a note' } });
});

test('results: an image flows from one tool to another without passing through the model', async () => {
  const r = valueOf(await s.exec(`
    const [img] = await tools.rec.image();
    const back = await tools.rec.echo({ i: 1, image: img });
    return { same: JSON.stringify(back.args.image) === JSON.stringify(img), bytes: img.data.length };`));
  assert.deepEqual(r, { same: true, bytes: 96 });
  const sent = callsTo('echo').at(-1).params.arguments.image;
  assert.equal(sent.type, 'image');
  assert.match(sent.data, /^iVBORw0KGgo/);
});

test('isError: ToolError with .tool and .result when caught; an isError execute_code result when not', async () => {
  const r = valueOf(await s.exec(`
    try { await tools.rec.fail({ why: "gears" }); }
    catch (e) { return { name: e.name, isTE: e instanceof ToolError, message: e.message, tool: e.tool, result: e.result }; }`));
  assert.deepEqual(r, {
    name: 'ToolError',
    isTE: true,
    message: 'the widget is broken: gears',
    tool: 'rec.fail',
    result: { content: [{ type: 'text', text: 'the widget is broken: gears' }], isError: true },
  });
  const u = await s.exec('console.log("before");\nawait tools.rec.fail({});\nreturn 1;');
  assert.equal(u.ok, false);
  assert.match(u.text, /^ToolError: the widget is broken\n {4}at line 2/);
  assert.deepEqual(u.logs, ['before']);
  assert.equal(u.error.name, 'ToolError');
});

auditSchemas();
