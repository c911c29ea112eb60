// Chaining real servers in one program (issue 4), through the real binary:
// server-filesystem on a temporary directory, server-memory with its file in
// a temporary directory, server-everything (echo, get-sum, an image, and its
// task-only simulate-research-query), the recorder fixture, and the example
// maze server solved in ONE execute_code call by tests/fixtures/maze/solve.js.
// Also 50 concurrent calls matched to their replies, and an invalid call to
// server-memory that leaves its graph untouched.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { assertClean, entry, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-ds-chain-');
const FILES = path.join(TMP, 'files');
fs.mkdirSync(FILES);
const MEMORY_FILE = path.join(TMP, 'memory', 'graph.jsonl');
fs.mkdirSync(path.dirname(MEMORY_FILE));
const SOLVER = fs.readFileSync(path.join(REPO_ROOT, 'tests/fixtures/maze/solve.js'), 'utf8');

const CONFIG = {
  mcpServers: {
    files: entry.filesystem(FILES),
    memory: entry.memory(MEMORY_FILE),
    everything: entry.everything(),
    rec: entry.recorder(),
    maze: entry.maze(7),
  },
  // server-filesystem's write_file is destructiveHint: true: approval by
  // default (docs/policy.md), and the SDK client here cannot approve
  codemode: { policy: { rules: { 'files.*': 'allow' } } },
};

let s;
before(async () => {
  s = await serve(writeConfig(TMP, CONFIG), { label: 'chaining' });
});
after(() => assertClean(s));

test('one program: write files, read them back, store facts in memory, read the graph, use everything', async () => {
  const r = valueOf(await s.exec(`
    const dir = ${JSON.stringify(FILES)};
    // the task-only research tool runs as a task (about 4 s) while the rest goes on
    const research = tools.everything.simulate_research_query({ topic: "code mode" });
    const people = [
      { name: "Ada", role: "programmer", year: 1843 },
      { name: "Grace", role: "admiral", year: 1952 },
      { name: "Edsger", role: "professor", year: 1968 },
    ];
    await Promise.all(people.map((p) =>
      tools.files.write_file({ path: \`\${dir}/\${p.name}.json\`, content: JSON.stringify(p) })));
    const listing = await tools.files.list_directory({ path: dir });
    const names = listing.content.split("\\n").map((l) => l.replace("[FILE] ", "")).sort();
    const read = await Promise.all(names.map(async (n) => JSON.parse((await tools.files.read_text_file({ path: \`\${dir}/\${n}\` })).content)));
    await tools.memory.create_entities({
      entities: read.map((p) => ({ name: p.name, entityType: "person", observations: [\`\${p.role} in \${p.year}\`] })),
    });
    await tools.memory.create_relations({ relations: [{ from: "Grace", to: "Ada", relationType: "admires" }] });
    await tools.memory.add_observations({ observations: [{ entityName: "Ada", contents: ["wrote the first program"] }] });
    const graph = await tools.memory.read_graph();
    const total = await tools.everything.get_sum({ a: read[0].year, b: read[1].year });
    const echo = await tools.everything.echo({ message: graph.entities.map((e) => e.name).join("+") });
    const image = await tools.everything.get_tiny_image();
    await tools.files.write_file({ path: \`\${dir}/summary.txt\`, content: \`\${echo} / \${total}\` });
    const report = await research;
    return { names, graph, total, echo, image: image.map((c) => c.type + ":" + (c.mimeType ?? "")),
             summary: (await tools.files.read_text_file({ path: \`\${dir}/summary.txt\` })).content,
             report: report.slice(0, 40) };`, { timeoutMs: 30000 }));
  assert.deepEqual(r.names, ['Ada.json', 'Edsger.json', 'Grace.json']);
  assert.deepEqual(r.graph.entities.map((e) => [e.name, e.observations]), [
    ['Ada', ['programmer in 1843', 'wrote the first program']],
    ['Edsger', ['professor in 1968']],
    ['Grace', ['admiral in 1952']],
  ]);
  assert.deepEqual(r.graph.relations, [{ from: 'Grace', to: 'Ada', relationType: 'admires' }]);
  assert.match(String(r.total), /3811/, 'get-sum: 1843 + 1968 (files in name order)');
  assert.equal(r.echo, 'Echo: Ada+Edsger+Grace');
  assert.deepEqual(r.image, ['text:', 'image:image/png', 'text:']);
  assert.equal(r.summary, `${r.echo} / ${r.total}`);
  assert.match(r.report, /^# Research Report: code mode/);
  // the effects are real: on disk, in the memory file
  assert.equal(fs.readFileSync(path.join(FILES, 'summary.txt'), 'utf8'), r.summary);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(FILES, 'Grace.json'), 'utf8')), { name: 'Grace', role: 'admiral', year: 1952 });
  assert.match(fs.readFileSync(MEMORY_FILE, 'utf8'), /"name":"Ada".*wrote the first program/);
});

