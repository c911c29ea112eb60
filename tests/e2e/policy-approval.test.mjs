// Approvals of `ask` tools through MCP elicitation (issue 14, docs/policy.md),
// with the official SDK client declaring the elicitation capability, over
// stdio and Streamable HTTP (where the request travels on the POST's event
// stream and the answer comes back as a POST of its own): accept once,
// decline, cancel, deny, approve for the execution (a loop of 5 asks once),
// approve for the session, no answer in time, and an approval in the middle
// of a Promise.all of 20 calls (the others go on meanwhile). The downstream
// fixture logs every tools/call it receives: each case asserts exactly which
// calls arrived. The audit log records the decisions and scopes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs, { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { auditSchemas } from './lib/audit.mjs';
import { childrenOf } from './lib/procs.mjs';
import { execFile } from 'node:child_process';
import { NODE, readLog, runBin, tempDir } from './lib/downstream.mjs';
import { BIN } from './lib/paths.mjs';
import { CLIENT_CAPABILITIES_KEY, HttpServer, RawSession, modernCall, request } from './lib/http.mjs';
import { Wire } from './lib/wire.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { connectSdk } from './lib/sdk.mjs';

const ANNOTATED = path.join(REPO_ROOT, 'tests/fixtures/servers/annotated.mjs');
const TMP = tempDir('codemode-approval-');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

