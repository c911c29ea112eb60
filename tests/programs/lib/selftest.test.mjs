// Self-test of the corpus tooling (not of our server): the runner's comparison,
// the recorder's main-program semantics, result mapping, argument validation,
// console formatting and the determinism guards.
//   node --test tests/programs/lib/
import test from 'node:test';
import assert from 'node:assert/strict';
import { compare } from '../run.mjs';
import { runProgram, mainSemantics } from '../record.mjs';

const ok = (result, logs = []) => ({ content: [], structuredContent: { ...(result !== undefined && { result }), logs, stats: {} } });
const bad = (error, logs = []) => ({ content: [], isError: true, structuredContent: { error, logs, stats: {} } });

test('compare: matching outcomes have no problems', () => {
    assert.deepEqual(compare({ ok: true, value: { a: [1, 2] }, logs: ['x'] }, ok({ a: [1, 2] }, ['x'])), []);
    assert.deepEqual(compare({ ok: true, logs: [] }, ok(undefined)), []);
    assert.deepEqual(compare({ ok: false, error: { name: 'Error', message: 'm', line: 3 }, logs: [] }, bad({ name: 'Error', message: 'm', line: 3 })), []);
});

test('compare: every kind of difference is reported', () => {
    assert.match(compare({ ok: true, value: { a: [1, 2] }, logs: [] }, ok({ a: [1, 3] }))[0], /result \.a\[1\]: expected 2, got 3/);
    assert.match(compare({ ok: true, value: 1, logs: [] }, ok(undefined))[0], /expected 1, got \(absent\)/);
    assert.match(compare({ ok: true, value: 1, logs: ['a'] }, ok(1, ['a', 'b']))[0], /logs\[1\]: expected \(absent\), got "b"/);
    assert.match(compare({ ok: true, value: 1, logs: [] }, bad({ name: 'SyntaxError', message: 'x', line: 2 }))[0], /got SyntaxError: x \(line 2\)/);
    const e = { ok: false, error: { name: 'TypeError', message: 'engine words', line: 4 }, logs: [] };
    assert.equal(compare(e, bad({ name: 'TypeError', message: 'other words', line: 4 })).length, 1);
    assert.deepEqual(compare({ ...e, looseMessage: true }, bad({ name: 'TypeError', message: 'other words', line: 4 })), []);
    assert.match(compare({ ...e, looseMessage: true }, bad({ name: 'TypeError', message: 'w', line: 5 }))[0], /error line: expected 4, got 5/);
    assert.match(compare({ ok: true, value: 1, logs: [] }, { content: [{ type: 'text', text: 'old' }] })[0], /no structuredContent/);
});

test('mainSemantics: final expression, lone function, explicit return', () => {
    assert.equal(mainSemantics('const a = 1;\na + 1;\n', false), 'const a = 1;\nreturn (a + 1);\n');
    assert.equal(mainSemantics('if (x) { return 1 }\nx;', false), 'if (x) { return 1 }\nx;');
    assert.equal(mainSemantics('async () => {\n  return 2;\n}', false), 'return (async () => {\n  return 2;\n})()');
    assert.equal(mainSemantics('const f = () => { return 1 };\nf();\ninterface X {}\n', true), 'const f = () => { return 1 };\nreturn (f());\ninterface X {}\n');
    assert.equal(mainSemantics('console.log(1);\nfunction f() {}\n', false), 'console.log(1);\nfunction f() {}\n');
});

const run = (src, isTs = false) => runProgram('selftest', src, isTs).then((r) => r.outcome);

test('runtime: result mapping and errors follow the contract', async () => {
    assert.deepEqual((await run('return await tools.db.count({ table: "users" })')).value, 40);
    assert.deepEqual((await run('return await tools.weather.cities({})')).value.slice(0, 6), 'Berlin');
    assert.deepEqual((await run('return (await tools.weather["get-alerts"]({ region: "africa" })).length')).value, 0);
    const te = await run('\nawait tools.github.get_user({ login: "nobody" })');
    assert.deepEqual(te.error, { name: 'ToolError', message: 'Not Found: user nobody', line: 2 });
    const ae = await run('try { await tools.slow.enter({ key: "selftest", ms: 1, x: 1 }) } catch (e) { return [e.name, JSON.stringify(e.violations).includes("x")] }');
    assert.deepEqual(ae.value, ['ToolArgumentError', true]);
});

test('runtime: console formatting and levels', async () => {
    const o = await run('console.log("a", 1, {b: [2]}, null, undefined); console.warn(new TypeError("t")); console.debug("d"); console.info("i")');
    assert.deepEqual(o.logs, ['a 1 {"b":[2]} null undefined', '[warn] TypeError: t', '[debug] d', 'i']);
});

test('runtime: the realm has no host globals and forbids nondeterminism', async () => {
    assert.equal((await run('return typeof process + typeof Buffer + typeof fetch + typeof WeakRef')).value, 'undefinedundefinedundefinedundefined');
    assert.equal((await run('return new URL("../x?a=1", "https://h.example/p/q").href')).value, 'https://h.example/x?a=1');
    assert.equal((await run('return Math.random()')).ok, false);
});

test('runtime: locale formatting is en-US in UTC, as in the sandbox', async () => {
    assert.equal((await run('return (1234.5).toLocaleString()')).value, '1,234.5');
    assert.equal((await run('return new Date(0).toLocaleString()')).value, '1/1/1970, 12:00:00 AM');
    assert.equal((await run('return new Intl.NumberFormat(undefined, {style: "currency", currency: "EUR"}).format(2)')).value, '\u20ac2.00');
    assert.deepEqual((await run('return ["B", "a", "c"].sort((x, y) => x.localeCompare(y))')).value, ['a', 'B', 'c']);
    for (const code of ['return (1).toLocaleString("de-DE")', 'return new Intl.DateTimeFormat("fr").format(0)',
                        'return new Date(0).toLocaleString("en-US", {timeZone: "Asia/Tokyo"})',
                        'return new Date(0).toLocaleTimeString("en-US", {hour12: false})', 'return "a".localeCompare("b", "sv")']) {
        const r = await run(code);
        assert.equal(r.ok, false, code);
        assert.match(r.error.message, /not allowed in corpus programs/, code);
    }
});
