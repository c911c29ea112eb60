// What `mcp-codemode run` prints (docs/config.md, Running a program):
// --dry-run prints the plan in text mode too (one line per planned call
// with what the policy would do); --out DIR writes images, audio, embedded
// resources and stashed results (content.stash values, the whole of a
// result over maxResultBytes) to files and prints their paths; without it
// nothing printed points at a codemode://stash/ resource, which ends with
// the run's process.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { assertNoSanitizerReport, entry, runBin as run, tempDir, writeConfig } from './lib/downstream.mjs';

const TMP = tempDir('codemode-run-output-');
const runBin = async (...a) => {
  const r = await run(...a);
  assertNoSanitizerReport(r.stderr);
  return r;
};
const CONFIG = writeConfig(TMP, {
  mcpServers: { rec: entry.recorder() },
  codemode: {
    policy: { rules: { 'rec.echo': 'ask' } },
    state: { path: path.join(TMP, 'state.db') },
    maxResultBytes: 4096,
  },
});
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const RUN = (extra, input) => runBin(['run', '-', '--config', CONFIG, ...extra], { input });

test('run --dry-run prints the planned calls with what the policy would do, in text mode', async () => {
  const code = `const a = await tools.rec.echo({ i: 1 });
const b = await tools.rec.get_item({ id: "x".repeat(400) });
await state.set("k", { a: 1 });
return "planned";`;
  const r = await RUN(['--dry-run'], code);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines[0], '"planned"');
  assert.equal(lines[1], 'dry run: 3 planned calls (validated, not sent):');
  assert.equal(lines[2], '1. rec.echo {"i":1}: would ask for approval (rule "rec.echo")');
  // long arguments are cut in the text form
  assert.match(lines[3], /^2\. rec\.get_item \{"id":"x{180,200}\.\.\.: would be sent \(allowed by codemode\.policy\.default; not read-only\)$/);
  assert.equal(lines[4], '3. state.set {"key":"k","value":{"a":1}}: would be done (allowed by codemode.policy.default)');
  assert.equal(lines.length, 5);
  // the JSON form carries the same decisions, arguments whole
  const j = JSON.parse((await RUN(['--dry-run', '--json'], code)).stdout);
  assert.deepEqual(j.plannedCalls.map((p) => [p.tool, p.decision, p.decidedBy]), [
    ['rec.echo', 'ask', 'rule "rec.echo"'],
    ['rec.get_item', 'allow', 'codemode.policy.default'],
    ['state.set', 'allow', 'codemode.policy.default'],
  ]);
  assert.equal(j.plannedCalls[1].arguments.id.length, 400);
  // a failed dry run still prints what it planned before the error
  const failed = await RUN(['--dry-run'], 'await state.delete("k");\nthrow new Error("stop");');
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /Error: stop/);
  assert.equal(failed.stdout, 'dry run: 1 planned call (validated, not sent):\n1. state.delete {"key":"k"}: would be done (allowed by codemode.policy.default)\n');
});

test('run --out DIR writes images and embedded resources to files and prints their paths', async () => {
  const out = path.join(TMP, 'out-blocks', 'nested');
  const r = await RUN(['--out', out], 'return await tools.rec.image({})');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `[image image/png, ${PNG.length} bytes: ${out}/1.png]\n[resource text/plain file:///tmp/note.txt, 6 bytes: ${out}/2.txt]\ncaption\n`);
  assert.deepEqual(fs.readFileSync(path.join(out, '1.png')), PNG);
  assert.equal(fs.readFileSync(path.join(out, '2.txt'), 'utf8'), 'a note');
  const audio = await RUN(['--out', out, '--json'], 'return content.audio(new Uint8Array([1, 2, 3, 250]), "audio/wav")');
  assert.equal(audio.code, 0, audio.stderr);
  assert.deepEqual(JSON.parse(audio.stdout).content, [{ type: 'audio', mimeType: 'audio/wav', bytes: 4, file: `${out}/1.wav` }]);
  assert.deepEqual([...fs.readFileSync(path.join(out, '1.wav'))], [1, 2, 3, 250]);
  // without --out: what the blocks are, and how to get them
  const plain = await RUN([], 'return await tools.rec.image({})');
  assert.match(plain.stdout, /^\[image image\/png, 70 bytes; run with --out DIR to write it to a file\]\n/);
  // a directory that cannot be made is a set-up error before anything runs
  fs.writeFileSync(path.join(TMP, 'a-file'), '');
  const bad = await RUN(['--out', path.join(TMP, 'a-file', 'sub')], 'return 1');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--out .*a-file\/sub: cannot create/);
});

test('a stashed value and a result over maxResultBytes: files with --out, never a codemode://stash/ URI', async () => {
  const out = path.join(TMP, 'out-stash');
  const stash = 'return [content.text("kept"), content.stash({ big: "y".repeat(100) })]';
  const big = 'return "z".repeat(10000)';
  for (const args of [[], ['--json']]) {
    for (const code of [stash, big]) {
      const r = await RUN(args, code);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /codemode:\/\/stash\//, `run ${args.join(' ')}: ${r.stdout.slice(-300)}`);
    }
  }
  const s = await RUN([], stash);
  assert.equal(s.stdout, 'kept\n[stashed application/json: kept by the program with content.stash, gone when run exits; run with --out DIR to write it to a file]\n');
  const t = await RUN([], big);
  assert.match(t.stdout, /^"z{4000,}\n\[result truncated: its JSON is 10002 bytes, over the limit of 4096 bytes; run with --out DIR to write the whole result to a file\]\n$/);

  const so = await RUN(['--out', out], stash);
  assert.equal(so.stdout, `kept\n[stashed application/json, 110 bytes: ${out}/2.json]\n`);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, '2.json'), 'utf8')), { big: 'y'.repeat(100) });
  const to = await RUN(['--out', out], big);
  assert.equal(to.stdout, `[result: its JSON is 10002 bytes, over the limit of 4096 bytes (maxResultBytes); written whole to ${out}/result.json]\n`);
  assert.equal(JSON.parse(fs.readFileSync(path.join(out, 'result.json'), 'utf8')), 'z'.repeat(10000));
  const tj = JSON.parse((await RUN(['--out', out, '--json'], big)).stdout);
  assert.deepEqual(tj.resultTruncated, { bytes: 10002, limit: 4096, file: `${out}/result.json` });
});