for (const transport of ['stdio', 'streamable-http']) {
  describe(`approvals over ${transport}`, () => {
    const logFile = path.join(TMP, `${transport}.calls.jsonl`);
    const auditFile = path.join(TMP, `${transport}.audit.jsonl`);
    const file = path.join(TMP, `${transport}.json`);
    fs.writeFileSync(file, JSON.stringify({
      mcpServers: { crm: { command: NODE, args: [ANNOTATED, '--log', logFile] } },
      codemode: { policy: { approvalTimeoutMs: 1500, rules: { 'crm.update_item': 'ask' } }, audit: { path: auditFile, arguments: 'full' } },
    }));
    let seen = 0;
    const received = () => {
      const all = readLog(logFile);
      const fresh = all.slice(seen);
      seen = all.length;
      return fresh;
    };
    let c;
    let answer = null; // (request) => result
    const asked = [];
    const run = async (code) => {
      const raw = await c.client.callTool({ name: 'execute_code', arguments: { code } });
      return { raw, ok: raw.isError !== true, value: raw.structuredContent?.result, text: raw.content?.[0]?.text };
    };

    before(async () => {
      c = await connectSdk(['--config', file, '--pool-size', '2'], { label: `approval ${transport}`, transport, capabilities: { elicitation: {} } });
      c.client.setRequestHandler(ElicitRequestSchema, async (req) => {
        asked.push(req.params);
        return answer(req.params);
      });
      answer = () => ({ action: 'decline' });
      await run('return await tools.crm.search_items({q: "warm-up"})');
      received();
    });
    after(async () => {
      await c.close();
      assert.deepEqual(c.errors.map(String), []);
    });

    test('accept once: the call is sent; the form names the tool and its arguments', async () => {
      asked.length = 0;
      answer = () => ({ action: 'accept', content: { decision: 'once' } });
      const r = await run('return (await tools.crm.delete_item({id: "d1"})).done');
      assert.equal(r.ok, true, r.text);
      assert.equal(r.value, 'delete_item');
      assert.equal(asked.length, 1);
      assert.match(asked[0].message, /the tool "delete_item" of the server "crm" with these arguments:\n\{"id":"d1"\}/);
      assert.deepEqual(asked[0].requestedSchema.required, ['decision']);
      assert.deepEqual(asked[0].requestedSchema.properties.decision.enum, ['once', 'execution', 'session', 'deny']);
      assert.deepEqual(received(), [{ tool: 'delete_item', arguments: { id: 'd1' } }]);
    });

    test('arguments past 600 bytes: the person sees every field, the one after a long field too', async () => {
      asked.length = 0;
      answer = () => ({ action: 'accept', content: { decision: 'deny' } });
      // the program puts 700 bytes first and the value that matters last
      let r = await run('try { await tools.crm.update_item({id: "p".repeat(700), value: 666}) } catch (e) { return e.reason }');
      assert.equal(r.value, 'denied', r.text);
      assert.ok(asked[0].message.includes(`with these arguments:\n{"id":"${'p'.repeat(700)}","value":666}\n`), asked[0].message.slice(0, 900));
      // keys sorted whatever order the program chose
      r = await run('try { await tools.crm.update_item({value: 7, id: "q"}) } catch (e) { return e.reason }');
      assert.match(asked[1].message, /with these arguments:\n\{"id":"q","value":7\}\n/);
      // past 4 KiB: a digest and every field, the long one said to be cut
      r = await run('try { await tools.crm.update_item({id: "z".repeat(10000), value: 999}) } catch (e) { return e.reason }');
      assert.equal(r.value, 'denied');
      const m = asked[2].message;
      const json = JSON.stringify({ id: 'z'.repeat(10000), value: 999 });
      const digest = createHash('sha256').update(json).digest('hex');
      assert.ok(m.includes(`(${json.length} bytes, too long to show whole; SHA-256 of their JSON: ${digest}. Every field follows, keys sorted.)`), m.slice(0, 400));
      assert.match(m, /\n {2}id: string of 10000 bytes, only its start shown: "z{120}"\.\.\.\n {2}value: 999\n/);
      assert.ok(m.length < 1000, `${m.length} bytes`);
      assert.deepEqual(received(), []);
    });

    test('decline, cancel and deny: ToolApprovalError with the reason; nothing is sent', async () => {
      const out = [];
      for (const a of [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { decision: 'deny' } }]) {
        answer = () => a;
        out.push((await run('try { await tools.crm.delete_item({id: "no"}); return "sent" } catch (e) { return [e.name, e.reason, e instanceof ToolError] }')).value);
      }
      assert.deepEqual(out, [['ToolApprovalError', 'declined', true], ['ToolApprovalError', 'cancelled', true], ['ToolApprovalError', 'denied', true]]);
      assert.deepEqual(received(), []);
    });

    test('approve for the execution: a loop of 5 calls asks once; the next execution asks again', async () => {
      asked.length = 0;
      answer = () => ({ action: 'accept', content: { decision: 'execution' } });
      const r = await run('for (let i = 0; i < 5; i++) await tools.crm.update_item({id: "u", value: i}); return 5');
      assert.equal(r.ok, true, r.text);
      assert.equal(asked.length, 1);
      assert.deepEqual(received().map((x) => x.arguments.value), [0, 1, 2, 3, 4]);
      await run('await tools.crm.update_item({id: "u", value: 9})');
      assert.equal(asked.length, 2);
      assert.deepEqual(received().map((x) => x.arguments.value), [9]);
    });

    test('approve for the session: later executions do not ask for that tool', async () => {
      asked.length = 0;
      answer = () => ({ action: 'accept', content: { decision: 'session' } });
      await run('await tools.crm.delete_item({id: "s1"})');
      answer = () => ({ action: 'decline' });
      const r = await run('await tools.crm.delete_item({id: "s2"}); try { await tools.crm.update_item({id: "x"}) } catch (e) { return e.reason }');
      assert.equal(r.value, 'declined', 'another tool still asks');
      assert.equal(asked.length, 2);
      assert.deepEqual(received(), [{ tool: 'delete_item', arguments: { id: 's1' } }, { tool: 'delete_item', arguments: { id: 's2' } }]);
    });

    test('no answer within approvalTimeoutMs: ToolApprovalError "timeout"; nothing is sent', async () => {
      answer = async () => { await sleep(2500); return { action: 'accept', content: { decision: 'once' } }; };
      const t0 = Date.now();
      const r = await run('try { await tools.crm.update_item({id: "late"}) } catch (e) { return [e.name, e.reason] }');
      assert.deepEqual(r.value, ['ToolApprovalError', 'timeout']);
      assert.ok(Date.now() - t0 >= 1400, `${Date.now() - t0} ms`);
      await sleep(1200); // the late answer arrives and is ignored
      assert.deepEqual(received(), []);
    });

    test('an approval in the middle of a Promise.all of 20: the other 19 go on meanwhile', async () => {
      let whileAsked = -1;
      answer = async () => {
        for (let i = 0; i < 100 && readLog(logFile).length - seen < 19; i++) await sleep(10);
        whileAsked = readLog(logFile).length - seen;
        return { action: 'accept', content: { decision: 'once' } };
      };
      const r = await run(`
        const calls = [];
        for (let i = 0; i < 20; i++) calls.push(i === 10 ? tools.crm.update_item({id: "mid"}) : tools.crm.search_items({q: String(i)}));
        const rs = await Promise.all(calls);
        return rs.length;`);
      assert.equal(r.value, 20, r.text);
      assert.equal(whileAsked, 19, 'the 19 read-only calls arrived while the approval was pending');
      const got = received();
      assert.equal(got.length, 20);
      assert.deepEqual(got.at(-1), { tool: 'update_item', arguments: { id: 'mid' } });
    });

    test('the audit log records approvals with their scope', async () => {
      const lines = fs.readFileSync(auditFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)).filter((l) => l.event === 'tool_call');
      const approved = lines.filter((l) => l.decision === 'approved').map((l) => l.scope);
      assert.ok(approved.includes('once') && approved.includes('execution') && approved.includes('session'), JSON.stringify(approved));
      const refused = lines.filter((l) => l.decision === 'denied' && l.tool !== 'crm.search_items');
      assert.ok(refused.length >= 4, JSON.stringify(refused));
      assert.ok(refused.every((l) => l.outcome === 'not_sent'));
    });
  });
}

