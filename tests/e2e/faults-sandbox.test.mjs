// Sandbox faults (issue 16): a program whose console output comes faster
// than the host reads it while another client's executions go on: the flood
// is capped, the bystander is served, and afterwards the host holds no more
// descriptors and no more children than before. (Workers killed mid-run:
// hostile-limits.test.mjs.)
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, entry, serve, tempDir, valueOf, writeConfig } from './lib/downstream.mjs';
import { childrenOf, isAlive } from './lib/procs.mjs';
import { sleep } from './lib/raw.mjs';

const TMP = tempDir('codemode-sbx-faults-');
const CONFIG = writeConfig(TMP, { mcpServers: { rec: entry.recorder() } });
let s, other, baseline;

const fds = (pid) => readdirSync(`/proc/${pid}/fd`).length;

before(async () => {
  s = await serve(CONFIG, { label: 'sandbox faults' });
  other = await serve(CONFIG, { label: 'bystander' });
  valueOf(await s.exec('return 1'));
  baseline = { fds: fds(s.pid) };
});
after(() => assertClean(s, other));

test('a program flooding its console while another client runs: the flood is capped, the other client is not starved', async (t) => {
  const flood = s.exec('for (;;) console.log("z".repeat(1000))', { timeoutMs: 2000 });
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = Date.now();
    assert.equal(valueOf(await other.exec(`return ${i}`)), i);
    times.push(Date.now() - t0);
  }
  const r = await flood;
  assert.equal(r.ok, false);
  assert.equal(r.error.name, 'TimeoutError');
  const logged = (r.logs ?? []).join('\n').length;
  assert.ok(logged <= 300 * 1024, `${logged} bytes of console kept (maxLogBytes 256 KiB)`);
  times.sort((a, b) => a - b);
  t.diagnostic(`the bystander's calls during the flood: median ${times[10]} ms, max ${times[19]} ms`);
  assert.ok(times[10] < 500, `median ${times[10]} ms`);
});

test('afterwards: no descriptor or child left behind', async () => {
  const deadline = Date.now() + 5000;
  while (fds(s.pid) > baseline.fds && Date.now() < deadline) await sleep(50);
  assert.ok(fds(s.pid) <= baseline.fds, `${fds(s.pid)} descriptors, ${baseline.fds} before`);
  const kids = childrenOf(s.pid);
  assert.ok(kids.length <= 2, `children: ${kids.length} (the zygote and the downstream server)`);
  assert.ok(isAlive(s.pid));
});

auditSchemas();
