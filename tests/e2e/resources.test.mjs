// Programs read the downstream servers' resources and prompts (issue 27 item
// 5, docs/javascript.md): resources.list/templates/read and prompts.list/get
// against server-everything and our library fixture (paged lists, text,
// image and binary resources, prompts with arguments, a tool that returns a
// resource_link), each call under the policy (rules named
// "<server>.resources/read"), the grant, maxToolCalls, the dry run and the
// audit log; the declarations name the servers that offer them and
// tsc --strict accepts them; a config without such a server declares
// neither. The fixture logs every resources/* and prompts/* request it gets:
// each case asserts which server received what.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { NODE, TSC, assertClean, entry, readLog, runBin, serve, tempDir, writeConfig } from './lib/downstream.mjs';

const LIBRARY = path.join(REPO_ROOT, 'tests/fixtures/servers/library.mjs');
const TMP = tempDir('codemode-res-');
const LOG = path.join(TMP, 'requests.jsonl');
const AUDIT = path.join(TMP, 'audit.jsonl');
const library = (name, extra = []) => ({ command: NODE, args: [LIBRARY, '--name', name, '--log', LOG, ...extra] });

const CONFIG = writeConfig(TMP, {
  mcpServers: {
    everything: entry.everything(),
    lib: library('lib'),
    lib2: library('lib2'),
    rec: entry.recorder(),
  },
  codemode: {
    policy: { rules: { 'lib2.prompts/get': 'deny', 'lib.resources/templates/list': 'ask' } },
    audit: { path: AUDIT, arguments: 'full' },
  },
});

let seen = 0;
/** The requests the library servers received since the last call. */
function received() {
  const all = readLog(LOG);
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh;
}

