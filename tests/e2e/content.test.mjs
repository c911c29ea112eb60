// Binary content and the stash (issue 15 sections 1-2), with the official SDK
// client over stdio and Streamable HTTP: a PNG goes from one tool to another
// inside one program (screenshot-to-file, bytes compared on disk); an image a
// program returns reaches the client as an image block; the reference
// server-everything's image chains into our fixture; a result over
// maxResultBytes is readable whole through resources/read by its session
// only; each stash bound (count, bytes, age) evicts; older revisions (raw
// client) get text for the blocks they lack (audio, resource_link).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { auditSchemas } from './lib/audit.mjs';
import { HttpServer, modernCall, RawSession } from './lib/http.mjs';
import { assertClean, EVERYTHING, exec, NODE, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { ON_POSTGRES, storeFor } from './lib/pg.mjs';
import { sleep, startServer } from './lib/raw.mjs';
import { connectSdk } from './lib/sdk.mjs';
import { Wire } from './lib/wire.mjs';

const IMAGES = path.join(REPO_ROOT, 'tests/fixtures/servers/images.mjs');
const TINY = /MCP_TINY_IMAGE = "([^"]+)"/.exec(
  fs.readFileSync(path.join(path.dirname(EVERYTHING), 'tools/get-tiny-image.js'), 'utf8'))[1];
const dir = tempDir('codemode-content-');
const OUT = path.join(dir, 'files');
const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** A config `name` in dir; with MCP_CODEMODE_TEST_STORE=postgres, on a database of its own (the shared stash). */
function config(codemode = {}, name) {
  const store = ON_POSTGRES ? { store: storeFor(`content_${name}`) } : {};
  return writeConfig(dir, {
    mcpServers: {
      images: { command: NODE, args: [IMAGES, '--out', OUT] },
      everything: { command: NODE, args: [EVERYTHING, 'stdio'] },
    },
    codemode: { maxResultBytes: 16384, ...store, ...codemode },
  }, name);
}
const sha256 = (b) => createHash('sha256').update(b).digest('hex');

/** Reads a stash URI through client: {contents} or {error: {code, message}}. */
async function readThrough(client, uri) {
  try {
    return await client.readResource({ uri });
  } catch (e) {
    return { error: { code: e.code, message: e.message } };
  }
}

/**
 * Reads a stash URI through h: {contents} or {error: {code, message}}. On
 * PostgreSQL, a stdio server's twin (another instance of its config, the same
 * principal) reads it too, from the shared stash only, and must get the same.
 */
async function read(h, uri) {
  const got = await readThrough(h.client, uri);
  if (h.twin) {
    const shared = await readThrough(h.twin.client, uri);
    assert.deepEqual(shared.contents ?? shared.error?.code, got.contents ?? got.error?.code, `${uri} through the shared stash`);
  }
  return got;
}

/** On PostgreSQL, starts h's twin for read() (a stdio server of the same config). */
async function addTwin(h, file, label) {
  if (!ON_POSTGRES) return h;
  h.twin = await serve(file, { label: `${label}-twin` });
  // its first read opens its connection: done now, so that reads race no clock (ttlMs)
  const none = await readThrough(h.twin.client, 'codemode://stash/00000000000000000000000000000000');
  assert.equal(none.error?.code, -32002, JSON.stringify(none));
  return h;
}

/** Closes h (and its twin) and checks them clean. */
async function closeClean(h) {
  await h.close();
  if (h.twin) await h.twin.close();
  await assertClean(h, ...(h.twin ? [h.twin] : []));
}

