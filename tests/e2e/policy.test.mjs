// The harness keeps authority (issue 14, docs/policy.md), through the real
// binary with the official SDK client over stdio and Streamable HTTP: policy
// rules and annotation defaults, deny -> ToolPolicyError, ask without an
// approver -> ToolApprovalError (noApprover deny) or the call (noApprover
// allow), declarations and search without denied tools, per-execution grants
// (allow) and maxToolCalls, dry runs with their planned calls, and the audit
// log. The downstream fixture (tests/fixtures/servers/annotated.mjs) logs
// every tools/call it receives: each case asserts exactly which arrived.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { NODE } from './lib/downstream.mjs';
import { eventually, readLog, runBin, tempDir } from './lib/downstream.mjs';
import { connectSdk } from './lib/sdk.mjs';

const ANNOTATED = path.join(REPO_ROOT, 'tests/fixtures/servers/annotated.mjs');
const TMP = tempDir('codemode-policy-');
const SECRET = 'pOl1cy-s3cret-value';
process.env.POLICY_E2E_SECRET = SECRET; // expanded into the downstream env: must never reach the audit log

/** A config: crm (the annotated fixture, logging to logFile) with the policy of the tests. */
function config(name, { noApprover, auditArgs = 'hash', extra = {}, server = {}, rules } = {}) {
  const logFile = path.join(TMP, `${name}.calls.jsonl`);
  const auditFile = path.join(TMP, `${name}.audit.jsonl`);
  const file = path.join(TMP, `${name}.json`);
  const policy = { rules: rules ?? { 'crm.update_item': 'ask', 'crm.search_items': 'allow' } };
  if (noApprover) policy.noApprover = noApprover;
  fs.writeFileSync(file, JSON.stringify({
    mcpServers: {
      crm: {
        command: NODE,
        args: [ANNOTATED, '--log', logFile],
        env: { CRM_TOKEN: '${POLICY_E2E_SECRET}' },
        policy: { 'send_*': 'deny' },
        ...server,
      },
    },
    codemode: { policy, audit: { path: auditFile, arguments: auditArgs }, ...extra },
  }));
  return { file, logFile, auditFile };
}

/** The tools/call requests the fixture received since the last call of this function. */
function receiver(logFile) {
  let seen = 0;
  return () => {
    const all = readLog(logFile);
    const fresh = all.slice(seen);
    seen = all.length;
    return fresh;
  };
}

