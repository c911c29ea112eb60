// What a program sees of its own failures and results (issue 25, items 3
// and 5): stack traces, read by the program (err.stack) or reported as the
// execution's error, hold the program's frames only, with the program's
// lines: never the engine's C call sites, natives or the runtime's frames.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { assertClean, serve, tempDir, writeConfig } from './lib/downstream.mjs';

const CONFIG = writeConfig(tempDir('codemode-errors-'), { mcpServers: {} });

let s;
before(async () => {
  s = await serve(CONFIG, { label: 'errors' });
});
after(() => assertClean(s));

/** A frame line as the program sees it in err.stack: "    at NAME (program.js:LINE)". */
const FRAME = /^ {4}at [^\n]* \(program\.js:(\d+)\)$/;

/** Asserts that `stack` (err.stack) is a header then program frames only; returns their lines. */
function programLines(stack, header) {
  const lines = stack.split('\n');
  assert.equal(lines[0], header);
  assert.doesNotMatch(stack, /\.c:|internal|native|prelude|preventsyield|strict/, stack);
  return lines.slice(1).map((l) => {
    const m = FRAME.exec(l);
    assert.ok(m, `not a program frame: ${JSON.stringify(l)} in\n${stack}`);
    return Number(m[1]);
  });
}

// [what, code that throws (the throw on the line given), header, frame lines innermost first]
const THROWERS = [
  ['a property of null', 'function f(o) {\n  return o.x;\n}\nf(null);', "TypeError: cannot read property 'x' of null", [2, 4]],
  ['JSON.parse', 'function f() {\n  return JSON.parse("{");\n}\nf();', 'SyntaxError: invalid json (at offset 2)', [2, 4]],
  ['Object.defineProperty', 'const g = () =>\n  Object.defineProperty(1);\ng();', 'TypeError: object required, found 1 (stack index 0)', [2, 3]],
  ['a callback of Array#map', 'const depth = (x) => {\n  return x.y.z;\n};\n[1].map(depth);', "TypeError: cannot read property 'z' of undefined", [2, 4]],
  ['a callback of Map#forEach', 'function each() {\n  throw new RangeError("r");\n}\nnew Map([[1, 2]]).forEach(each);', 'RangeError: r', [2, 4]],
  ['a prelude module (URL)', '\nnew URL("not a url");', 'TypeError: Invalid URL: not a url', [2]],
];

test('err.stack read by the program holds its own frames, with its lines', async () => {
  for (const [what, code, header, lines] of THROWERS) {
    const r = await s.exec(`try {\n${code}\n} catch (e) {\n  console.log(e.stack);\n  return e.stack;\n}`);
    assert.equal(r.ok, true, `${what}: ${r.text}`);
    assert.deepEqual(programLines(r.value, header), lines.map((n) => n + 1), `${what}:\n${r.value}`);
    assert.equal(r.logs[0], r.value, what); // console.log(e.stack) prints the same text
  }
});

test('an async function failing after await: err.stack and the error result', async () => {
  const code = 'async function load(o) {\n  await sleep(1);\n  return o.items.length;\n}\n';
  const caught = await s.exec(`${code}try { await load({}); } catch (e) { return e.stack; }`);
  assert.deepEqual(programLines(caught.value, "TypeError: cannot read property 'length' of undefined"), [3]);
  const uncaught = await s.exec(`${code}await load({});`);
  assert.equal(uncaught.ok, false);
  assert.equal(uncaught.error.line, 3);
  assert.doesNotMatch(JSON.stringify(uncaught.error), /\.c:|internal|native|prelude/);
});

test('the error result of an engine error: the program line, a stack of program frames', async () => {
  for (const [what, code, , lines] of THROWERS) {
    const r = await s.exec(code);
    assert.equal(r.ok, false, what);
    assert.equal(r.error.line, lines[0], `${what}: ${r.text}`);
    assert.doesNotMatch(JSON.stringify(r.error), /\.c:|internal|native|prelude/, what);
    if (r.error.stack !== undefined) {
      const shown = r.error.stack.split('\n').map((l) => Number(/^at [^\n]* \(program\.js:(\d+)\)$/.exec(l)?.[1]));
      assert.deepEqual(shown, lines, `${what}: ${r.error.stack}`);
    }
  }
});

auditSchemas();