function contentCases(kind) {
  let h;
  before(async () => {
    const file = config({}, `content-${kind}.json`);
    h = await connectSdk(['--config', file, '--pool-size', '2'], { label: `content-${kind}`, transport: kind });
    h.exec = (code, opts) => exec(h.client, code, opts);
    if (kind === 'stdio') await addTwin(h, file, `content-${kind}`);
  });
  after(() => closeClean(h));

  test('screenshot to file in one program: the bytes on disk are the bytes the tool made', async () => {
    const saved = valueOf(await h.exec(`
      const shot = await tools.images.screenshot({ width: 64, height: 48, seed: ${kind.length} });
      return await tools.images.save_image({ name: 'shot-${kind}.png', image: shot[0] });`));
    const onDisk = fs.readFileSync(path.join(OUT, `shot-${kind}.png`));
    assert.deepEqual([...onDisk.subarray(0, 8)], PNG_SIGNATURE);
    assert.equal(saved.bytes, onDisk.length);
    assert.equal(saved.sha256, sha256(onDisk));
    // The same screenshot returned to the client is an image block with those bytes.
    const shown = await h.exec(`return await tools.images.screenshot({ width: 64, height: 48, seed: ${kind.length} })`);
    assert.equal(shown.ok, true, shown.text);
    assert.equal(shown.raw.content[0].type, 'image');
    assert.equal(shown.raw.content[0].mimeType, 'image/png');
    assert.deepEqual(Buffer.from(shown.raw.content[0].data, 'base64'), onDisk);
    assert.deepEqual(shown.raw.structuredContent.content, [{ type: 'image', mimeType: 'image/png', bytes: onDisk.length }]);
  });

  test('an image argument is validated like any argument', async () => {
    const r = await h.exec(`return await tools.images.save_image({ name: 'bad.png', image: content.text('not an image') })`);
    assert.equal(r.ok, false);
    assert.equal(r.error.name, 'ToolArgumentError');
    assert.match(r.error.message, /\/image/);
    assert.equal(fs.existsSync(path.join(OUT, 'bad.png')), false);
  });

  test('bytes in the program: Uint8Array.fromBase64, toBase64, atob, btoa', async () => {
    const v = valueOf(await h.exec(`
      const [shot] = await tools.images.screenshot({});
      const bytes = Uint8Array.fromBase64(shot.data);
      return { sig: Array.from(bytes.slice(0, 8)), same: bytes.toBase64() === shot.data,
               bin: atob(shot.data).length === bytes.length, round: btoa(atob(shot.data)) === shot.data };`));
    assert.deepEqual(v, { sig: PNG_SIGNATURE, same: true, bin: true, round: true });
  });

  test('content.* constructors and a mixed array become real content blocks, console lines after', async () => {
    const r = await h.exec(`
      console.log('made it');
      const png = Uint8Array.fromBase64((await tools.images.screenshot({ seed: 9 }))[0].data);
      return [content.text('a chart:'), content.image(png, 'image/png'),
              content.resource({ uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'hello' })];`);
    assert.equal(r.ok, true, r.text);
    assert.deepEqual(r.raw.content.map((b) => b.type), ['text', 'image', 'resource', 'text']);
    assert.equal(r.raw.content[0].text, 'a chart:');
    assert.deepEqual([...Buffer.from(r.raw.content[1].data, 'base64').subarray(0, 8)], PNG_SIGNATURE);
    assert.deepEqual(r.raw.content[2].resource, { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'hello' });
    assert.match(r.raw.content[3].text, /made it/);
    assert.equal(r.raw.structuredContent.result, undefined);
    assert.deepEqual(r.raw.structuredContent.content.map((b) => b.type), ['text', 'image', 'resource']);
  });

  test('server-everything\'s tiny image, saved by our fixture: the same bytes', async () => {
    const saved = valueOf(await h.exec(`
      const blocks = await tools.everything['get-tiny-image']({});
      const image = blocks.find((b) => b.type === 'image');
      return await tools.images.save_image({ name: 'tiny-${kind}.png', image });`));
    const onDisk = fs.readFileSync(path.join(OUT, `tiny-${kind}.png`));
    assert.deepEqual(onDisk, Buffer.from(TINY, 'base64'));
    assert.equal(saved.sha256, sha256(onDisk));
  });

  test('a result over maxResultBytes: preview inline, the whole readable through resources/read', async () => {
    const r = await h.exec(`return Array.from({ length: 1500 }, (_, i) => ({ i, name: 'item ' + i }))`);
    assert.equal(r.ok, true);
    const link = r.raw.content.find((b) => b.type === 'resource_link');
    assert.ok(link, JSON.stringify(r.raw.content).slice(0, 500));
    assert.match(link.uri, /^codemode:\/\/stash\/[0-9a-f]{32}$/);
    assert.equal(link.mimeType, 'application/json');
    assert.match(r.text, /\n\[result truncated: its JSON is \d+ bytes, over the limit of 16384 bytes; the whole result can be read for a while as the resource codemode:\/\/stash\/[0-9a-f]{32}\]$/);
    assert.equal(r.raw.structuredContent.resultTruncated.uri, link.uri);
    const got = await read(h, link.uri);
    assert.equal(got.contents[0].mimeType, 'application/json');
    assert.deepEqual(JSON.parse(got.contents[0].text), Array.from({ length: 1500 }, (_, i) => ({ i, name: `item ${i}` })));
    assert.equal(link.size, got.contents[0].text.length);
  });

  test('content.stash(value) on purpose: a link the program gets and the client reads', async () => {
    const r = await h.exec(`
      const link = await content.stash({ hello: 'world' });
      const image = await content.stash((await tools.images.screenshot({ seed: 3 }))[0]);
      return [content.text('kept: ' + link.uri), link, image];`);
    assert.equal(r.ok, true, r.text);
    const [, link, image] = r.raw.content;
    assert.equal(link.type, 'resource_link');
    assert.deepEqual(JSON.parse((await read(h, link.uri)).contents[0].text), { hello: 'world' });
    const img = (await read(h, image.uri)).contents[0];
    assert.equal(img.mimeType, 'image/png');
    assert.deepEqual([...Buffer.from(img.blob, 'base64').subarray(0, 8)], PNG_SIGNATURE);
  });

  test('content.stash() returned in an array without await: the link block is in the result', async () => {
    const r = await h.exec(`return [content.text('see the link'), content.stash({ later: true })]`);
    assert.equal(r.ok, true, r.text);
    const [first, link] = r.raw.content;
    assert.deepEqual(first, { type: 'text', text: 'see the link' });
    assert.equal(link.type, 'resource_link');
    assert.deepEqual(JSON.parse((await read(h, link.uri)).contents[0].text), { later: true });
  });

  test('malformed content blocks, stashed or returned, never crash the host; the next call works', async () => {
    const shapes = [
      { type: 'image', data: 'AAAA', mimeType: 'image/png', resource: {} },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav', resource: {} },
      { type: 'image', data: 'AAAA', mimeType: 'image/png', resource: { blob: 5, mimeType: 7 } },
      { type: 'image', resource: {} },
      { type: 'resource', resource: {} },
      { type: 'resource', resource: 'not an object' },
      { type: 'resource', resource: { uri: 'x:y', text: 't', blob: 'AAAA' } },
      { type: 'resource', resource: { uri: 'x:y', text: 't' }, data: 5, mimeType: null },
      { type: 'resource_link' },
      { type: 'resource_link', uri: 'x:y', name: 'n', size: 'big', mimeType: {} },
      { type: 'text' },
      { type: 'text', text: 5 },
      { type: 7 },
      [{ type: 'image', data: 'AAAA', mimeType: 'image/png', resource: {} }, null],
      [{ type: 'image', data: 'AAAA', mimeType: 'image/png', resource: {} }],
    ];
    for (const shape of shapes) {
      const json = JSON.stringify(shape);
      const stashed = await h.exec(`const l = await content.stash(${json}); return l.uri`);
      assert.equal(stashed.ok, true, `${json}: ${stashed.text}`);
      const got = await read(h, stashed.value);
      assert.equal(got.contents?.length, 1, `${json}: ${JSON.stringify(got)}`);
      const returned = await h.exec(`return ${json}`);
      assert.equal(typeof returned.ok, 'boolean', json);
    }
    // an image block with an extra member is still an image: its bytes are kept
    const img = await h.exec(`return (await content.stash(${JSON.stringify(shapes[0])})).uri`);
    const kept = (await read(h, img.value)).contents[0];
    assert.deepEqual([kept.mimeType, kept.blob], ['image/png', 'AAAA']);
    assert.equal(valueOf(await h.exec('return 6 * 7')), 42);
  });

  test('an unknown stash URI is "resource not found"', async () => {
    const got = await read(h, 'codemode://stash/00000000000000000000000000000000');
    assert.equal(got.error?.code, -32002);
    assert.match(got.error.message, /not found/i);
  });
}

