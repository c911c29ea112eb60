// Strings keep UTF-16 semantics on the host paths the program corpus cannot
// reach (docs/javascript.md, Strings): state values and keys, skills (their
// list, their code, arguments from a client through exposeAsTools),
// describeTool, a call that waited for an approval (elicitation) and the
// ToolApprovalError of a refused one, console lines, and a stashed value read
// back with resources/read. Each program measures its strings in the sandbox
// with PROBE; the test runs the same PROBE under Node on the same text and
// expects the same answer, and the strings that come back out to equal it.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { assertClean, exec, NODE, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { connectSdk } from './lib/sdk.mjs';

const TEXT_PERSONA = path.join(REPO_ROOT, 'tests/programs/host/server.mjs');

// A character outside the BMP, CJK extension B, lone surrogates, U+0000, U+10FFFF.
const S = 'a\u{1F600}\u{20000}\ud800x\u0000\udfffz\u{10FFFF}';
const LIT = JSON.stringify(S); // the same text as a literal in a program
const PROBE = `(s) => ({ length: s.length,
  units: Array.from({ length: s.length }, (_, i) => s.charCodeAt(i)),
  points: [...s].map((c) => c.codePointAt(0)),
  head: s.slice(0, 2), tail: s.slice(-3), upper: s.toUpperCase() })`;
const probe = (0, eval)(PROBE);

describe('UTF-16 strings on the built-in and approval paths', () => {
  const dir = tempDir('codemode-utf16-');
  let h;
  let answer = () => ({ action: 'decline' });
  const asked = [];
  const run = (code) => exec(h.client, `const probe = ${PROBE};\nconst S = ${LIT};\n${code}`);

  before(async () => {
    const file = writeConfig(dir, {
      mcpServers: { text: { command: NODE, args: [TEXT_PERSONA, 'text'] } },
      codemode: {
        state: { path: path.join(dir, 'state.db') },
        skills: { exposeAsTools: true },
        policy: { rules: { 'text.echo': 'ask', 'text.greet_\u{1F600}': 'ask' } },
      },
    });
    h = await connectSdk(['--config', file, '--pool-size', '2'], { label: 'utf16', capabilities: { elicitation: {} } });
    h.client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      return answer(req.params);
    });
  });
  after(async () => {
    await h.close();
    await assertClean(h);
  });

  test('state: values and keys come back with the units they were set with', async () => {
    const v = valueOf(await run(`
      await state.set("key\u{1F600}" + S, { s: S, list: [S] });
      const got = await state.get("key\u{1F600}" + S);
      const keys = await state.list("key");
      const entry = await state.entry("key\u{1F600}" + S);
      return { probe: probe(got.s), same: got.s === S && got.list[0] === S && entry.value.s === S,
               key: probe(keys[0]), back: got.s };`));
    assert.deepEqual(v, { probe: probe(S), same: true, key: probe('key\u{1F600}' + S), back: S });
  });

  test('skills: the list, the saved code, describeTool, and arguments from a client', async () => {
    const description = 'Echoes \u{1F600} and \u{20000}';
    const v = valueOf(await run(`
      await skills.save({ name: "echo_text", description: ${JSON.stringify(description)},
        inputSchema: { type: "object", properties: { s: { type: "string" } }, required: ["s"] },
        code: "const probe = " + ${JSON.stringify(PROBE)} + ";\\n" +
              "return { probe: probe(args.s), literal: probe(" + JSON.stringify(S) + "), same: args.s === " + JSON.stringify(S) + ", s: args.s };" });
      const listed = (await skills.list()).find((k) => k.name === "echo_text");
      const described = await describeTool("skills.echo_text");
      const called = await skills.echo_text({ s: S });
      return { description: probe(listed.description), inDeclaration: described.includes(listed.description), called };`));
    assert.deepEqual(v, {
      description: probe(description),
      inDeclaration: true,
      called: { probe: probe(S), literal: probe(S), same: true, s: S },
    });
    // a client calls the skill as a tool: its arguments become the program's
    const r = await h.client.callTool({ name: 'echo_text', arguments: { s: S } });
    assert.notEqual(r.isError, true, JSON.stringify(r));
    assert.deepEqual(r.structuredContent.result, { probe: probe(S), literal: probe(S), same: true, s: S });
  });

  test('describeTool: a name outside the BMP in the declaration', async () => {
    const v = valueOf(await run(`
      const d = await describeTool("text.greet_\u{1F600}");
      const at = d.indexOf('"greet_\u{1F600}"');
      return { found: at >= 0, quoted: probe(d.slice(at, at + 10)) };`));
    assert.deepEqual(v, { found: true, quoted: probe('"greet_\u{1F600}"') });
  });

  test('approvals: an approved call answers with the same units; a refused one names the tool', async () => {
    asked.length = 0;
    answer = () => ({ action: 'accept', content: { decision: 'once' } });
    const v = valueOf(await run(`
      const r = await tools.text.echo({ value: S });
      return { serverUnits: r.units, probe: probe(r.value), same: r.value === S, back: r.value };`));
    assert.deepEqual(v, { serverUnits: probe(S).units, probe: probe(S), same: true, back: S });
    assert.equal(asked.length, 1);
    answer = () => ({ action: 'accept', content: { decision: 'deny' } });
    const refused = valueOf(await run(`
      try { await tools.text["greet_\u{1F600}"]({ who: S }); return "sent"; }
      catch (e) { return { name: e.name, reason: e.reason, tool: probe(e.tool),
                           named: e.message.includes('"text.greet_\u{1F600}"') }; }`));
    assert.deepEqual(refused, { name: 'ToolApprovalError', reason: 'denied', tool: probe('text.greet_\u{1F600}'), named: true });
  });

  test('console lines, text content and a stashed value leave the sandbox as Node would write them', async () => {
    const r = await run(`
      const s = await tools.text.sample({ kind: "mixed" });
      console.log(s.length, s.slice(0, 3), S);
      return [content.text(s), content.text(s.slice(0, 1)), await content.stash({ s, S, cut: s.slice(0, 1) })];`);
    assert.equal(r.ok, true, r.text);
    const mixed = '\u{1F600}\u0000\ud800\u{20000}\udfff\u{10FFFF} end';
    assert.deepEqual(r.raw.structuredContent.logs, [`${mixed.length} ${mixed.slice(0, 3)} ${S}`]);
    assert.equal(r.raw.content[0].text, mixed);
    assert.equal(r.raw.content[1].text, '\ud83d'); // half of the pair: a lone surrogate, as in Node
    const link = r.raw.content[2];
    assert.equal(link.type, 'resource_link');
    const read = await h.client.readResource({ uri: link.uri });
    assert.equal(read.contents[0].text, JSON.stringify({ s: mixed, S, cut: '\ud83d' }));
  });
});
