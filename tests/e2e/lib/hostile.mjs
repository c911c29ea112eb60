// Shared steps of the hostile-program tests: run a program in a 2025-11-25
// session and time it; check that the server still runs a plain program.
import assert from 'node:assert/strict';

/** Runs `code`; resolves with {r: CallToolResult, sc: structuredContent, ms}. */
export async function runTimed(srv, code, opts = {}) {
  const t0 = Date.now();
  const line = await srv.call(code, opts);
  const ms = Date.now() - t0;
  assert.ok(line.msg.result, `a result, not an error: ${line.raw.slice(0, 300)}`);
  return { r: line.msg.result, sc: line.msg.result.structuredContent, ms, raw: line.raw };
}

/** Asserts an isError result with error `name` (and message matching `re`). */
export function assertError(res, name, re) {
  assert.equal(res.r.isError, true, `expected ${name}, got ${res.raw.slice(0, 300)}`);
  assert.equal(res.sc.error.name, name, res.raw.slice(0, 300));
  if (re) assert.match(res.sc.error.message, re);
  assert.ok(res.r.content[0].text.startsWith(`${name}: `), res.r.content[0].text.slice(0, 200));
}

/** The server still runs a program, promptly. */
export async function assertStillServes(srv) {
  const res = await runTimed(srv, 'return 1');
  assert.equal(res.r.isError, undefined, res.raw.slice(0, 300));
  assert.equal(res.sc.result, 1);
  assert.ok(res.ms < 2000, `return 1 took ${res.ms} ms`);
}