describe('stdio', () => contentCases('stdio'));
describe('Streamable HTTP', () => contentCases('streamable-http'));

test('HTTP: a stashed result is invisible to another session of the same server', async () => {
  const a = await connectSdk(['--config', config({}, 'two-sessions.json')], { label: 'session-a', transport: 'streamable-http' });
  try {
    const url = a.server.url;
    const b = await connectSdkTo(url);
    try {
      const r = await exec(a.client, `return await content.stash('for session a only')`);
      const uri = r.raw.content[0].uri;
      assert.equal((await read(a, uri)).contents[0].text, 'for session a only');
      const other = await read(b, uri);
      assert.equal(other.error?.code, -32002, JSON.stringify(other));
    } finally {
      await b.client.close();
    }
  } finally {
    await a.close();
    await assertClean(a);
  }
});

/** A second SDK session against a running HTTP server. */
async function connectSdkTo(url) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new Client({ name: 'e2e-sdk-b', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return { client };
}

describe('each stash bound evicts', () => {
  /** Runs fn(h) against a stdio server whose codemode.stash is `stash`. */
  async function withStash(stash, label, fn) {
    const file = config({ stash }, `${label}.json`);
    const h = await addTwin(await serve(file, { label }), file, label);
    try {
      await fn(h);
    } finally {
      await closeClean(h);
    }
  }
  const stashThree = async (h, size) => {
    const uris = [];
    for (let i = 0; i < 3; i++) {
      const r = await exec(h.client, `return await content.stash('${i}'.repeat(${size}))`);
      uris.push(r.raw.content[0].uri);
    }
    return Promise.all(uris.map(async (u) => (await read(h, u)).contents !== undefined));
  };

  test('count (maxEntries): the least recently used goes first', () => withStash({ maxEntries: 2 }, 'stash-count', async (h) => {
    assert.deepEqual(await stashThree(h, 10), [false, true, true]);
  }));

  test('count: a read makes an entry the most recently used (on PostgreSQL, across instances)', () => withStash({ maxEntries: 2 }, 'stash-lru', async (h) => {
    const stash = async (v) => (await exec(h.client, `return await content.stash('${v}')`)).raw.content[0].uri;
    const first = await stash('first');
    const second = await stash('second');
    // read through this instance only: answered from its memory, the shared entry is used too
    assert.equal((await readThrough(h.client, first)).contents[0].text, 'first');
    const third = await stash('third');
    const kept = await Promise.all([first, second, third].map(async (u) => (await read(h, u)).contents !== undefined));
    assert.deepEqual(kept, [true, false, true]);
  }));

  test('bytes (maxBytes)', () => withStash({ maxBytes: 2048 }, 'stash-bytes', async (h) => {
    assert.deepEqual(await stashThree(h, 900), [false, true, true]);
    const tooBig = await exec(h.client, `return await content.stash('x'.repeat(3000))`);
    assert.equal(tooBig.ok, false);
    assert.match(tooBig.error.message, /over the stash's limit of 2048 bytes/);
  }));

  test('age (ttlMs)', () => withStash({ ttlMs: 300 }, 'stash-age', async (h) => {
    const r = await exec(h.client, `return await content.stash('short-lived')`);
    const uri = r.raw.content[0].uri;
    assert.equal((await read(h, uri)).contents[0].text, 'short-lived');
    await sleep(400);
    assert.equal((await read(h, uri)).error?.code, -32002);
  }));

  test('off (maxEntries 0): a result over the limit is only truncated, content.stash says why', () => withStash({ maxEntries: 0 }, 'stash-off', async (h) => {
    const r = await exec(h.client, `return 'y'.repeat(20000)`);
    assert.match(r.text, /return less, or a summary\]$/);
    assert.equal(r.raw.content.some((b) => b.type === 'resource_link'), false);
    const s = await exec(h.client, `return await content.stash(1)`);
    assert.match(s.error.message, /the stash is off/);
  }));
});

test('content.stash passes the gate: a rule can deny it (ToolPolicyError, nothing kept), the audit log has each attempt', async () => {
  const audit = path.join(dir, 'stash-audit.jsonl');
  const deny = await serve(config({ policy: { rules: { 'content.stash': 'deny' } }, audit: { path: audit } }, 'stash-deny.json'), { label: 'stash-deny' });
  const allow = await serve(config({ audit: { path: audit } }, 'stash-allow.json'), { label: 'stash-allow' });
  try {
    const denied = valueOf(await exec(deny.client, `try { await content.stash('x'); return 'kept'; } catch (e) { return [e.name, e.decision, e instanceof ToolError]; }`));
    assert.deepEqual(denied, ['ToolPolicyError', 'deny', true]);
    const inArray = await exec(deny.client, `return [content.text('a'), content.stash('x')]`);
    assert.equal(inArray.error?.name, 'ToolPolicyError', 'a refused stash returned unawaited fails the program');
    const kept = await exec(allow.client, `return (await content.stash('kept')).uri`);
    assert.match(valueOf(kept), /^codemode:\/\/stash\/[0-9a-f]{32}$/);
  } finally {
    await deny.close();
    await allow.close();
    await assertClean(deny, allow);
  }
  const lines = fs.readFileSync(audit, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    .filter((l) => l.tool === 'content.stash');
  assert.deepEqual(lines.map((l) => [l.event, l.decision, l.outcome]),
    [['tool_call', 'denied', 'not_sent'], ['tool_call', 'denied', 'not_sent'], ['tool_call', 'allow', 'ok']]);
});

test('HTTP 2026-07-28 stateless: the stateless requests share a stash; a 2025 session does not see it', async () => {
  const srv = await HttpServer.start(['--config', config({}, 'stateless.json')], { label: 'stateless' });
  const wire = new Wire('stateless');
  try {
    const code = `return await content.stash('stateless')`;
    const r = await modernCall(srv, wire, 'tools/call', { name: 'execute_code', arguments: { code } }, { id: 1 });
    const uri = r.messages.at(-1).result.content[0].uri;
    assert.match(uri, /^codemode:\/\/stash\/[0-9a-f]{32}$/);
    const got = await modernCall(srv, wire, 'resources/read', { uri }, { id: 2 });
    assert.equal(got.messages.at(-1).result.contents[0].text, 'stateless');
    const session = await RawSession.open(srv);
    const other = await session.call('resources/read', { uri });
    assert.equal(other.messages[0].error?.code, -32002);
  } finally {
    await srv.stop();
  }
});

describe('older revisions get text for the blocks they lack', () => {
  const program = `return [content.audio(btoa('RIFF'), 'audio/wav'), await content.stash('linked'),
                           content.image(btoa('png?'), 'image/png')]`;
  const run = async (rev) => {
    const s = startServer(['--config', config({}, `rev-${rev}.json`)], { label: `raw-${rev}` });
    await s.initialize(rev);
    const r = await s.call(program);
    await s.stop();
    return r.msg.result.content;
  };

  test('2024-11-05: no audio, no resource_link', async () => {
    const c = await run('2024-11-05');
    assert.deepEqual(c.map((b) => b.type), ['text', 'text', 'image']);
    assert.match(c[0].text, /audio content \(audio\/wav.*left out.*2024-11-05 has no audio blocks/);
    assert.match(c[1].text, /codemode:\/\/stash\/[0-9a-f]{32}.*resources\/read/);
  });

  test('2025-03-26: audio, but the link as text', async () => {
    const c = await run('2025-03-26');
    assert.deepEqual(c.map((b) => b.type), ['audio', 'text', 'image']);
    assert.match(c[1].text, /codemode:\/\/stash\/[0-9a-f]{32}/);
  });

  test('2025-06-18: every block as it is', async () => {
    const c = await run('2025-06-18');
    assert.deepEqual(c.map((b) => b.type), ['audio', 'resource_link', 'image']);
  });
});

auditSchemas();
