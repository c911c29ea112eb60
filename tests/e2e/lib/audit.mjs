// The last test of every e2e file: stops the servers the file started and
// asserts that every line they wrote on stdout was clean (one JSON message,
// valid UTF-8) and valid against the schema of its revision, and that the
// only unvalidated messages are the declared null-id errors (see wire.mjs).
// HTTP servers (http.mjs) must also have exited with status 0 and no
// sanitizer report.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allServers } from './raw.mjs';
import { allSdkClients } from './sdk.mjs';
import { allWires } from './wire.mjs';

export function auditSchemas({ minMessages = 1 } = {}) {
  test('audit: every server message validates against the schema of its revision', async (t) => {
    // the SDK clients first: each closes its session, then stops its server. A
    // server stopped under a client still connected ends the client's GET
    // stream; the SDK reconnects after a delay, and when closing the others
    // takes longer than that (SANITIZE=1), it meets a closed port and reports
    // "Failed to reconnect SSE stream" to the file's assertClean.
    await Promise.all(allSdkClients.map((c) => c.close()));
    await Promise.all(allServers.map((s) => s.stop()));
    let validated = 0, excluded = 0;
    const problems = [];
    for (const s of allServers) if (s.exitProblems) problems.push(...await s.exitProblems()); // HTTP servers
    for (const w of allWires) {
      validated += w.validated;
      excluded += w.excluded.length;
      for (const p of w.problems) problems.push(`${w.label}: ${p}`);
      if (w.excluded.length !== w.expectExcluded) {
        problems.push(`${w.label}: ${w.excluded.length} null-id error(s) excluded from validation, expected ${w.expectExcluded}:\n    ` +
          w.excluded.map((e) => e.raw).join('\n    '));
      }
    }
    t.diagnostic(`${allWires.length} connection(s), ${validated} message(s) validated, ${excluded} declared null-id error(s) excluded`);
    assert.deepEqual(problems, [], `${problems.length} problem(s) in the servers' output`);
    assert.ok(validated >= minMessages, `only ${validated} messages validated`);
  });
}