test('an invalid call to server-memory throws ToolArgumentError and leaves the graph unchanged', async () => {
  const before = fs.readFileSync(MEMORY_FILE, 'utf8');
  const r = valueOf(await s.exec(`
    const graphBefore = await tools.memory.read_graph();
    let error;
    try { await tools.memory.create_entities({ entities: [{ name: "Linus", observations: "not an array" }] }); }
    catch (e) { error = { name: e.name, violations: e.violations }; }
    return { error, same: JSON.stringify(await tools.memory.read_graph()) === JSON.stringify(graphBefore) };`));
  assert.equal(r.error.name, 'ToolArgumentError');
  assert.deepEqual(r.error.violations.map((v) => `${v.path} ${v.keyword}`).sort(),
    ['/entities/0 required', '/entities/0/observations type']);
  assert.equal(r.same, true);
  assert.equal(fs.readFileSync(MEMORY_FILE, 'utf8'), before);
});

test('50 parallel calls with Promise.all: every reply goes to its own call', async () => {
  const r = valueOf(await s.exec(`
    const n = 50;
    const idx = Array.from({ length: n }, (_, i) => i);
    const t0 = Date.now();
    const [sums, echoes, recs] = await Promise.all([
      Promise.all(idx.map((i) => tools.everything.get_sum({ a: i, b: 1000 }))),
      Promise.all(idx.map((i) => callTool("everything.echo", { message: "m" + i }))),
      // replies come back in reverse order: the first call waits longest
      Promise.all(idx.map((i) => tools.rec.echo({ i, delay: (n - i) * 4 }))),
    ]);
    return { sums, echoes, recs: recs.map((x) => x.args.i), ms: Date.now() - t0 };`, { timeoutMs: 30000 }));
  for (let i = 0; i < 50; i++) {
    assert.match(String(r.sums[i]), new RegExp(`\\b${1000 + i}\\b`), `sum ${i}`);
    assert.equal(r.echoes[i], `Echo: m${i}`);
    assert.equal(r.recs[i], i);
  }
  assert.ok(r.ms < 5000, `150 calls took ${r.ms} ms: they overlapped`);
});

test('the maze (--seed 7) is solved with look/move/pickup/use in one execute_code call', async () => {
  const r = await s.exec(SOLVER, { timeoutMs: 30000 });
  const v = valueOf(r);
  assert.equal(v.escaped, true);
  assert.deepEqual(v.at, { x: 7, y: 7 });
  assert.ok(v.moves > 10 && v.calls === v.moves + 3, JSON.stringify(v));
  assert.equal(r.raw.structuredContent.stats.toolCalls, v.calls);
  assert.match(r.logs[0], /^picked up the key at \d,\d$/);
  assert.match(r.logs[1], /^door to the south of 7,7; \d+ cells seen$/); // the door is in the south wall of the corner
});

auditSchemas();