describe('resources and prompts in programs', () => {
  let h;
  const run = async (code, extra = {}) => {
    const raw = await h.client.callTool({ name: 'execute_code', arguments: { code, ...extra } }, undefined, { timeout: 60000 });
    return { raw, ok: raw.isError !== true, value: raw.structuredContent?.result, text: raw.content?.[0]?.text };
  };
  const value = async (code, extra) => {
    const r = await run(code, extra);
    assert.equal(r.ok, true, r.text);
    return r.value;
  };

  before(async () => {
    h = await serve(CONFIG, { label: 'resources' });
    await value('return await tools.lib.link({})');
    received();
  });
  after(async () => {
    await h.close();
    await assertClean(h);
  });

  test('server-everything: list, templates, read text and blob, prompts list and get with arguments', async () => {
    const v = await value(`
      const list = await resources.list("everything");
      const t = await resources.templates("everything");
      const doc = await resources.read(list.resources.find((r) => r.name === "features.md").uri);
      const blob = await resources.read("demo://resource/dynamic/blob/1", {server: "everything"});
      const p = await prompts.list("everything");
      const g = await prompts.get("everything", "args-prompt", {city: "Paris"});
      return {n: list.resources.length, next: list.nextCursor, t: t.resourceTemplates.map((x) => x.uriTemplate),
              doc: doc.slice(0, 30), blob: [blob.type, blob.resource.uri, atob(blob.resource.blob).slice(0, 11)],
              prompts: p.prompts.map((x) => x.name), g};`);
    assert.equal(v.n, 7);
    assert.equal(v.next, undefined);
    assert.deepEqual(v.t, ['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}']);
    assert.equal(v.doc, '# Everything Server - Features');
    assert.deepEqual(v.blob, ['resource', 'demo://resource/dynamic/blob/1', 'Resource 1:']);
    assert.deepEqual(v.prompts, ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);
    assert.deepEqual(v.g, { messages: [{ role: 'user', content: { type: 'text', text: "What's weather in Paris?" } }] });
  });

  test('server-everything: a resource_link from get-resource-links is read directly, from its server', async () => {
    const v = await value(`
      const blocks = await tools.everything["get-resource-links"]({count: 2});
      const links = blocks.filter((b) => b.type === "resource_link");
      const text = await resources.read(links[1]);
      const blob = await resources.read(links[0].uri);
      return [links.map((l) => l.uri), text.slice(0, 11), blob.type];`);
    assert.deepEqual(v, [['demo://resource/dynamic/blob/1', 'demo://resource/dynamic/text/2'], 'Resource 2:', 'resource']);
    assert.deepEqual(received(), []);
  });

  test('lists follow every page; a cursor asks for one page', async () => {
    const v = await value(`
      const all = await resources.list("lib");
      const one = await resources.list("lib", {cursor: "p10"});
      const t = await resources.templates("lib2");
      const p = await prompts.list("lib2");
      return [all.resources.length, all.resources.at(-1).uri, all.nextCursor, one.resources.length, one.resources[0].uri,
              one.nextCursor, t.resourceTemplates.map((x) => x.name), p.prompts.map((x) => x.name)];`);
    assert.deepEqual(v, [25, 'lib://doc/25', null, 10, 'lib://doc/11', 'p20', ['doc', 'img', 'bin'], ['greet', 'plain', 'third']]);
    assert.deepEqual(received(), [
      { server: 'lib', method: 'resources/list', params: {} },
      { server: 'lib', method: 'resources/list', params: { cursor: 'p10' } },
      { server: 'lib', method: 'resources/list', params: { cursor: 'p20' } },
      { server: 'lib', method: 'resources/list', params: { cursor: 'p10' } },
      { server: 'lib2', method: 'resources/templates/list', params: {} },
      { server: 'lib2', method: 'resources/templates/list', params: { cursor: 'p2' } },
      { server: 'lib2', method: 'prompts/list', params: {} },
      { server: 'lib2', method: 'prompts/list', params: { cursor: 'p2' } },
    ]);
  });

  test('read: text as a string, an image as an image block a program can return, other blobs as resources, several as an array', async () => {
    const r = await run(`
      const [img, bin, multi] = await Promise.all(["lib://img/1", "lib://bin/1", "lib://multi"].map((u) => resources.read(u, {server: "lib"})));
      console.log(JSON.stringify([bin, multi.length, typeof multi[0], multi[1].type]));
      return [content.text("the image:"), img];`);
    assert.equal(r.ok, true, r.text);
    assert.deepEqual(r.raw.content.slice(0, 2).map((b) => b.type), ['text', 'image']);
    assert.equal(r.raw.content[1].mimeType, 'image/png');
    assert.match(r.raw.content[1].data, /^iVBORw0KGgo/);
    assert.deepEqual(JSON.parse(r.raw.structuredContent.logs[0]),
      [{ type: 'resource', resource: { uri: 'lib://bin/1', mimeType: 'application/octet-stream', blob: 'AAEC' } }, 2, 'string', 'image']);
    assert.equal(received().length, 3);
  });

  test('read without a server: the server that listed the uri or whose tool returned it, else a clear error', async () => {
    const v = await value(`
      const blocks = await tools.lib2.link({n: 4});
      const text = await resources.read(blocks[1]);
      const listed = (await resources.list("lib", {cursor: "p20"})).resources;
      const fromList = await resources.read(listed[0].uri);
      let err, twice;
      try { await resources.read("lib://doc/9"); } catch (e) { err = [e.name, e instanceof ToolError, e.message]; }
      await tools.lib2.link({n: 22});
      try { await resources.read("lib://doc/22"); } catch (e) { twice = e.message; }
      return [text, fromList, err, twice];`);
    assert.equal(v[0], 'document 4 of lib2');
    assert.equal(v[1], 'document 21 of lib');
    assert.deepEqual(v[2].slice(0, 2), ['ToolError', true]);
    assert.match(v[2][2], /resources\.read: which server has "lib:\/\/doc\/9"\? No tool of this execution returned it; say which: resources\.read\(uri, \{server: "\.\.\."\}\); the servers that offer them: "everything", "lib", "lib2"/);
    assert.match(v[3], /^resources\.read: more than one server listed or returned "lib:\/\/doc\/22" in this execution; say which/);
    assert.deepEqual(received(), [
      { server: 'lib2', method: 'resources/read', params: { uri: 'lib://doc/4' } },
      { server: 'lib', method: 'resources/list', params: { cursor: 'p20' } },
      { server: 'lib', method: 'resources/read', params: { uri: 'lib://doc/21' } },
    ]);
  });

  test('errors: unknown server, a server without resources, a missing resource or prompt, bad arguments', async () => {
    const v = await value(`
      const out = [];
      for (const f of [() => resources.list("nope"), () => resources.list("rec"), () => prompts.list(),
                       () => resources.read("lib://nope", {server: "lib"}), () => prompts.get("lib", "nope"),
                       () => resources.list(42), () => prompts.get("lib", "greet", {name: 7}), () => resources.read()]) {
        try { await f(); out.push("ok?"); } catch (e) { out.push(e.name + ": " + e.message); }
      }
      return out;`);
    assert.deepEqual(v, [
      'ToolError: resources.list: unknown server "nope"; the servers that offer them: "everything", "lib", "lib2"',
      'ToolError: resources.list: server "rec" offers no resources; the servers that offer them: "everything", "lib", "lib2"',
      'ToolError: prompts.list: the server is required, as its first argument; the servers that offer them: "everything", "lib", "lib2"',
      "ToolError: server 'lib': 'resources/read' failed: Resource not found: lib://nope (JSON-RPC error -32002)",
      "ToolError: server 'lib': 'prompts/get' failed: Unknown prompt: nope (JSON-RPC error -32602)",
      'TypeError: server must be a non-empty string of at most 1024 bytes',
      'TypeError: the prompt\'s arguments must be an object of at most 256 strings ("name" is not a string)',
      'TypeError: resources.read: the uri is required (a string, or a resource_link)',
    ]);
    assert.deepEqual(received().map((r) => r.method), ['resources/read', 'prompts/get']);
  });

  test('policy: a deny rule gives ToolPolicyError, an ask rule ToolApprovalError without an approver; nothing is sent', async () => {
    const v = await value(`
      const out = [];
      for (const f of [() => prompts.get("lib2", "greet", {name: "x"}), () => resources.templates("lib")]) {
        try { await f(); out.push("sent?"); }
        catch (e) { out.push([e.name, e.tool, e.decision ?? e.reason, e instanceof ToolError, e.message]); }
      }
      return out;`);
    assert.deepEqual(v.map((e) => e.slice(0, 4)), [
      ['ToolPolicyError', 'lib2.prompts/get', 'deny', true],
      ['ToolApprovalError', 'lib.resources/templates/list', 'no_approver', true],
    ]);
    assert.match(v[0][4], /"lib2\.prompts\/get" is denied by this server's policy \(rule "lib2\.prompts\/get"\); the request was not sent/);
    assert.match(v[1][4], /needs approval, but this client cannot approve calls .*needs a rule: change rule "lib\.resources\/templates\/list" to "allow"/);
    assert.deepEqual(received(), []);
  });

  test('grant: allow patterns cover resources and prompts under their rule names', async () => {
    const v = await value(`
      const r = [(await resources.list("lib", {cursor: "p20"})).resources.length];
      for (const f of [() => prompts.list("lib"), () => resources.read("demo://resource/dynamic/text/1", {server: "everything"})]) {
        try { await f(); r.push("sent?"); } catch (e) { r.push([e.name, e.tool, e.decision]); }
      }
      return r;`, { allow: ['lib.resources/*'] });
    assert.deepEqual(v, [5, ['ToolPolicyError', 'lib.prompts/list', 'not_granted'], ['ToolPolicyError', 'everything.resources/read', 'not_granted']]);
    assert.deepEqual(received(), [{ server: 'lib', method: 'resources/list', params: { cursor: 'p20' } }]);
  });

  test('maxToolCalls counts each resources and prompts call', async () => {
    const r = await run(`
      await resources.read("lib://doc/1", {server: "lib"});
      await prompts.list("lib", {cursor: "p2"});
      await resources.read("lib://doc/2", {server: "lib"});
      return "all";`, { maxToolCalls: 2 });
    assert.equal(r.ok, false);
    assert.match(r.text, /tool call limit reached: at most 2 calls per execution/);
    assert.deepEqual(received().map((x) => x.method), ['resources/read', 'prompts/list']);
  });

  test('dry run: allowed reads are sent, an ask one is planned with its decision', async () => {
    const r = await run(`
      const doc = await resources.read("lib://doc/5", {server: "lib"});
      const t = await resources.templates("lib");
      return {doc, t};`, { dryRun: true });
    assert.equal(r.ok, true, r.text);
    assert.deepEqual(r.value, { doc: 'document 5 of lib', t: { dryRun: true, tool: 'lib.resources/templates/list', note: 'dry run: this call was recorded, not sent' } });
    assert.deepEqual(r.raw.structuredContent.plannedCalls, [
      { tool: 'lib.resources/templates/list', arguments: { server: 'lib' }, decision: 'ask', decidedBy: 'rule "lib.resources/templates/list"' },
    ]);
    assert.deepEqual(received(), [{ server: 'lib', method: 'resources/read', params: { uri: 'lib://doc/5' } }]);
  });

  test('audit log: tool_call_sent and tool_call lines under the rule names, refusals not sent', async () => {
    const r = await run(`
      await resources.read("lib://doc/6", {server: "lib"});
      try { await prompts.get("lib2", "greet", {name: "a"}); } catch {}
      return 1;`);
    assert.equal(r.ok, true, r.text);
    received();
    const lines = fs.readFileSync(AUDIT, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    const start = lines.findLastIndex((l) => l.event === 'execution_start');
    const mine = lines.slice(start).filter((l) => l.event.startsWith('tool_call'));
    const pick = ({ event, tool, arguments: a, decision, outcome }) => ({ event, tool, arguments: a, decision, outcome });
    assert.deepEqual(mine.map(pick), [
      { event: 'tool_call_sent', tool: 'lib.resources/read', arguments: { uri: 'lib://doc/6', server: 'lib' }, decision: 'allow', outcome: undefined },
      { event: 'tool_call', tool: 'lib.resources/read', arguments: { uri: 'lib://doc/6', server: 'lib' }, decision: 'allow', outcome: 'ok' },
      { event: 'tool_call', tool: 'lib2.prompts/get', arguments: { server: 'lib2', name: 'greet', arguments: { name: 'a' } }, decision: 'denied', outcome: 'not_sent' },
    ]);
    assert.equal(mine[0].callId, mine[1].callId);
  });

  test('declarations: resources and prompts name the servers that offer them; tsc --strict accepts them with a program', async () => {
    const d = await h.description();
    assert.match(d, /declare const resources: \{/);
    assert.match(d, /declare const prompts: \{/);
    assert.match(d, /declare namespace Resources \{[^]*type Server = "everything" \| "lib" \| "lib2";/);
    const t = await runBin(['types', '--config', CONFIG], { timeout: 60000 });
    assert.equal(t.code, 0, t.stderr);
    const dir = fs.mkdtempSync(path.join(TMP, 'tsc-'));
    const files = {
      'decls.d.ts': t.stdout,
      'use.ts': `async function main() {
  const { resources: list, nextCursor } = await resources.list("lib");
  const t = await resources.templates("everything", { cursor: nextCursor });
  const v = await resources.read(list[0], { server: "lib2" });
  const one: Resources.Value = Array.isArray(v) ? v[0] : v;
  const img = typeof one === "string" ? content.text(one) : one;
  const p = await prompts.list("everything");
  const g = await prompts.get("everything", p.prompts[0].name, { city: "Paris" });
  return [t.resourceTemplates[0].uriTemplate, img, g.messages[0].role, g.description];
}
main();
export {};
`,
      'bad.ts': `async function bad() {\n  await resources.list("rec");\n}\nexport {};\n`,
    };
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', lib: ['es2022'], types: [] },
      files: Object.keys(files),
    }));
    const r = spawnSync(NODE, [TSC, '-p', dir], { encoding: 'utf8', timeout: 120000 });
    const errors = `${r.stdout}${r.stderr}`.split('\n').filter((l) => /error TS/.test(l));
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0], /bad\.ts\(2,\d+\): error TS2345: Argument of type '"rec"' is not assignable/);
  });
});

describe('a server without resources or prompts', () => {
  test('declares neither namespace, and a program sees neither', async () => {
    const cfg = writeConfig(TMP, { mcpServers: { rec: entry.recorder() } });
    const h = await serve(cfg, { label: 'no-resources' });
    try {
      const d = await h.description();
      assert.doesNotMatch(d, /declare const (resources|prompts)/);
      const r = await h.exec('return [typeof resources, typeof prompts, typeof tools.rec]');
      assert.deepEqual(r.value, ['undefined', 'undefined', 'object']);
    } finally {
      await h.close();
    }
    await assertClean(h);
  });
});

describe('a server whose list never ends', () => {
  test('one list call stops at 100 pages and gives the cursor to go on', async () => {
    const cfg = writeConfig(TMP, { mcpServers: { endless: library('endless', ['--endless']) } });
    const h = await serve(cfg, { label: 'endless' });
    try {
      const v = (await h.exec('const l = await resources.list("endless"); return [l.resources.length, typeof l.nextCursor]')).value;
      assert.deepEqual(v, [100, 'string']);
    } finally {
      await h.close();
    }
    received();
    await assertClean(h);
  });
});

auditSchemas();
