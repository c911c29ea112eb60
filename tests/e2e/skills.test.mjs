// Saved skills (docs/javascript.md, Skills) over stdio and Streamable HTTP
// with the official SDK client: a skill saved in one execution is called
// from the next with its arguments validated, appears in the declarations and
// in searchTools, and runs under the same policy as the program (a tool the
// policy denies is denied inside it); with codemode.skills.exposeAsTools the
// client gets notifications/tools/list_changed after a save or delete and
// calls the skill directly; the policy can deny skills.save, and the audit
// log records it; the `skills` subcommand saves, lists and deletes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { auditSchemas } from './lib/audit.mjs';
import { entry, eventually, runBin, tempDir, valueOf } from './lib/downstream.mjs';
import { secondClient, STATE_TRANSPORTS, stateConfig, trackedConnect } from './lib/state.mjs';

const dir = tempDir('codemode-skills-');
const open = trackedConnect();

const SAVE_ADD = `return await skills.save({
  name: "add",
  description: "Adds two numbers and echoes them through the recorder.",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  code: "const { a, b } = args; const echoed = await tools.rec.echo({ i: a + b }); return { sum: a + b, echoed };",
});`;

for (const transport of STATE_TRANSPORTS) {
  describe(`skills over ${transport}`, () => {
    test('saved in one execution, called from the next, arguments validated', async () => {
      const { file } = stateConfig(dir, { db: `basic-${transport}.db`, mcpServers: { rec: entry.recorder() } });
      const h = await open(file, transport);
      assert.deepEqual(valueOf(await h.exec(SAVE_ADD)), { name: 'add' });
      const v = valueOf(await h.exec('return await skills.add({ a: 2, b: 3 })'));
      assert.equal(v.sum, 5);
      assert.deepEqual(v.echoed.args, { i: 5 }, "the skill called the downstream tool");
      const bad = valueOf(await h.exec('try { await skills.add({ a: "two" }); } catch (e) { return [e.name, e.message]; }'));
      assert.equal(bad[0], 'ToolArgumentError');
      assert.match(bad[1], /\/a: expected number/);
      assert.match(bad[1], /b/);
      const list = valueOf(await h.exec('return await skills.list()'));
      assert.deepEqual(list.map((s) => s.name), ['add']);
      assert.equal(list[0].code, undefined);
      const syntax = valueOf(await h.exec('try { await skills.save({ name: "broken", description: "x", code: "return (" }); return "saved"; } catch (e) { return e.name; }'));
      assert.equal(syntax, 'SyntaxError');
      const reserved = valueOf(await h.exec('try { await skills.save({ name: "delete", description: "x", code: "" }); } catch (e) { return [e.name, e.code]; }'));
      assert.deepEqual(reserved, ['StateError', 'invalid']);
      const search = valueOf(await h.exec('return await searchTools("two numbers")'));
      assert.ok(search.some((x) => x.name === 'skills.add'), JSON.stringify(search));
      const described = valueOf(await h.exec('return await describeTool("skills.add")'));
      assert.match(described, /^declare const skills: \{\n  \/\*\* Adds two numbers[^\n]*\*\/\n  add\(args: \{ a: number; b: number \}\): Promise<unknown>;\n\};\n$/);
      const description = (await h.client.listTools()).tools[0].description;
      assert.match(description, /add\(args: \{ a: number; b: number \}\): Promise<unknown>;/);
      assert.equal(valueOf(await h.exec('return await skills.delete("add")')), true);
      assert.equal(valueOf(await h.exec('return typeof skills.add')), 'undefined');
    });

    test('exposeAsTools: list_changed after a save, then the client calls the skill directly', async () => {
      const { file } = stateConfig(dir, { db: `expose-${transport}.db`, skills: { exposeAsTools: true } });
      const h = await open(file, transport);
      let changes = 0;
      h.client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changes++; });
      assert.deepEqual((await h.client.listTools()).tools.map((t) => t.name), ['execute_code']);
      valueOf(await h.exec(`return await skills.save({ name: "greet", description: "Greets someone.",
        inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
        code: "return 'hello ' + args.who" })`));
      await eventually(() => changes >= 1, { what: 'notifications/tools/list_changed after skills.save' });
      const tools = (await h.client.listTools()).tools;
      const greet = tools.find((t) => t.name === 'greet');
      assert.ok(greet, JSON.stringify(tools.map((t) => t.name)));
      assert.equal(greet.description, 'Greets someone.');
      assert.deepEqual(greet.inputSchema.required, ['who']);
      const r = await h.client.callTool({ name: 'greet', arguments: { who: 'Ada' } });
      assert.notEqual(r.isError, true, JSON.stringify(r));
      assert.equal(r.structuredContent.result, 'hello Ada');
      const bad = await h.client.callTool({ name: 'greet', arguments: { who: 1 } });
      assert.equal(bad.isError, true);
      assert.match(bad.content[0].text, /ToolArgumentError/);
      valueOf(await h.exec('return await skills.delete("greet")'));
      await eventually(() => changes >= 2, { what: 'notifications/tools/list_changed after skills.delete' });
      assert.deepEqual((await h.client.listTools()).tools.map((t) => t.name), ['execute_code']);
    });
  });
}

