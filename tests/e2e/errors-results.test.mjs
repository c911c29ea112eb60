// What a program sees of its own failures and results (issue 25, items 3
// and 5): stack traces, read by the program (err.stack) or reported as the
// execution's error, hold the program's frames only, with the program's
// lines: never the engine's C call sites, natives or the runtime's frames.
// A result holding values JSON cannot carry (Map, Set, a Promise not
// awaited, a function) keeps Node's JSON and gets a [warn] line per kind.
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

/** What Node's JSON.stringify makes of the value `code` returns (undefined when it makes nothing). */
function nodeJson(code) {
  const text = JSON.stringify(new Function(code)());
  return text === undefined ? undefined : JSON.parse(text);
}

// [code returning the value, the [warn] lines]
const LOSSES = [
  ['const byLabel = new Map([["bug", 3]]);\nreturn { byLabel, total: 3 };',
    ['[warn] result.byLabel is a Map; JSON drops its entries - return Object.fromEntries(map)']],
  ['const ids = [1, 2, 3, 4, 5];\nreturn ids.map(async (id) => ({ id }));',
    ['[warn] result[0], result[1], result[2] and 2 more are Promises - did you forget await? use await Promise.all(...)']],
  ['return { tags: new Set(["a"]), fmt() {}, list: [() => 1, 2], deep: { p: Promise.resolve(1), "a-b": new Map() } };', [
    '[warn] result.deep["a-b"] is a Map; JSON drops its entries - return Object.fromEntries(map)',
    '[warn] result.tags is a Set; JSON drops its values - return [...set]',
    '[warn] result.deep.p is a Promise - did you forget await? use await Promise.all(...)',
    '[warn] result.fmt and result.list[0] are functions; JSON leaves them out (null in an array) - return data, not functions',
  ]],
  ['return new Set([1, 2]);', ['[warn] result is a Set; JSON drops its values - return [...set]']],
  ['return () => 1;', ['[warn] result is a function; JSON leaves it out (null in an array) - return data, not functions']],
  ['class Index extends Map {}\nconst m = new Index();\nreturn { a: m, b: [m, m], get c() { return new Set(); } };', [
    '[warn] result.a, result.b[0] and result.b[1] are Maps; JSON drops their entries - return Object.fromEntries(map)',
    '[warn] a value under key "c" is a Set; JSON drops its values - return [...set]',
  ]],
];

test('a result JSON cannot carry: Node\'s JSON, and a [warn] line per kind of loss', async () => {
  for (const [code, warns] of LOSSES) {
    const r = await s.exec(code);
    assert.equal(r.ok, true, `${code}: ${r.text}`);
    assert.deepEqual(r.value, nodeJson(code), code);
    assert.deepEqual(r.logs, warns, code);
  }
});

test('ordinary results get no warning; a program\'s own toJSON decides', async () => {
  const plain = 'class P { constructor() { this.x = 1; } }\n' +
    'return { a: 1, none: null, empty: {}, list: [null, {}, [], "s"], at: new Date(0), p: new P(), u: undefined };';
  const r = await s.exec(plain);
  assert.deepEqual(r.value, nodeJson(plain));
  assert.deepEqual(r.logs, []);
  const own = 'Map.prototype.toJSON = function () { return [...this]; };\nreturn { m: new Map([[1, 2]]) };';
  const o = await s.exec(own);
  assert.deepEqual(o.value, { m: [[1, 2]] });
  assert.deepEqual(o.logs, []);
  // Nothing stays on the prototypes for the next program in the same worker.
  for (let i = 0; i < 3; i++) {
    await s.exec('return [new Map(), () => 1];');
    const left = await s.exec('return [Map.prototype, Set.prototype, Promise.prototype, Function.prototype].map((p) => "toJSON" in p);');
    assert.deepEqual(left.value, [false, false, false, false]);
  }
});

test('a result JSON refuses is still an error, without warnings', async () => {
  const r = await s.exec('const o = { m: new Map() };\no.self = o;\nreturn o;');
  assert.equal(r.ok, false);
  assert.equal(r.error.name, 'TypeError');
  assert.match(r.error.message, /not JSON-serialisable/);
  assert.deepEqual(r.logs, []);
});

auditSchemas();
