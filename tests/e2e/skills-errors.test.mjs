// Errors in saved skills point at the skill's own lines (docs/javascript.md,
// Skills): `mcp-codemode skills save` checks the code as skills.save in a
// program does (name rules, then the syntax, lowered as the worker lowers a
// skill) and stores nothing on an error, reported at FILE:LINE:COLUMN of the
// skill; a program's skills.save reports a syntax error at the same line and
// column; a run-time error inside a skill names the skill and its line, with
// an excerpt of its code.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { assertNoSanitizerReport, runBin as run, tempDir } from './lib/downstream.mjs';
import { stateConfig } from './lib/state.mjs';

const runBin = async (...a) => {
  const r = await run(...a);
  assertNoSanitizerReport(r.stderr);
  return r;
};
const dir = tempDir('codemode-skill-errors-');
const write = (name, text) => { const f = path.join(dir, name); fs.writeFileSync(f, text); return f; };
const save = (file, name, code) => runBin(['skills', 'save', '--config', file, '--name', name, '--description', 'd', '--file', code]);
const names = async (file) => JSON.parse((await runBin(['skills', 'list', '--config', file])).stdout).map((s) => s.name);

test('skills save: a syntax error is reported at the skill\'s line and column, and nothing is stored', async () => {
  const { file } = stateConfig(dir, { db: 'syntax.db' });
  const bad = write('bad.js', 'const a = 1;\nreturn a +;\n');
  const r = await save(file, 'bad', bad);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:11: SyntaxError: Unexpected token ';'\nreturn a \\+;\n {10}\\^\n`));
  assert.match(r.stderr, /skill "bad" not saved/);
  // a block left open: the end of the code, not the wrapper's closing line
  const open = write('open.js', 'if (args.x) {\n  return 1;\n\n');
  const o = await save(file, 'open', open);
  assert.equal(o.code, 1);
  assert.match(o.stderr, /open\.js:2:12: SyntaxError: Unexpected end of input/);
  assert.doesNotMatch(o.stderr, /'\)'|'\}'/, 'the wrapper\'s tokens are not mentioned');
  // the name is checked as in a program, before the code
  const named = await save(file, '1st', bad);
  assert.equal(named.code, 1);
  assert.match(named.stderr, /skills\.save: name must be an identifier/);
  assert.deepEqual(await names(file), []);
  const good = await save(file, 'good', write('good.js', 'return args.n + 1'));
  assert.equal(good.code, 0, good.stderr);
  assert.deepEqual(await names(file), ['good']);
});

test('skills.save in a program: the SyntaxError names the skill\'s line and column', async () => {
  const { file } = stateConfig(dir, { db: 'program.db' });
  const r = await runBin(['run', '-', '--config', file], {
    input: 'try { await skills.save({ name: "bad", description: "d", code: "const a = 1;\\nreturn a +;" }); }\ncatch (e) { return e.name + ": " + e.message; }' });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), "SyntaxError: Unexpected token ';' (line 2, column 11 of skill bad)");
});

test('a run-time error inside a skill names the skill, its line and an excerpt of its code', async () => {
  const { file } = stateConfig(dir, { db: 'runtime.db' });
  const saved = await save(file, 'crash', write('crash.js', 'const a = args.n;\nconst o = null;\nreturn o.x + a;\n'));
  assert.equal(saved.code, 0, saved.stderr);
  const r = await runBin(['run', '-', '--config', file], { input: 'const n = 1;\nreturn await skills.crash({ n });' });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /TypeError: cannot read property 'x' of null\n {4}at line 3 of skill crash\n {2}2 \| const o = null;\n> 3 \| return o\.x \+ a;/);
  const j = await runBin(['run', '-', '--config', file, '--json'], { input: 'return await skills.crash({ n: 1 })' });
  const err = JSON.parse(j.stdout).error;
  assert.equal(err.skill, 'crash');
  assert.equal(err.skillLine, 3);
  assert.equal(err.line, undefined, 'not a line of the program');
  // a skill thrown through by the program's own frame still names the skill
  const thrown = await save(file, 'thrower', write('thrower.js', '\n\nthrow new Error("from the skill");'));
  assert.equal(thrown.code, 0, thrown.stderr);
  const t = await runBin(['run', '-', '--config', file], { input: 'return await skills.thrower({})' });
  assert.match(t.stderr, /Error: from the skill\n {4}at line 3 of skill thrower\n/);
  // err.stack, as the program reads it, names the skill's frame at the skill's own line
  const st = await runBin(['run', '-', '--config', file], { input: 'try { await skills.crash({ n: 1 }); } catch (e) { return e.stack; }' });
  assert.equal(st.code, 0, st.stderr);
  assert.equal(JSON.parse(st.stdout), "TypeError: cannot read property 'x' of null\n    at [anon] (skills.crash:3)");
});