describe('skills are owned: another principal cannot replace, delete or (by default) see them', () => {
  const VICTIM_SKILL = `return await skills.save({ name: "report", description: "Reads my notes.",
    code: "return await state.get('notes')" })`;
  const ATTACK = `const out = {};
    try { await skills.save({ name: "report", description: "x", code: "return 'swapped'" }); out.save = "saved"; } catch (e) { out.save = [e.name, e.code]; }
    try { out.del = await skills.delete("report"); } catch (e) { out.del = [e.name, e.code]; }
    out.list = (await skills.list()).map((s) => s.name);
    out.type = typeof skills.report;
    return out;`;
  for (const scope of ['principal', 'server']) {
    test(`scope "${scope}": two HTTP sessions`, async () => {
      const { file } = stateConfig(dir, { db: `owned-${scope}.db`, skills: { scope } });
      const victim = await open(file, 'streamable-http');
      const attacker = await secondClient(victim);
      try {
        valueOf(await victim.exec('return await state.set("notes", "private")'));
        assert.deepEqual(valueOf(await victim.exec(VICTIM_SKILL)), { name: 'report' });
        const got = valueOf(await attacker.exec(ATTACK));
        if (scope === 'server') {
          assert.deepEqual(got, { save: ['StateError', 'forbidden'], del: ['StateError', 'forbidden'], list: ['report'], type: 'function' });
          // calling it runs with the caller's authority: the attacker's own (empty) state
          assert.equal(valueOf(await attacker.exec('return (await skills.report()) ?? "nothing"')), 'nothing');
        } else {
          // invisible: the attacker's "report" is its own, and deleting finds nothing of the victim's
          assert.deepEqual(got, { save: 'saved', del: true, list: [], type: 'undefined' });
        }
        assert.equal(valueOf(await victim.exec('return await skills.report()')), 'private', 'the victim still runs its own skill');
        assert.deepEqual(valueOf(await victim.exec('return (await skills.list()).map((s) => s.name)')), ['report']);
      } finally {
        await attacker.close();
      }
    });
  }

  test('codemode.skills.admins and the skills command may replace any skill', async () => {
    const { file } = stateConfig(dir, { db: 'owned-admin.db', skills: { scope: 'server', admins: ['stdio'] } });
    const code = path.join(dir, 'cli-skill.js');
    fs.writeFileSync(code, 'return "from the CLI"');
    const saved = await runBin(['skills', 'save', '--config', file, '--name', 'shared', '--description', 'The server\'s.', '--file', code]);
    assert.equal(saved.code, 0, saved.stderr);
    const cli = await runBin(['run', '-', '--config', file], { input: 'try { await skills.save({ name: "shared", description: "x", code: "return 1" }); } catch (e) { return e.code; }' });
    assert.equal(JSON.parse(cli.stdout), 'forbidden', 'run is a principal of its own, not an admin');
    const admin = await open(file, 'stdio');
    assert.deepEqual(valueOf(await admin.exec('return await skills.save({ name: "shared", description: "y", code: "return 2" })')), { name: 'shared' });
    assert.equal(valueOf(await admin.exec('return await skills.shared()')), 2);
    const listed = JSON.parse((await runBin(['skills', 'list', '--config', file])).stdout);
    assert.deepEqual(listed.map((x) => [x.name, x.owner]), [['shared', '']], 'an admin\'s replacement keeps the owner');
  });
});

