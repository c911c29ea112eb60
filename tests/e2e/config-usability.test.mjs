// First-use friction of the config file and the command line (issue 25,
// items 6, 7 and 12), against real published servers (server-filesystem,
// server-memory) and clients that do not declare elicitation:
// - the config file given as -c FILE or a plain path, the way the MCP
//   Inspector launches a server (it keeps --config for itself), and
//   MCP_CODEMODE_CONFIG, each followed by a real handshake and tool call;
// - relative command and cwd paths read from the config file's folder;
// - a misspelt "command" gets "did you mean";
// - a server's banner line is warned about once, across executions and
//   restarts;
// - a tool refused because the client cannot approve names the exact rule
//   that allows it, `check` lists those tools with their rules, and adding
//   the rule named makes the call go through;
// - the README's first config and examples/clients/servers.json let such a
//   client write files (and delete memory entries).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import {
  FILESYSTEM, MEMORY, MISBEHAVING, NODE, RECORDER, assertClean, assertNoSanitizerReport, entry, eventually,
  exec, runBin as run, serve, tempDir, valueOf, writeConfig,
} from './lib/downstream.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { connectSdk } from './lib/sdk.mjs';

const TMP = tempDir('codemode-usability-');
const open = [];
after(() => assertClean(...open));

const runBin = async (...a) => {
  const r = await run(...a);
  assertNoSanitizerReport(r.stderr);
  return r;
};

async function connect(args, opts = {}) {
  const h = await connectSdk(args, { label: opts.label ?? args.join(' '), ...opts });
  h.exec = (code) => exec(h.client, code);
  open.push(h);
  return h;
}

/** A client without elicitation serving `file` (passed with --config). */
async function serveNoApprover(file, label) {
  const h = await serve(file, { label });
  open.push(h);
  return h;
}

const RECORDER_CONFIG = writeConfig(TMP, { mcpServers: { rec: entry.recorder() } }, 'rec.json');
const echoesThrough = async (h) => {
  const r = valueOf(await h.exec('return await tools.rec.echo({ text: "via the config" })'));
  assert.deepEqual(r.args, { text: 'via the config' });
};

test('the config file as -c FILE, as a plain path (serve and after "serve"), and from MCP_CODEMODE_CONFIG', async () => {
  // as `npx @modelcontextprotocol/inspector --cli build/mcp-codemode -c FILE ...` starts it
  for (const args of [['-c', RECORDER_CONFIG], [RECORDER_CONFIG], ['serve', RECORDER_CONFIG], ['--stdio', '-c', RECORDER_CONFIG]]) {
    const h = await connect(args);
    assert.deepEqual((await h.client.listTools()).tools.map((t) => t.name), ['execute_code']);
    await echoesThrough(h);
    await h.close();
  }
  const h = await connect([], { label: 'MCP_CODEMODE_CONFIG', env: { ...process.env, MCP_CODEMODE_CONFIG: RECORDER_CONFIG } });
  await echoesThrough(h);
  await h.close();
  // the subcommands take it the same ways
  const check = await runBin(['check', RECORDER_CONFIG]);
  assert.equal(check.code, 0, check.stderr);
  assert.match(check.stdout, /^rec: ready/m);
  const types = await runBin(['types', '-c', RECORDER_CONFIG]);
  assert.equal(types.code, 0, types.stderr);
  assert.match(types.stdout, /echo\(args/);
  const ran = await runBin(['run', '-', RECORDER_CONFIG], { input: 'return (await tools.rec.echo({ text: "r" })).args.text' });
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(ran.stdout.trim(), '"r"');
  const twice = await runBin(['check', RECORDER_CONFIG, '--config', RECORDER_CONFIG]);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /the config file is given twice/);
});

test('relative command and cwd paths are read from the config file\'s folder, whatever the working directory', async () => {
  const dir = path.join(TMP, 'project');
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'work'), { recursive: true });
  const script = path.join(dir, 'bin/rec.sh');
  fs.writeFileSync(script, `#!/bin/sh\nexec "${NODE}" "${RECORDER}" "$@"\n`);
  fs.chmodSync(script, 0o755);
  const file = writeConfig(dir, {
    mcpServers: {
      cmd: { command: 'bin/rec.sh', args: ['--name', 'cmd'] },
      dot: { command: './bin/rec.sh' },
      cwd: { command: NODE, args: [RECORDER], cwd: 'work' },
    },
  }, 'codemode.json');
  const h = await connect(['-c', 'project/codemode.json'], { label: 'relative paths', cwd: TMP });
  const r = valueOf(await h.exec(`
    const env = async (s) => JSON.parse(JSON.stringify(await tools[s].env({})));
    const [a, b, c] = [await env('cmd'), await env('dot'), await env('cwd')];
    return { a: a.argv, b: b.cwd, c: c.cwd };`));
  assert.deepEqual(r.a, ['--name', 'cmd']);
  assert.equal(r.b, fs.realpathSync(TMP), 'without cwd the server runs in ours');
  assert.equal(r.c, fs.realpathSync(path.join(dir, 'work')));
  await h.close();
  // the repository's example works from another directory
  const ex = await runBin(['check', path.join(REPO_ROOT, 'examples/config.json')], { cwd: TMP });
  assert.equal(ex.code, 0, ex.stdout + ex.stderr);
  assert.match(ex.stdout, /^maze: ready/m);
  void file;
});

