// The maze example's saved skill (examples/maze/README.md): `escape` saved
// with the `skills` subcommand from examples/maze/solve.js, listed by a
// client of a server with exposeAsTools next to execute_code, and called
// directly: the maze is escaped without the client writing any code.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { entry, runBin, tempDir, valueOf } from './lib/downstream.mjs';
import { REPO_ROOT } from './lib/paths.mjs';
import { stateConfig, trackedConnect } from './lib/state.mjs';

const dir = tempDir('codemode-maze-skill-');
const open = trackedConnect();

test('the escape skill: saved by the CLI, called by the client as a tool', async () => {
  const example = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'examples/maze/config.json'), 'utf8'));
  assert.equal(example.codemode.skills.exposeAsTools, true, 'the example turns exposeAsTools on');
  const { file } = stateConfig(dir, {
    mcpServers: { maze: entry.maze(7, { args: example.mcpServers.maze.args }) },
    skills: example.codemode.skills,
  });
  const saved = await runBin(['skills', 'save', '--config', file, '--name', 'escape',
    '--description', 'Escapes the maze: explores it, fetches the key, unlocks the door and leaves.',
    '--file', path.join(REPO_ROOT, 'examples/maze/solve.js')]);
  assert.equal(saved.code, 0, saved.stderr);
  const h = await open(file, 'stdio', { label: 'maze skill' });
  const names = (await h.client.listTools()).tools.map((t) => t.name);
  assert.deepEqual(names, ['execute_code', 'escape']);
  const r = await h.client.callTool({ name: 'escape', arguments: {} });
  assert.notEqual(r.isError, true, r.content?.[0]?.text);
  const v = r.structuredContent.result;
  assert.equal(v.escaped, true);
  assert.ok(v.moves > 20 && v.explored > 10, JSON.stringify(v));
  // Later programs call it too.
  assert.equal(valueOf(await h.exec('return typeof skills.escape')), 'function');
});

auditSchemas({ minMessages: 4 });