// Time a person takes to decide does not count against timeoutMs; a
// program that computes meanwhile still spends its own budget.
for (const transport of ['stdio', 'streamable-http']) {
  describe(`approval waits and timeoutMs over ${transport}`, () => {
    const logFile = path.join(TMP, `${transport}.pause.calls.jsonl`);
    const file = path.join(TMP, `${transport}.pause.json`);
    fs.writeFileSync(file, JSON.stringify({
      mcpServers: { crm: { command: NODE, args: [ANNOTATED, '--log', logFile] } },
      codemode: { policy: { approvalTimeoutMs: 20000 } },
    }));
    let c;
    let delay = 0;
    let asks = 0;
    before(async () => {
      c = await connectSdk(['--config', file, '--pool-size', '2'], { label: `approval pause ${transport}`, transport, capabilities: { elicitation: {} } });
      c.client.setRequestHandler(ElicitRequestSchema, async () => {
        asks++;
        await sleep(delay);
        return { action: 'accept', content: { decision: 'once' } };
      });
    });
    after(async () => {
      await c.close();
      assert.deepEqual(c.errors.map(String), []);
    });
    const run = async (code) => {
      const raw = await c.client.callTool({ name: 'execute_code', arguments: { code, timeoutMs: 1000 } });
      return { ok: raw.isError !== true, value: raw.structuredContent?.result, text: raw.content?.[0]?.text };
    };

    test('timeoutMs 1000, approvals answered after 2 s: the program finishes', async () => {
      delay = 2000;
      const before = readLog(logFile).length;
      const t0 = Date.now();
      const r = await run(`
        const a = (await tools.crm.delete_item({id: "p1"})).done;
        await sleep(300);
        const b = (await tools.crm.delete_item({id: "p2"})).done;
        return [a, b];`);
      assert.equal(r.ok, true, r.text);
      assert.deepEqual(r.value, ['delete_item', 'delete_item']);
      assert.ok(Date.now() - t0 >= 4000, `${Date.now() - t0} ms: both waits happened`);
      assert.deepEqual(readLog(logFile).slice(before).map((x) => x.arguments.id), ['p1', 'p2']);
    });

    test('a program that computes while its approval waits still times out after its own 1000 ms', async () => {
      delay = 3000;
      const before = readLog(logFile).length;
      const t0 = Date.now();
      // the sleep lets the call out (the worker sends when it waits): the approval is asked, then the loop
      const r = await run('const p = tools.crm.delete_item({id: "busy"}); await sleep(50); for (;;) {}');
      const took = Date.now() - t0;
      assert.equal(asks, 3, 'the approval was asked (after the two of the first test)');
      assert.equal(r.ok, false);
      assert.match(r.text, /TimeoutError: execution timed out after 1000 ms/);
      assert.ok(took < 2900, `timed out after ${took} ms, before the approval came`);
      await sleep(3200); // the late answer is ignored: nothing is sent
      assert.deepEqual(readLog(logFile).slice(before), []);
    });

    test('without approvals a busy loop still times out at timeoutMs', async () => {
      const t0 = Date.now();
      const r = await run('for (;;) {}');
      assert.equal(r.ok, false);
      assert.match(r.text, /TimeoutError: execution timed out after 1000 ms/);
      assert.ok(Date.now() - t0 < 2900, `${Date.now() - t0} ms`);
    });
  });
}