test('a misspelt "command" is an error that says which key was meant', async () => {
  const file = writeConfig(TMP, '{"mcpServers": {"x": {"comand": "node", "args": []}}}', 'typo.json');
  const r = await runBin(['check', file]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /typo\.json:1:17: mcpServers\.x: needs "command" .*; "comand" is not a key \(did you mean "command"\?\)/);
});

test('a banner line on a server\'s stdout is warned about once, across executions and restarts', async () => {
  const wrapper = path.join(TMP, 'banner.mjs');
  fs.writeFileSync(wrapper, `process.stdout.write("Banner: misbehaving server v1 starting\\n");\nawait import(${JSON.stringify(new URL(`file://${MISBEHAVING}`).href)});\n`);
  const file = writeConfig(TMP, { mcpServers: { mis: { command: NODE, args: [wrapper] } } }, 'banner.json');
  const h = await serve(file, { label: 'banner', args: ['--log-level', 'info'] });
  open.push(h);
  for (let i = 0; i < 3; i++) assert.deepEqual(valueOf(await h.exec('return await tools.mis.add({ a: 1, b: 2 })')), { sum: 3 });
  assert.equal(valueOf(await h.exec('return await tools.mis.garbage()')), 'after the garbage');
  const crashed = await h.exec('return await tools.mis.crash({})');
  assert.equal(crashed.ok, false);
  await eventually(async () => (await h.exec('return await tools.mis.add({ a: 2, b: 2 })')).ok, { timeout: 10000, what: 'the restart' });
  await eventually(() => (h.stderr().match(/skipped a line from the server/g) ?? []).length >= 4, { what: 'the info lines' });
  const warnings = h.stderr().split('\n').filter((l) => /warning: server 'mis': skipped a line/.test(l));
  assert.equal(warnings.length, 1, h.stderr());
  assert.match(warnings[0], /Banner: misbehaving server v1 starting \(later lines it cannot read are logged at level info\)/);
  assert.ok(h.stderr().split('\n').filter((l) => /info: server 'mis': skipped a line.*Banner/.test(l)).length >= 1,
    'the banner after the restart is logged at info');
});

test('a tool refused for want of an approver names the rule that allows it; check lists them; the rule works', async () => {
  const graph = path.join(TMP, 'memory.json');
  const cfg = {
    mcpServers: { memory: entry.memory(graph) },
    codemode: { state: { path: path.join(TMP, 'state.db') }, policy: { rules: { 'state.*': 'ask' } } },
  };
  const file = writeConfig(TMP, cfg, 'refused.json');
  const h = await serveNoApprover(file, 'refused');
  const r = valueOf(await h.exec(`
    const out = [];
    for (const f of [() => tools.memory.delete_entities({ entityNames: ["x"] }), () => state.set("k", 1)]) {
      try { await f(); out.push("sent"); } catch (e) { out.push([e.name, e.reason, e.message]); }
    }
    return out;`));
  assert.equal(r[0][0], 'ToolApprovalError');
  assert.equal(r[0][1], 'no_approver');
  assert.match(r[0][2], /cannot approve/);
  assert.ok(r[0][2].includes('add "memory.delete_entities": "allow" to codemode.policy.rules'), r[0][2]);
  assert.match(r[0][2], /codemode\.policy\.noApprover/);
  assert.equal(r[1][0], 'ToolApprovalError');
  assert.ok(r[1][2].includes('add "state.set": "allow" to codemode.policy.rules'), r[1][2]);
  await h.close();

  const check = await runBin(['check', file]);
  assert.equal(check.code, 0, check.stderr);
  const section = check.stdout.slice(check.stdout.indexOf('Refused in clients that cannot approve'));
  assert.ok(section.length < check.stdout.length, check.stdout);
  for (const t of ['delete_entities', 'delete_observations', 'delete_relations'])
    assert.ok(section.includes(`  memory.${t}: add "memory.${t}": "allow" to codemode.policy.rules\n`), section);
  assert.doesNotMatch(section, /memory\.read_graph/);

  // the rule named, added: the call goes through
  cfg.codemode.policy.rules['memory.delete_entities'] = 'allow';
  const fixed = writeConfig(TMP, cfg, 'fixed.json');
  const g = await serveNoApprover(fixed, 'fixed');
  assert.deepEqual(valueOf(await g.exec(`
    await tools.memory.create_entities({ entities: [{ name: "x", entityType: "t", observations: [] }] });
    await tools.memory.delete_entities({ entityNames: ["x"] });
    return (await tools.memory.read_graph({})).entities.length;`)), 0);
  await g.close();
  const rechecked = await runBin(['check', fixed]);
  assert.doesNotMatch(rechecked.stdout, /memory\.delete_entities: add/);
  assert.match(rechecked.stdout, /memory\.delete_relations: add/);
});

/** The first ```json block of the README. */
function readmeFirstConfig() {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  return JSON.parse(/```json\n([\s\S]*?)```/.exec(readme)[1]);
}

/** A config entry run with `npx -y <package> ARGS` made to run the pinned copy instead. */
function pinned(e, dirs) {
  const i = e.args.findIndex((a) => a.startsWith('@modelcontextprotocol/'));
  const pkg = e.args[i];
  const script = { '@modelcontextprotocol/server-filesystem': FILESYSTEM, '@modelcontextprotocol/server-memory': MEMORY }[pkg];
  assert.ok(e.command === 'npx' && script, `an npx entry of a pinned server: ${JSON.stringify(e)}`);
  return { ...e, command: NODE, args: [script, ...e.args.slice(i + 1).map((a) => dirs[a] ?? a)] };
}

test('the README\'s first config lets a client without elicitation write a file', async () => {
  const cfg = readmeFirstConfig();
  assert.ok(cfg.mcpServers && cfg.codemode, 'the first config example is a codemode.json');
  const notes = fs.mkdtempSync(path.join(TMP, 'notes-'));
  const [name, e] = Object.entries(cfg.mcpServers)[0];
  cfg.mcpServers[name] = pinned(e, { '/home/you/notes': notes });
  const file = writeConfig(TMP, cfg, 'readme.json');
  const h = await serveNoApprover(file, 'readme config');
  const target = path.join(fs.realpathSync(notes), 'todo.txt');
  const r = await h.exec(`
    await tools.${name}.write_file({ path: ${JSON.stringify(target)}, content: "buy milk\\n" });
    return (await tools.${name}.read_text_file({ path: ${JSON.stringify(target)} }));`);
  assert.equal(r.ok, true, r.text);
  assert.equal(fs.readFileSync(target, 'utf8'), 'buy milk\n');
  await h.close();
});

test('examples/clients/servers.json: a client without elicitation writes files and deletes memory entries', async () => {
  const cfg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'examples/clients/servers.json'), 'utf8'));
  const projects = fs.mkdtempSync(path.join(TMP, 'projects-'));
  const memory = path.join(TMP, 'clients-memory.json');
  const servers = {
    filesystem: pinned(cfg.mcpServers.filesystem, { '/home/you/projects': projects }),
    memory: { ...pinned(cfg.mcpServers.memory, {}), env: { MEMORY_FILE_PATH: memory } },
  };
  const file = writeConfig(TMP, { ...cfg, mcpServers: servers }, 'clients.json'); // github needs a token and the network
  const h = await serveNoApprover(file, 'clients policy');
  const target = path.join(fs.realpathSync(projects), 'a.txt');
  const r = await h.exec(`
    const p = ${JSON.stringify(target)};
    await tools.filesystem.write_file({ path: p, content: "one" });
    await tools.filesystem.edit_file({ path: p, edits: [{ oldText: "one", newText: "two" }] });
    await tools.memory.create_entities({ entities: [{ name: "n", entityType: "t", observations: ["o"] }] });
    await tools.memory.delete_observations({ deletions: [{ entityName: "n", observations: ["o"] }] });
    await tools.memory.delete_entities({ entityNames: ["n"] });
    let moved;
    try { await tools.filesystem.move_file({ source: p, destination: p + ".bak" }); moved = "sent"; }
    catch (e) { moved = e.reason; }
    return { graph: (await tools.memory.read_graph({})).entities.length, moved };`);
  assert.equal(r.ok, true, r.text);
  assert.deepEqual(r.value, { graph: 0, moved: 'no_approver' });
  assert.equal(fs.readFileSync(target, 'utf8'), 'two');
  await h.close();
  const check = await runBin(['check', file]);
  const section = check.stdout.slice(check.stdout.indexOf('Refused in clients that cannot approve'));
  assert.match(section, /filesystem\.move_file: add "filesystem\.move_file": "allow" to codemode\.policy\.rules/);
  assert.doesNotMatch(section, /write_file|edit_file|memory\./);
});

auditSchemas({ minMessages: 10 });