test('the policy: skills.save denied (ToolPolicyError, audited); a tool the policy denies is denied inside a skill', async () => {
  const audit = path.join(dir, 'audit.jsonl');
  const { file } = stateConfig(dir, {
    db: 'policy.db',
    mcpServers: { rec: entry.recorder() },
    policy: { rules: { 'skills.save': 'deny', 'rec.fail': 'deny' } },
    audit: { path: audit },
  });
  const h = await open(file, 'stdio');
  const r = valueOf(await h.exec('try { await skills.save({ name: "x", description: "x", code: "return 1" }); return "saved"; } catch (e) { return [e.name, e.decision, e instanceof ToolError]; }'));
  assert.deepEqual(r, ['ToolPolicyError', 'deny', true]);
  assert.deepEqual(valueOf(await h.exec('return (await skills.list()).length')), 0);
  const lines = fs.readFileSync(audit, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const save = lines.find((l) => l.tool === 'skills.save');
  assert.ok(save, 'the audit log has the skills.save call');
  assert.equal(save.decision, 'denied');
  assert.equal(save.outcome, 'not_sent');
  // A skill saved by the CLI (the policy is for programs) calls a denied tool.
  const code = path.join(dir, 'fail.js');
  fs.writeFileSync(code, 'return await tools.rec.fail({ why: "x" })');
  const saved = await runBin(['skills', 'save', '--config', file, '--name', 'tryFail', '--description', 'Calls rec.fail.', '--file', code]);
  assert.equal(saved.code, 0, saved.stderr);
  const h2 = await open(file, 'stdio');
  const inside = valueOf(await h2.exec('try { await skills.tryFail({}); } catch (e) { return [e.name, e.decision]; }'));
  assert.deepEqual(inside, ['ToolPolicyError', 'deny']);
});

test('the policy asks for skills.save: refused without approval, saved with it (run --approve)', async () => {
  const { file } = stateConfig(dir, { db: 'ask.db', policy: { rules: { 'skills.save': 'ask' } } });
  const code = 'try { return await skills.save({ name: "asked", description: "x", code: "return 1" }); } catch (e) { return [e.name, e.reason]; }';
  const refused = await runBin(['run', '-', '--config', file, '--approve', 'none'], { input: code });
  assert.equal(refused.code, 0, refused.stderr);
  assert.deepEqual(JSON.parse(refused.stdout), ['ToolApprovalError', 'denied']);
  const approved = await runBin(['run', '-', '--config', file, '--approve', 'all'], { input: code });
  assert.equal(approved.code, 0, approved.stderr);
  assert.deepEqual(JSON.parse(approved.stdout), { name: 'asked' });
  const listed = await runBin(['skills', 'list', '--config', file]);
  assert.deepEqual(JSON.parse(listed.stdout).map((x) => x.name), ['asked']);
});

test('the skills subcommand: save (with a schema file), list, delete, and bad input', async () => {
  const { file } = stateConfig(dir, { db: 'cli.db' });
  const code = path.join(dir, 'twice.js');
  const schema = path.join(dir, 'twice.json');
  fs.writeFileSync(code, 'return args.n * 2');
  fs.writeFileSync(schema, JSON.stringify({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }));
  const saved = await runBin(['skills', 'save', '--config', file, '--name', 'twice', '--description', 'Doubles n.', '--schema', schema, '--file', code]);
  assert.equal(saved.code, 0, saved.stderr);
  const listed = await runBin(['skills', 'list', '--config', file]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(JSON.parse(listed.stdout).map((s) => s.name), ['twice']);
  const h = await open(file, 'stdio');
  assert.equal(valueOf(await h.exec('return await skills.twice({ n: 21 })')), 42);
  const reserved = await runBin(['skills', 'save', '--config', file, '--name', 'list', '--description', 'x', '--file', code]);
  assert.equal(reserved.code, 1);
  assert.match(reserved.stderr, /reserved name/);
  const usage = await runBin(['skills', 'save', '--config', file, '--name', 'x']);
  assert.equal(usage.code, 2);
  const deleted = await runBin(['skills', 'delete', 'twice', '--config', file]);
  assert.equal(deleted.code, 0);
  assert.equal(deleted.stdout.trim(), 'true');
  assert.deepEqual(JSON.parse((await runBin(['skills', 'list', '--config', file])).stdout), []);
});

auditSchemas({ minMessages: 20 });