describe('Streamable HTTP, raw: the elicitation request travels on the POST\'s event stream', () => {
  test('elicitation/create arrives on the tools/call POST\'s stream, the answer is a POST of its own, the result follows on the first stream', async () => {
    const logFile = path.join(TMP, 'raw.calls.jsonl');
    const file = path.join(TMP, 'raw.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { crm: { command: NODE, args: [ANNOTATED, '--log', logFile] } } }));
    const srv = await HttpServer.start(['--config', file], { label: 'approval raw http' });
    try {
      const s = await RawSession.open(srv, '2025-11-25', 'approval raw http', { elicitation: {} });
      const answered = [];
      const body = { jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'execute_code', arguments: { code: 'return (await tools.crm.delete_item({id: "raw"})).done' } } };
      const r = await request(srv, {
        headers: s.headers(), body, wire: s.wire,
        onEvent: (e) => {
          const m = e.data ? JSON.parse(e.data) : null;
          if (m?.method !== 'elicitation/create') return;
          answered.push(s.post({ jsonrpc: '2.0', id: m.id, result: { action: 'accept', content: { decision: 'once' } } }));
        },
      });
      assert.match(r.headers['content-type'], /^text\/event-stream/);
      const { events } = await r.done;
      const msgs = events.filter((e) => e.data).map((e) => JSON.parse(e.data));
      assert.deepEqual(msgs.map((m) => m.method ?? `result ${m.id}`), ['elicitation/create', 'result 50']);
      assert.equal(msgs[1].result.structuredContent.result, 'delete_item');
      assert.equal(answered.length, 1);
      assert.equal((await answered[0]).status, 202, 'the answer is accepted with 202');
      assert.deepEqual(readLog(logFile), [{ tool: 'delete_item', arguments: { id: 'raw' } }]);
    } finally {
      await srv.stop();
    }
  });
});