for (const transport of ['stdio', 'streamable-http']) {
  describe(`policy over ${transport}`, () => {
    const cfg = config(`main-${transport}`);
    const received = receiver(cfg.logFile);
    let c;
    const run = async (code, extra = {}) => {
      const raw = await c.client.callTool({ name: 'execute_code', arguments: { code, ...extra } });
      return { raw, ok: raw.isError !== true, value: raw.structuredContent?.result, text: raw.content?.[0]?.text };
    };
    const value = async (code, extra) => {
      const r = await run(code, extra);
      assert.equal(r.ok, true, r.text);
      return r.value;
    };

    before(async () => {
      c = await connectSdk(['--config', cfg.file, '--pool-size', '2'], { label: `policy ${transport}`, transport });
      await value('return await tools.crm.search_items({q: "warm-up"})');
      received();
    });
    after(async () => {
      await c.close();
      assert.deepEqual(c.errors.map(String), []);
    });

    test('deny: ToolPolicyError (a ToolError) with .tool and .decision; nothing is sent', async () => {
      const v = await value(`
        try { await tools.crm.send_note({to: "bob"}); return "sent?"; }
        catch (e) { return {name: e.name, tool: e.tool, decision: e.decision, isToolError: e instanceof ToolError,
                            isPolicy: e instanceof ToolPolicyError, message: e.message}; }`);
      assert.deepEqual({ ...v, message: undefined }, { name: 'ToolPolicyError', tool: 'crm.send_note', decision: 'deny', isToolError: true, isPolicy: true, message: undefined });
      assert.match(v.message, /denied by this server's policy \(rule "send_\*" of mcpServers\.crm\.policy\); the call was not sent\. Retrying will not help/);
      assert.deepEqual(received(), []);
    });

    test('an uncaught denial ends the program with ToolPolicyError and its line', async () => {
      const r = await run('const x = 1;\nawait callTool("crm.send_note", {to: "x"});\nreturn 2;');
      assert.equal(r.ok, false);
      assert.match(r.text, /^ToolPolicyError: Tool "crm\.send_note" is denied/);
      assert.match(r.text, /line 2/);
      assert.deepEqual(received(), []);
    });

    test('ask with a client that cannot approve: ToolApprovalError naming noApprover; nothing is sent', async () => {
      const v = await value(`
        const out = [];
        for (const f of [() => tools.crm.delete_item({id: "a"}), () => tools.crm.update_item({id: "a"})]) {
          try { await f(); out.push("sent?"); }
          catch (e) { out.push([e.name, e.tool, e.reason, e instanceof ToolError, /cannot approve/.test(e.message), /codemode\\.policy\\.noApprover/.test(e.message)]); }
        }
        return out;`);
      assert.deepEqual(v, [
        ['ToolApprovalError', 'crm.delete_item', 'no_approver', true, true, true],
        ['ToolApprovalError', 'crm.update_item', 'no_approver', true, true, true],
      ]);
      assert.deepEqual(received(), []);
    });

    test('allowed calls go through: a rule, readOnlyHint, the default (original and sanitised names)', async () => {
      const v = await value(`
        const a = await tools.crm.search_items({q: "x"});
        const b = await tools.crm["get-item"]({id: "7"});
        const c = await tools.crm.get_item({id: "8"});
        return [a.q, b.id, c.id];`);
      assert.deepEqual(v, ['x', '7', '8']);
      assert.deepEqual(received(), [
        { tool: 'search_items', arguments: { q: 'x' } },
        { tool: 'get-item', arguments: { id: '7' } },
        { tool: 'get-item', arguments: { id: '8' } },
      ]);
    });

    test('declarations: denied tools left out (and listed as not callable), ask tools carry a JSDoc line', async () => {
      const { tools } = await c.client.listTools();
      const d = tools[0].description;
      assert.doesNotMatch(d, /send_note\(/);
      assert.match(d, /Not callable from programs: crm\.send_note \(denied by policy\)/);
      // the description marks it in a few words (the preamble's ToolApprovalError says what it means) ...
      assert.match(d, /\/\*\* [^\n]*Needs approval\. \*\/\n\s*delete_item\(/);
      assert.match(d, /A call that "Needs approval" was not approved/);
      // ... and describeTool, the whole text, in full
      const whole = await value('return await describeTool("crm.delete_item")');
      assert.match(whole, /\* Needs approval: each call waits until a person approves it; a refusal throws ToolApprovalError\.\n\s*\*\/\n\s*delete_item\(/);
      assert.match(d, /declare class ToolPolicyError extends ToolError/);
      assert.match(d, /declare class ToolApprovalError extends ToolError/);
      const search = await value('return (await searchTools("")).map((t) => t.name)');
      assert.deepEqual(search, ['crm.delete_item', 'crm.get_item', 'crm.search_items', 'crm.slow', 'crm.update_item']);
      const described = await value('try { await describeTool("crm.send_note"); return "described"; } catch (e) { return e.name; }');
      assert.equal(described, 'ToolPolicyError');
      assert.deepEqual(received(), []);
    });

    test('grant: allow narrows the callable tools, search and describe; nothing else is sent', async () => {
      const v = await value(`
        const r = {};
        r.search = (await searchTools("")).map((t) => t.name);
        r.ok = (await tools.crm.search_items({q: "g"})).q;
        try { await tools.crm.get_item({id: "1"}); } catch (e) { r.get = [e.name, e.decision]; }
        try { await describeTool("crm.get_item"); } catch (e) { r.describe = e.name; }
        r.keys = Object.keys(tools.crm);
        return r;`, { allow: ['crm.search_*'] });
      assert.deepEqual(v, {
        search: ['crm.search_items'], ok: 'g', get: ['ToolPolicyError', 'not_granted'], describe: 'ToolPolicyError', keys: ['search_items'],
      });
      assert.deepEqual(received(), [{ tool: 'search_items', arguments: { q: 'g' } }]);
    });

    test('grant: never widens (denied stays denied, ask still asks)', async () => {
      const v = await value(`
        const r = [];
        for (const n of ["crm.send_note", "crm.delete_item", "crm.get_item"]) {
          try { await callTool(n, {to: "x", id: "x"}); r.push("ok"); } catch (e) { r.push(e.name + ":" + (e.decision || e.reason)); }
        }
        return r;`, { allow: ['*'] });
      assert.deepEqual(v, ['ToolPolicyError:deny', 'ToolApprovalError:no_approver', 'ok']);
      assert.deepEqual(received(), [{ tool: 'get-item', arguments: { to: 'x', id: 'x' } }]);
    });

    test('arguments with wrong types: a tool error naming the argument, nothing runs', async () => {
      const cases = [
        [{ allow: 'crm.*' }, /allow must be an array of tool patterns/],
        [{ allow: ['crm.*', 7] }, /allow\[1\] is not a tool pattern: not a string/],
        [{ allow: ['crm'] }, /allow\[0\] is not a tool pattern: no server part/],
        [{ dryRun: 'yes' }, /dryRun must be a boolean/],
        [{ maxToolCalls: -1 }, /maxToolCalls must be an integer from 0 \(no tool calls\) to 1000/],
        [{ maxToolCalls: 1.5 }, /maxToolCalls must be an integer/],
        [{ maxToolCalls: '2' }, /maxToolCalls must be an integer/],
      ];
      for (const [extra, re] of cases) {
        const r = await run('await tools.crm.search_items({}); return 1', extra);
        assert.equal(r.ok, false, JSON.stringify(extra));
        assert.match(r.text, re);
      }
      assert.deepEqual(received(), []);
    });

    test('maxToolCalls: the third call fails; capped by the config limit', async () => {
      const r = await run('for (let i = 0; i < 5; i++) await tools.crm.search_items({q: String(i)}); return "all"', { maxToolCalls: 2 });
      assert.equal(r.ok, false);
      assert.match(r.text, /tool call limit reached: at most 2 calls/);
      assert.deepEqual(received().map((x) => x.arguments.q), ['0', '1']);
    });

    test('maxToolCalls 0: no tool call is sent; computation, searchTools and describeTool still work', async () => {
      const v = await value(`
        const found = (await searchTools("search")).map((t) => t.name);
        const d = typeof (await describeTool("crm.search_items"));
        try { await tools.crm.search_items({q: "zero"}); return "sent?"; } catch (e) { return [found, d, e.message, 6 * 7]; }`, { maxToolCalls: 0 });
      assert.deepEqual(v, [['crm.search_items'], 'string', 'tool calls are not allowed in this execution (maxToolCalls is 0)', 42]);
      assert.deepEqual(received(), []);
    });

    test('dry run: read-only allowed calls run, the others are planned in order, denied ones still fail', async () => {
      const r = await run(`
        const found = await tools.crm.search_items({q: "old"});
        const item = await tools.crm.get_item({id: found.items[0]});
        const u = await tools.crm.update_item({id: item.id, value: item.value + 1});
        const d = await tools.crm.delete_item({id: "b"});
        await tools.crm.send_note({to: "ops", text: "done"}).catch((e) => console.log(e.name));
        await tools.crm.update_item({id: 5}).catch((e) => console.log(e.name));
        return {u, d};`, { dryRun: true });
      assert.equal(r.ok, true, r.text);
      const placeholder = (tool) => ({ dryRun: true, tool, note: 'dry run: this call was recorded, not sent' });
      assert.deepEqual(r.value, { u: placeholder('crm.update_item'), d: placeholder('crm.delete_item') });
      assert.deepEqual(r.raw.structuredContent.plannedCalls, [
        { tool: 'crm.update_item', arguments: { id: 'a', value: 43 }, decision: 'ask', decidedBy: 'rule "crm.update_item"' },
        { tool: 'crm.delete_item', arguments: { id: 'b' }, decision: 'ask', decidedBy: 'annotation destructiveHint' },
      ]);
      assert.deepEqual(r.raw.structuredContent.logs, ['ToolPolicyError', 'ToolArgumentError']);
      const planned = r.raw.content.find((t) => t.text.startsWith('dry run:'));
      assert.equal(planned.text, 'dry run: 2 planned calls (validated, not sent):\n1. crm.update_item {"id":"a","value":43}: would ask for approval (rule "crm.update_item")\n2. crm.delete_item {"id":"b"}: would ask for approval (annotation destructiveHint)');
      assert.deepEqual(received(), [
        { tool: 'search_items', arguments: { q: 'old' } },
        { tool: 'get-item', arguments: { id: 'a' } },
      ]);
    });

    test('audit log: every line parses; start, calls, end in order; decisions and outcomes; no secret', async () => {
      const r = await run('await tools.crm.search_items({q: "audit"}); try { await tools.crm.send_note({to: "x"}) } catch {} ; try { await callTool("crm.nope") } catch {}; return 1');
      assert.equal(r.ok, true, r.text);
      received();
      const text = fs.readFileSync(cfg.auditFile, 'utf8');
      assert.ok(!text.includes(SECRET), 'the secret from ${POLICY_E2E_SECRET} is not in the audit log');
      const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
      for (const l of lines) {
        assert.match(l.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.ok(['execution_start', 'execution_end', 'tool_call_sent', 'tool_call'].includes(l.event), l.event);
        assert.match(l.executionId, /^[0-9a-f]{32}$/);
        assert.deepEqual(Object.keys(l).slice(0, 2), ['time', 'event']);
      }
      // every execution: one start first, one end last, its calls between
      const byId = new Map();
      for (const l of lines) (byId.get(l.executionId) ?? byId.set(l.executionId, []).get(l.executionId)).push(l);
      for (const [, ls] of byId) {
        assert.equal(ls[0].event, 'execution_start');
        assert.equal(ls.at(-1).event, 'execution_end');
        assert.ok(ls.slice(1, -1).every((l) => l.event === 'tool_call' || l.event === 'tool_call_sent'));
        // a call that was sent: its tool_call_sent line first, with the same fields but the outcome
        for (const [i, l] of ls.entries()) {
          if (l.event !== 'tool_call_sent') continue;
          assert.match(l.callId, /^[0-9a-f]{16}$/);
          const done = ls.findIndex((d) => d.event === 'tool_call' && d.callId === l.callId);
          assert.ok(done > i, `the tool_call line of ${l.callId} follows its tool_call_sent line`);
          const { time: _t1, event: _e1, ...sent } = l;
          const { time: _t2, event: _e2, outcome: _o, durationMs: _d, resultBytes: _r, ...rest } = ls[done];
          assert.deepEqual(sent, rest);
        }
      }
      const last = byId.get(lines.at(-1).executionId).filter((l) => l.event !== 'tool_call_sent');
      const code = 'await tools.crm.search_items({q: "audit"}); try { await tools.crm.send_note({to: "x"}) } catch {} ; try { await callTool("crm.nope") } catch {}; return 1';
      assert.equal(last[0].codeSha256, createHash('sha256').update(code).digest('hex'));
      assert.equal(last[0].principal, transport === 'stdio' ? 'stdio' : last[0].principal);
      if (transport !== 'stdio') assert.match(last[0].principal, /^http-session:[0-9a-f]{64}$/);
      const calls = last.slice(1, -1).map((l) => [l.tool, l.decision, l.outcome]);
      assert.deepEqual(calls, [['crm.search_items', 'allow', 'ok'], ['crm.send_note', 'denied', 'not_sent'], ['crm.nope', 'invalid', 'not_sent']]);
      const args = JSON.stringify({ q: 'audit' });
      assert.equal(last[1].argumentsSha256, createHash('sha256').update(args).digest('hex'));
      assert.equal(last[1].argumentsBytes, args.length);
      assert.equal(last[1].arguments, undefined);
      assert.ok(last[1].resultBytes > 0);
      assert.equal(last.at(-1).outcome, 'ok');
      assert.equal(last.at(-1).toolCalls, 3);
      // only the call that was sent has a tool_call_sent line
      const sentLines = byId.get(lines.at(-1).executionId).filter((l) => l.event === 'tool_call_sent');
      assert.deepEqual(sentLines.map((l) => [l.tool, l.decision, l.callId]), [['crm.search_items', 'allow', last[1].callId]]);
      // the decisions of the earlier cases are all there
      const decisions = new Set(lines.filter((l) => l.event === 'tool_call').map((l) => l.decision));
      for (const d of ['allow', 'denied', 'not_granted', 'invalid', 'dry_run']) assert.ok(decisions.has(d), d);
    });
  });
}

for (const transport of ['stdio', 'streamable-http']) describe(`noApprover: allow, over ${transport}`, () => {
  const cfg = config(`allow-${transport}`, { noApprover: 'allow', auditArgs: 'full' });
  const received = receiver(cfg.logFile);
  let c;
  before(async () => { c = await connectSdk(['--config', cfg.file], { label: `policy noApprover allow ${transport}`, transport }); });
  after(async () => { await c.close(); });

  test('ask tools are called when nobody can be asked; deny still denies', async () => {
    const raw = await c.client.callTool({ name: 'execute_code', arguments: { code: 'const a = await tools.crm.delete_item({id: "z"}); let d; try { await tools.crm.send_note({to: "q"}) } catch (e) { d = e.name } return [a.done, d]' } });
    assert.equal(raw.isError, undefined, raw.content[0].text);
    assert.deepEqual(raw.structuredContent.result, ['delete_item', 'ToolPolicyError']);
    assert.deepEqual(received(), [{ tool: 'delete_item', arguments: { id: 'z' } }]);
    const lines = fs.readFileSync(cfg.auditFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    const call = lines.find((l) => l.event === 'tool_call' && l.tool === 'crm.delete_item');
    assert.deepEqual(call.arguments, { id: 'z' }, 'arguments: full writes the arguments');
    const sent = lines.find((l) => l.event === 'tool_call_sent' && l.tool === 'crm.delete_item');
    assert.deepEqual([sent.arguments, sent.decision, sent.callId], [{ id: 'z' }, 'allow', call.callId]);
    assert.equal(call.decision, 'allow');
    assert.equal(call.outcome, 'ok');
  });
});

describe('readOnlyTools', () => {
  const cfg = config('ro', { rules: {}, server: { readOnlyTools: ['update_*'] } });
  const received = receiver(cfg.logFile);

  test('a tool the config marks read-only runs for real in a dry run; an unmarked one is planned', async () => {
    const r = await runBin(['run', '-', '--dry-run', '--json', '--config', cfg.file],
      { input: 'const u = await tools.crm.update_item({id: "r", value: 1}); const n = await tools.crm.send_note({to: "t"}).catch((e) => e.name); const s = await tools.crm.search_items({q: "s"}); return [u.done, n, s.q]' });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.result, ['update_item', 'ToolPolicyError', 's']);
    assert.deepEqual(out.plannedCalls, []);
    assert.deepEqual(received(), [{ tool: 'update_item', arguments: { id: 'r', value: 1 } }, { tool: 'search_items', arguments: { q: 's' } }]);
  });
});

describe('CLI', () => {
  const cfg = config('cli', { auditArgs: 'none' });
  const received = receiver(cfg.logFile);

  test('check shows each tool\'s decision and what decided it', async () => {
    const r = await runBin(['check', '--config', cfg.file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\n {2}tools\.crm\.delete_item {2}ask \(annotation destructiveHint\)\n/);
    assert.match(r.stdout, /\n {2}tools\.crm\.get_item {2}\("get-item"\) {2}allow \(annotation readOnlyHint\)\n/);
    assert.match(r.stdout, /\n {2}tools\.crm\.search_items {2}allow \(rule "crm\.search_items"\)\n/);
    assert.match(r.stdout, /\n {2}tools\.crm\.send_note {2}deny \(rule "send_\*" of mcpServers\.crm\.policy\)\n/);
    assert.match(r.stdout, /\n {2}tools\.crm\.update_item {2}ask \(rule "crm\.update_item"\)\n/);
  });

  test('run --dry-run --json --audit-log FILE: planned calls, nothing destructive sent, the log written there', async () => {
    const log2 = path.join(TMP, 'cli-flag.audit.jsonl');
    const r = await runBin(['run', '-', '--dry-run', '--json', '--config', cfg.file, '--audit-log', log2],
      { input: 'const f = await tools.crm.search_items({q: "cli"}); await tools.crm.delete_item({id: f.q}); return f.q' });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.result, 'cli');
    assert.deepEqual(out.plannedCalls, [{ tool: 'crm.delete_item', arguments: { id: 'cli' }, decision: 'ask', decidedBy: 'annotation destructiveHint' }]);
    assert.deepEqual(received(), [{ tool: 'search_items', arguments: { q: 'cli' } }]);
    const lines = fs.readFileSync(log2, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.event), ['execution_start', 'tool_call_sent', 'tool_call', 'tool_call', 'execution_end']);
    assert.equal(lines[0].principal, 'cli');
    assert.equal(lines[0].dryRun, true);
    assert.deepEqual([lines[1].tool, lines[1].decision, lines[1].callId], ['crm.search_items', 'allow', lines[2].callId]);
    assert.deepEqual(lines.slice(2, 4).map((l) => [l.decision, l.outcome, 'arguments' in l, 'argumentsSha256' in l]),
      [['allow', 'ok', false, false], ['dry_run', 'not_sent', false, false]]);
    assert.equal(fs.existsSync(cfg.auditFile), false, '--audit-log replaced the configured path');
  });

  test('the config\'s maxToolCalls: 0 allows no tool call, 2 allows two', async () => {
    const code = 'const r = []; for (let i = 0; i < 3; i++) { try { r.push((await tools.crm.search_items({q: String(i)})).q) } catch (e) { r.push(e.message) } } return r';
    let r = await runBin(['run', '-', '--json', '--config', cfg.file, '--max-tool-calls', '0'], { input: code });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).result, Array(3).fill('tool calls are not allowed in this execution (maxToolCalls is 0)'));
    assert.deepEqual(received(), []);
    r = await runBin(['run', '-', '--json', '--config', cfg.file, '--max-tool-calls', '2'], { input: code });
    assert.deepEqual(JSON.parse(r.stdout).result, ['0', '1', 'tool call limit reached: at most 2 calls per execution']);
    assert.deepEqual(received().map((x) => x.arguments.q), ['0', '1']);
  });

  test('an audit log that cannot be opened stops the server at start with the reason', async () => {
    const r = await runBin(['run', '-', '--config', cfg.file, '--audit-log', '/nonexistent-dir/audit.jsonl'], { input: 'return 1' });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /audit log \/nonexistent-dir\/audit\.jsonl: No such file or directory/);
    assert.deepEqual(received(), []);
  });
});

describe('audit log file', () => {
  test('SIGHUP reopens the path (logrotate): later lines go to the new file', async () => {
    const cfg = config('rotate');
    const c = await connectSdk(['--config', cfg.file], { label: 'policy rotate' });
    try {
      const exec = (code) => c.client.callTool({ name: 'execute_code', arguments: { code } });
      await exec('return await tools.crm.search_items({q: "before"})');
      fs.renameSync(cfg.auditFile, `${cfg.auditFile}.1`);
      process.kill(c.pid, 'SIGHUP');
      // the signal is handled by the server's loop: wait until a run lands in the new file
      let text = '';
      for (let i = 0; i < 50 && !text.includes('execution_end'); i++) {
        await exec('return await tools.crm.search_items({q: "after"})');
        text = fs.existsSync(cfg.auditFile) ? fs.readFileSync(cfg.auditFile, 'utf8') : '';
      }
      // the signal may land in the middle of an execution: its first lines are
      // then in the old file; together the two files hold every line once
      const old = fs.readFileSync(`${cfg.auditFile}.1`, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
      const fresh = text.trimEnd().split('\n').map((l) => JSON.parse(l));
      const each = ['execution_start', 'tool_call_sent', 'tool_call', 'execution_end'];
      assert.deepEqual(old.slice(0, 4).map((l) => l.event), each);
      const all = [...old, ...fresh];
      assert.equal(all.length % 4, 0);
      for (let i = 0; i < all.length; i += 4) {
        assert.deepEqual(all.slice(i, i + 4).map((l) => l.event), each);
        assert.ok(all.slice(i, i + 4).every((l) => l.executionId === all[i].executionId));
      }
      assert.equal(fresh.at(-1).event, 'execution_end');
    } finally {
      await c.close();
    }
  });

  test('a call that reached the downstream leaves its tool_call_sent line when the host is killed (kill -9)', async () => {
    const cfg = config('killed', { auditArgs: 'full' });
    const c = await connectSdk(['--config', cfg.file], { label: 'policy killed' });
    const pending = c.client.callTool({ name: 'execute_code', arguments: { code: 'return await tools.crm.slow({ms: 20000})' } }).catch((e) => e);
    await eventually(() => readLog(cfg.logFile).some((l) => l.tool === 'slow'), { what: 'the call at the downstream' });
    process.kill(c.pid, 'SIGKILL');
    await pending;
    await c.close().catch(() => {});
    const lines = fs.readFileSync(cfg.auditFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.event), ['execution_start', 'tool_call_sent'], 'nothing after the sent line: the host died');
    const sent = lines[1];
    assert.deepEqual([sent.tool, sent.arguments, sent.decision, sent.executionId], ['crm.slow', { ms: 20000 }, 'allow', lines[0].executionId]);
    assert.match(sent.callId, /^[0-9a-f]{16}$/);
    // a new server on the same log serves and appends after the trace
    const c2 = await connectSdk(['--config', cfg.file], { label: 'policy killed, restarted' });
    try {
      const r = await c2.client.callTool({ name: 'execute_code', arguments: { code: 'return (await tools.crm.search_items({q: "again"})).q' } });
      assert.equal(r.structuredContent.result, 'again');
      const after2 = fs.readFileSync(cfg.auditFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
      assert.deepEqual(after2.slice(2).map((l) => l.event), ['execution_start', 'tool_call_sent', 'tool_call', 'execution_end']);
    } finally {
      await c2.close();
    }
  });

  test('arguments: full keeps one execution\'s log small: built-in and refused calls with 500 KB arguments', async (t) => {
    const cfg = config('volume', { auditArgs: 'full', extra: { state: { path: path.join(TMP, 'volume.db') } } });
    const c = await connectSdk(['--config', cfg.file], { label: 'policy volume' });
    try {
      const code = `const big = "x".repeat(500000);
        for (let i = 0; i < 40; i++) {
          await state.set("k", big);
          try { await tools.crm.send_note({to: "x", text: big}) } catch {}
        }
        return (await state.get("k")).length`;
      const t0 = Date.now();
      const r = await c.client.callTool({ name: 'execute_code', arguments: { code } });
      assert.equal(r.structuredContent?.result, 500000, r.content[0].text);
      const bytes = fs.statSync(cfg.auditFile).size;
      const lines = fs.readFileSync(cfg.auditFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
      const calls = lines.filter((l) => l.event === 'tool_call');
      assert.equal(calls.length, 81);
      // 80 calls with 500 KB each were 40 MB of log; now each line holds at most 4 KiB of them
      assert.ok(bytes < 81 * 9000, `${bytes} bytes of audit log for 81 calls (${Date.now() - t0} ms)`);
      t.diagnostic(`${bytes} bytes of audit log for 81 calls (${Date.now() - t0} ms)`);
      const big = calls.filter((l) => l.tool !== 'state.get');
      assert.ok(big.every((l) => l.argumentsTruncated === true && l.argumentsBytes > 500000 && l.arguments === undefined && l.argumentsHead.length <= 4096), JSON.stringify(big[0]).slice(0, 300));
      assert.deepEqual(new Set(big.map((l) => [l.tool, l.outcome].join(' '))), new Set(['state.set ok', 'crm.send_note not_sent']));
      assert.deepEqual(calls.at(-1).arguments !== undefined, true, 'small arguments are still written whole');
      // the server still serves
      const again = await c.client.callTool({ name: 'execute_code', arguments: { code: 'return (await tools.crm.search_items({q: "v"})).q' } });
      assert.equal(again.structuredContent.result, 'v');
    } finally {
      await c.close();
    }
  });

  test('a write error is reported once on stderr and executions go on', async () => {
    const cfg = config('full');
    const c = await connectSdk(['--config', cfg.file, '--audit-log', '/dev/full'], { label: 'policy /dev/full' });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await c.client.callTool({ name: 'execute_code', arguments: { code: 'return (await tools.crm.search_items({q: "x"})).q' } });
        assert.equal(r.structuredContent.result, 'x');
      }
      const reports = c.stderr().split('\n').filter((l) => l.includes('audit log /dev/full'));
      assert.equal(reports.length, 1, c.stderr());
      assert.match(reports[0], /write failed: No space left on device \(executions go on; further errors are not reported\)/);
    } finally {
      await c.close();
    }
  });
});

auditSchemas({ minMessages: 20 });