describe('a client without the elicitation capability', () => {
  test('is not asked: noApprover decides (deny by default)', async () => {
    const logFile = path.join(TMP, 'nocap.calls.jsonl');
    const file = path.join(TMP, 'nocap.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { crm: { command: NODE, args: [ANNOTATED, '--log', logFile] } } }));
    const c = await connectSdk(['--config', file], { label: 'approval without capability' });
    try {
      const raw = await c.client.callTool({ name: 'execute_code', arguments: { code: 'try { await tools.crm.delete_item({id: "x"}) } catch (e) { return e.reason }' } });
      assert.equal(raw.structuredContent.result, 'no_approver');
      assert.deepEqual(readLog(logFile), []);
    } finally {
      await c.close();
    }
  });
});

describe('2026-07-28 (stateless) requests: input_required', () => {
  const logFile = path.join(TMP, 'stateless.calls.jsonl');
  const file = path.join(TMP, 'stateless.json');
  fs.writeFileSync(file, JSON.stringify({
    mcpServers: { crm: { command: NODE, args: [ANNOTATED, '--log', logFile] } },
    codemode: { policy: { approvalTimeoutMs: 2500, rules: { 'crm.update_item': 'ask' } } },
  }));
  const CAPS = { [CLIENT_CAPABILITIES_KEY]: { elicitation: {} } };
  const CODE = `const out = [];
    out.push((await tools.crm.search_items({q: "one"})).q);
    out.push((await tools.crm.delete_item({id: "d"})).done);
    out.push((await tools.crm.search_items({q: "two"})).q);
    try { await tools.crm.update_item({id: "u"}); out.push("updated"); } catch (e) { out.push(e.reason); }
    return out;`;
  let srv;
  const wire = new Wire('approval stateless');
  const call = (extra = {}, opts = {}) => modernCall(srv, wire, 'tools/call', { name: 'execute_code', arguments: { code: CODE }, ...extra },
    { meta: CAPS, headers: { Connection: 'close' }, ...opts });
  before(async () => { srv = await HttpServer.start(['--config', file], { label: 'approval stateless' }); });
  after(async () => { await srv.stop(); });

  test('input_required, a retry with the answer (new connection), a second approval, the final result; nothing sent twice', async () => {
    const r1 = await call({}, { id: 1 });
    const res1 = r1.messages.at(-1).result;
    assert.equal(res1.resultType, 'input_required', JSON.stringify(res1));
    assert.match(res1.requestState, /^[0-9a-f]{32}$/);
    const [k1] = Object.keys(res1.inputRequests);
    assert.equal(res1.inputRequests[k1].method, 'elicitation/create');
    assert.match(res1.inputRequests[k1].params.message, /"delete_item" of the server "crm"/);
    assert.deepEqual(res1.inputRequests[k1].params.requestedSchema.properties.decision.enum, ['once', 'execution', 'session', 'deny']);
    assert.deepEqual(readLog(logFile).map((c) => c.tool), ['search_items'], 'the call before the approval ran once');

    const r2 = await call({ inputResponses: { [k1]: { action: 'accept', content: { decision: 'once' } } }, requestState: res1.requestState }, { id: 2 });
    const res2 = r2.messages.at(-1).result;
    assert.equal(res2.resultType, 'input_required', JSON.stringify(res2));
    assert.notEqual(res2.requestState, res1.requestState);
    const [k2] = Object.keys(res2.inputRequests);
    assert.match(res2.inputRequests[k2].params.message, /"update_item"/);

    // a replayed, a forged and a mismatched requestState: clear errors, nothing runs
    for (const [extra, re] of [
      [{ requestState: res1.requestState }, /requestState is unknown, expired or already used/],
      [{ requestState: 'f'.repeat(32) }, /requestState is unknown, expired or already used/],
      [{ requestState: `zz.${'f'.repeat(32)}` }, /requestState was issued by the instance "zz", and this is a server without an instanceId/],
      [{ requestState: res2.requestState, arguments: { code: 'return 1' } }, /requestState belongs to another call/],
    ]) {
      const bad = await call({ inputResponses: {}, ...extra }, { id: 9 });
      const m = bad.messages.at(-1);
      assert.equal(m.error?.code, -32602, JSON.stringify(m));
      assert.match(m.error.message, re);
    }

    const r3 = await call({ inputResponses: { [k2]: { action: 'decline' } }, requestState: res2.requestState }, { id: 3 });
    const res3 = r3.messages.at(-1).result;
    assert.equal(res3.resultType, 'complete', JSON.stringify(res3));
    assert.deepEqual(res3.structuredContent.result, ['one', 'delete_item', 'two', 'declined']);
    assert.deepEqual(readLog(logFile), [
      { tool: 'search_items', arguments: { q: 'one' } },
      { tool: 'delete_item', arguments: { id: 'd' } },
      { tool: 'search_items', arguments: { q: 'two' } },
    ], 'each call reached the server exactly once; the declined one never');
  });

  test('an expired requestState is refused, and its execution was cancelled', async () => {
    const before = readLog(logFile).length;
    const r1 = await call({}, { id: 4 });
    const res1 = r1.messages.at(-1).result;
    assert.equal(res1.resultType, 'input_required');
    await sleep(3000);
    const [k] = Object.keys(res1.inputRequests);
    const r2 = await call({ inputResponses: { [k]: { action: 'accept', content: { decision: 'once' } } }, requestState: res1.requestState }, { id: 5 });
    assert.match(r2.messages.at(-1).error?.message ?? '', /requestState is unknown, expired or already used/);
    await sleep(200);
    assert.deepEqual(readLog(logFile).slice(before).map((c) => c.tool), ['search_items'], 'nothing after the approval ran');
  });

  test('the time until the retry does not count against timeoutMs', async () => {
    const before = readLog(logFile).length;
    const code = 'const d = (await tools.crm.delete_item({id: "slow"})).done; await sleep(100); return d;';
    const args = { code, timeoutMs: 500 };
    const r1 = await call({ arguments: args }, { id: 6 });
    const res1 = r1.messages.at(-1).result;
    assert.equal(res1.resultType, 'input_required', JSON.stringify(res1));
    await sleep(1200);
    const [k] = Object.keys(res1.inputRequests);
    const r2 = await call({ arguments: args, inputResponses: { [k]: { action: 'accept', content: { decision: 'once' } } }, requestState: res1.requestState }, { id: 7 });
    const res2 = r2.messages.at(-1).result;
    assert.equal(res2?.resultType, 'complete', JSON.stringify(r2.messages.at(-1)));
    assert.equal(res2.structuredContent.result, 'delete_item', JSON.stringify(res2));
    assert.deepEqual(readLog(logFile).slice(before), [{ tool: 'delete_item', arguments: { id: 'slow' } }]);
  });

  test('a client without the elicitation capability is not asked: noApprover decides', async () => {
    const logFile = path.join(TMP, 'modern.calls.jsonl');
    const file = path.join(TMP, 'modern.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { crm: { command: NODE, args: [ANNOTATED, '--log', logFile] } } }));
    const srv = await HttpServer.start(['--config', file], { label: 'approval modern' });
    try {
      const wire = new Wire('approval modern');
      const r = await modernCall(srv, wire, 'tools/call', {
        name: 'execute_code',
        arguments: { code: 'const a = await tools.crm.search_items({q: "m"}); try { await tools.crm.delete_item({id: "m"}) } catch (e) { return [a.q, e.name, e.reason] }' },
      });
      assert.equal(r.status, 200);
      const res = r.messages.at(-1).result;
      assert.equal(res.resultType, 'complete');
      assert.deepEqual(res.structuredContent.result, ['m', 'ToolApprovalError', 'no_approver']);
      assert.ok(!r.messages.some((m) => m.method === 'elicitation/create'), 'no elicitation request on a stateless request');
      assert.deepEqual(readLog(logFile), [{ tool: 'search_items', arguments: { q: 'm' } }]);
    } finally {
      await srv.stop();
    }
  });

  test('a skill exposed as a tool: the retry resumes the parked run; the approved call is sent once', async () => {
    const logFile = path.join(TMP, 'skill-tool.calls.jsonl');
    const file = path.join(TMP, 'skill-tool.json');
    fs.writeFileSync(file, JSON.stringify({
      mcpServers: { crm: { command: NODE, args: [ANNOTATED, '--log', logFile] } },
      codemode: { state: { path: path.join(TMP, 'skill-tool.db') }, skills: { exposeAsTools: true } },
    }));
    const srv = await HttpServer.start(['--config', file], { label: 'approval skill tool' });
    try {
      const wire = new Wire('approval skill tool');
      const send = (params, id) => modernCall(srv, wire, 'tools/call', params, { meta: CAPS, headers: { Connection: 'close' }, id });
      const saved = await send({ name: 'execute_code', arguments: { code: `return await skills.save({ name: "purge",
        description: "Deletes an item.", inputSchema: { type: "object", properties: { id: { type: "string" } } },
        code: "return (await tools.crm.delete_item({ id: args.id })).done" })` } }, 1);
      assert.deepEqual(saved.messages.at(-1).result?.structuredContent?.result, { name: 'purge' }, JSON.stringify(saved.messages.at(-1)));
      const args = { id: 'once' };
      const r1 = await send({ name: 'purge', arguments: args }, 2);
      const res1 = r1.messages.at(-1).result;
      assert.equal(res1?.resultType, 'input_required', JSON.stringify(r1.messages.at(-1)));
      const [k] = Object.keys(res1.inputRequests);
      const answer = { inputResponses: { [k]: { action: 'accept', content: { decision: 'once' } } }, requestState: res1.requestState };
      const r2 = await send({ name: 'purge', arguments: args, ...answer }, 3);
      const res2 = r2.messages.at(-1).result;
      assert.equal(res2?.resultType, 'complete', JSON.stringify(r2.messages.at(-1)));
      assert.equal(res2.structuredContent.result, 'delete_item');
      // replayed (the same answer again), or with other arguments: refused, nothing runs again
      for (const [extra, re] of [[{ arguments: args }, /requestState is unknown, expired or already used/],
        [{ arguments: { id: 'other' } }, /requestState is unknown, expired or already used/]]) {
        const again = await send({ name: 'purge', ...answer, ...extra }, 4);
        assert.match(again.messages.at(-1).error?.message ?? '', re);
      }
      await sleep(200);
      assert.deepEqual(readLog(logFile), [{ tool: 'delete_item', arguments: { id: 'once' } }], 'sent exactly once');
      const ok = await send({ name: 'execute_code', arguments: { code: 'return 6 * 7' } }, 5);
      assert.equal(ok.messages.at(-1).result?.structuredContent?.result, 42);
    } finally {
      await srv.stop();
    }
  });
});

describe('run: --approve and the terminal prompt', () => {
  const logFile = path.join(TMP, 'run.calls.jsonl');
  const file = path.join(TMP, 'run.json');
  const prog = path.join(TMP, 'ask.js');
  fs.writeFileSync(file, JSON.stringify({ mcpServers: { crm: { command: NODE, args: [ANNOTATED, '--log', logFile] } } }));
  fs.writeFileSync(prog, 'const r = [];\nfor (const id of ["a", "b", "c"]) {\n  try { r.push((await tools.crm.delete_item({id})).done); } catch (e) { r.push(e.reason); }\n}\nreturn r;\n');
  let seen = 0;
  const received = () => {
    const all = readLog(logFile);
    const fresh = all.slice(seen);
    seen = all.length;
    return fresh.map((x) => x.arguments.id);
  };

  test('--approve all sends every call; --approve none and no terminal refuse them', async () => {
    let r = await runBin(['run', prog, '--config', file, '--approve', 'all']);
    assert.equal(r.stdout.trim(), '["delete_item","delete_item","delete_item"]', r.stderr);
    assert.deepEqual(received(), ['a', 'b', 'c']);
    for (const args of [['--approve', 'none'], []]) {
      r = await runBin(['run', prog, '--config', file, ...args]);
      assert.equal(r.stdout.trim(), '["denied","denied","denied"]', r.stderr);
      assert.deepEqual(received(), []);
    }
    r = await runBin(['run', prog, '--approve', 'some']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--approve takes all or none, not "some"/);
  });

  // script(1) gives the run a terminal: its stdin becomes what is typed there
  const onTerminal = (typed) => new Promise((resolve, reject) => {
    const p = execFile('script', ['-qec', `${BIN} run ${prog} --config ${file}`, '/dev/null'], { timeout: 30000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    p.stdin.end(typed);
  });

  test('on a terminal: y, n (after a wrong answer) and the terminal closing', async () => {
    const out = await onTerminal('y\nx\nn\n');
    assert.match(out, /mcp-codemode: approve crm\.delete_item \{"id":"a"\}\? \[y\]es \/ \[n\]o \/ \[a\]ll: /);
    assert.match(out, /please answer y, n or a: /);
    assert.match(out, /\["delete_item","denied","declined"\]/);
    assert.deepEqual(received(), ['a']);
  });

  test('on a terminal: arguments past 600 bytes are shown whole, keys sorted, the field after the long one too', async () => {
    const long = path.join(TMP, 'ask-long.js');
    fs.writeFileSync(long, `try { await tools.crm.delete_item({id: "${'p'.repeat(700)}", cascade: "everything"}) } catch (e) { return e.reason }`);
    const out = await new Promise((resolve, reject) => {
      const p = execFile('script', ['-qec', `${BIN} run ${long} --config ${file}`, '/dev/null'], { timeout: 30000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
      p.stdin.end('n\n');
    });
    assert.ok(out.includes(`approve crm.delete_item {"cascade":"everything","id":"${'p'.repeat(700)}"}? [y]es`), out.slice(0, 900));
    assert.match(out, /"denied"/);
    assert.deepEqual(received(), []);
  });

  test('on a terminal: a approves this call and every later one', async () => {
    const out = await onTerminal('a\n');
    assert.equal(out.match(/approve crm\.delete_item/g).length, 1, out);
    assert.match(out, /\["delete_item","delete_item","delete_item"\]/);
    assert.deepEqual(received(), ['a', 'b', 'c']);
  });
});

describe('parked executions under codemode.sandbox.maxWorkers', () => {
  // maxWorkers 2: an execution waiting for a person keeps its worker, and at
  // most half of maxWorkers (1) may wait at once.
  const logFile = path.join(TMP, 'parked-caps.calls.jsonl');
  const file = path.join(TMP, 'parked-caps.json');
  fs.writeFileSync(file, JSON.stringify({
    mcpServers: { crm: { command: NODE, args: [ANNOTATED, '--log', logFile] } },
    codemode: { policy: { approvalTimeoutMs: 20000, rules: { 'crm.update_item': 'ask' } }, sandbox: { maxWorkers: 2 } },
  }));
  const CAPS = { [CLIENT_CAPABILITIES_KEY]: { elicitation: {} } };
  const ask = (tag) => `try { await tools.crm.update_item({id: "${tag}"}); return "updated ${tag}"; } catch (e) { return e.reason + ": " + e.message; }`;
  const wire = new Wire('parked caps');
  let srv;
  const call = (code, extra = {}, id = 1) => modernCall(srv, wire, 'tools/call', { name: 'execute_code', arguments: { code }, ...extra },
    { id, meta: CAPS, headers: { Connection: 'close' } });
  const liveWorkers = () => {
    const z = childrenOf(srv.pid).filter((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('__zygote'));
    return z.length === 1 ? childrenOf(z[0]).length : -1;
  };
  before(async () => { srv = await HttpServer.start(['--config', file, '--pool-size', '2'], { label: 'parked caps' }); });
  after(async () => { await srv.stop(); });

  test('one parked execution holds its worker; a second approval is declined at once, naming the setting; plain programs still run; after the answer, asking works again', async () => {
    const r1 = await call(ask('a'), {}, 1);
    const res1 = r1.messages.at(-1).result;
    assert.equal(res1.resultType, 'input_required', JSON.stringify(res1));
    const t0 = Date.now();
    const r2 = await call(ask('b'), {}, 2);
    const res2 = r2.messages.at(-1).result;
    assert.equal(res2.resultType, 'complete', JSON.stringify(res2));
    assert.match(res2.structuredContent.result, /^declined: .*too many executions on this server wait for an approval already.*codemode\.sandbox\.maxWorkers/);
    assert.ok(Date.now() - t0 < 3000, `declined after ${Date.now() - t0} ms`);
    const r3 = await call('return 3', {}, 3);
    assert.equal(r3.messages.at(-1).result.structuredContent.result, 3);
    const live = liveWorkers();
    assert.ok(live >= 1 && live <= 2, `${live} workers alive (maxWorkers 2)`);
    const [k] = Object.keys(res1.inputRequests);
    const r4 = await call(ask('a'), { inputResponses: { [k]: { action: 'accept', content: { decision: 'once' } } }, requestState: res1.requestState }, 4);
    assert.equal(r4.messages.at(-1).result.structuredContent.result, 'updated a');
    const r5 = await call(ask('c'), {}, 5);
    const res5 = r5.messages.at(-1).result;
    assert.equal(res5.resultType, 'input_required', 'the place is free again');
    const [k5] = Object.keys(res5.inputRequests);
    const r6 = await call(ask('c'), { inputResponses: { [k5]: { action: 'decline' } }, requestState: res5.requestState }, 6);
    assert.match(r6.messages.at(-1).result.structuredContent.result, /^declined/);
    assert.deepEqual(readLog(logFile).filter((l) => l.tool === 'update_item').map((l) => l.arguments.id), ['a']);
  });
});

auditSchemas({ minMessages: 20 });
