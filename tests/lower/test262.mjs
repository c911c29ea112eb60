// Runs a subset of tc39/test262 through the lowering pass and the sandbox
// engine (build/lower/runjs). Tests that need what Duktape cannot have
// (BigInt, realms, Symbol.species, lookbehind, ...; SKIP_FEATURES says why)
// are skipped and counted apart.
//   node tests/lower/test262.mjs TEST262_DIR [DIR_OR_FILE_UNDER_test/...] [-v] [-j N]
//        [--floor FILE] [--write-floor FILE]
// --floor: exit 1 when a directory passes fewer tests than FILE records for it
// (tests/lower/test262-floor.json, written by --write-floor after a run).
// LOWER_RUNJS=PATH runs another build of runjs (e.g. a copy kept while rebuilding).
// TEST262_DIR holds harness/ and test/ (a checkout; not committed here).
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const runjs = process.env.LOWER_RUNJS || path.join(root, 'build', 'lower', 'runjs');

const args = process.argv.slice(2);
const verbose = args.includes('-v');
let jobs = 2;
const ji = args.indexOf('-j');
if (ji >= 0) jobs = +args[ji + 1];
const optValue = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : null; };
const floorFile = optValue('--floor'), writeFloorFile = optValue('--write-floor');
const takesValue = new Set(['-j', '--floor', '--write-floor']);
const positional = args.filter((a, i) => !a.startsWith('-') && !takesValue.has(args[i - 1]));
const t262 = positional[0];
const dirs = positional.slice(1).length ? positional.slice(1) : [
    'language/expressions/arrow-function', 'language/expressions/template-literal',
    'language/expressions/async-function', 'language/expressions/async-arrow-function',
    'language/expressions/await', 'language/expressions/class', 'language/expressions/object',
    'language/expressions/optional-chaining', 'language/expressions/coalesce',
    'language/expressions/assignment/destructuring', 'language/expressions/assignment/dstr',
    'language/statements/let', 'language/statements/const', 'language/statements/for-of',
    'language/statements/for', 'language/statements/class', 'language/statements/async-function',
];

// A few tests write a BigInt literal (`0n`) without `BigInt` in their features:
// they need BigInt all the same (the lowering rejects the literal).
const usesBigInt = (src) => /(^|[^\w$.])\d+n\b/m.test(src.slice(src.indexOf('---*/') + 5));
// Likewise a call of Reflect.construct with a newTarget (Duktape's takes none)
// without `Reflect.construct` in the features (one test, in optional-chaining).
const usesNewTarget = (src) => /Reflect\.construct\([^(),]+,[^(),]+,/.test(src.slice(src.indexOf('---*/') + 5));

// What the sandbox cannot have, each with its reason. A test whose `features:`
// names one of these is skipped and counted apart; everything else the product
// provides (Map/Set & co, Object.groupBy, toSorted, error cause, `#x in o`,
// Uint8Array base64 ... from the prelude) runs.
const SKIP_FEATURES = new Set([
    // Duktape has no BigInt type, no Atomics/shared memory, no weak references
    // observable by GC, no realms, no tail calls, no Float16Array, no resizable
    // or immutable ArrayBuffers
    'BigInt', 'Atomics', 'Atomics.pause', 'SharedArrayBuffer', 'WeakRef', 'FinalizationRegistry',
    'host-gc-required', 'cross-realm', 'ShadowRealm', 'tail-call-optimization', 'Float16Array',
    'resizable-arraybuffer', 'immutable-arraybuffer', 'IsHTMLDDA',
    // Duktape's Proxy has only a few traps; Reflect.construct takes no newTarget
    'Proxy', 'proxy-missing-checks', 'Reflect.construct',
    // well-known symbols Duktape's built-ins never consult
    'Symbol.species', 'Symbol.match', 'Symbol.matchAll', 'Symbol.replace', 'Symbol.search',
    'Symbol.split', 'Symbol.unscopables',
    // Duktape's RegExp engine (no lookbehind, \p{...}, /d, /v, duplicate groups,
    // modifiers; no legacy RegExp.$1 statics)
    'regexp-lookbehind', 'regexp-unicode-property-escapes', 'regexp-match-indices', 'regexp-v-flag',
    'regexp-duplicate-named-groups', 'regexp-modifiers', 'legacy-regexp',
    // programs are one script: no modules, imports or top-level await outside the main program
    'dynamic-import', 'import.meta', 'top-level-await', 'json-modules', 'import-attributes',
    'source-phase-imports',
    // not provided (proposals or recent additions the prelude does not carry), and
    // Duktape's JSON.stringify does not escape lone surrogates
    'decorators', 'explicit-resource-management', 'Temporal', 'Intl', 'canonical-tz', 'upsert',
    'iterator-helpers', 'iterator-sequencing', 'set-methods', 'Array.fromAsync', 'promise-try',
    'Math.sumPrecise', 'RegExp.escape', 'Error.isError', 'json-parse-with-source',
    'well-formed-json-stringify',
]);

function walk(dir, out) {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p, out);
        else if (e.name.endsWith('.js') && !e.name.includes('_FIXTURE')) out.push(p);
    }
    return out;
}

function meta(src) {
    const m = /\/\*---([\s\S]*?)---\*\//.exec(src);
    const y = m ? m[1] : '';
    const list = (key) => {
        const r = new RegExp('^\\s*' + key + ':\\s*\\[([^\\]]*)\\]', 'm').exec(y);
        if (r) return r[1].split(',').map((s) => s.trim()).filter(Boolean);
        const b = new RegExp('^\\s*' + key + ':\\s*\\n((?:\\s+-.*\\n?)+)', 'm').exec(y);
        return b ? b[1].split('\n').map((s) => s.replace(/^\s*-\s*/, '').trim()).filter(Boolean) : [];
    };
    const neg = /negative:\s*\n\s*phase:\s*(\w+)\s*\n\s*type:\s*(\w+)/.exec(y) ||
        /negative:\s*\n\s*type:\s*(\w+)\s*\n\s*phase:\s*(\w+)/.exec(y);
    let negative = null;
    if (neg) negative = /phase:\s*(\w+)\s*\n\s*type/.test(y) ? { phase: neg[1], type: neg[2] } : { phase: neg[2], type: neg[1] };
    return { includes: list('includes'), flags: list('flags'), features: list('features'), negative };
}

const harnessCache = new Map();
function harness(name) {
    if (!harnessCache.has(name)) harnessCache.set(name, fs.readFileSync(path.join(t262, 'harness', name), 'utf8'));
    return harnessCache.get(name);
}

const ASYNC_PRELUDE = `var __doneR; var __doneP = new Promise(function (r) { __doneR = r; });
globalThis.$DONE = function (e) { if (e) console.log('Test262:AsyncTestFailure:' + (e && e.name) + ': ' + (e && e.message)); else console.log('Test262:AsyncTestComplete'); __doneR(); };
`;

function build(src, m) {
    const parts = [];
    if (m.flags.includes('onlyStrict')) parts.push('"use strict";');
    parts.push('var print = function (s) { console.log(s); };');
    if (!m.flags.includes('raw')) {
        parts.push(harness('assert.js'), harness('sta.js'));
        if (m.flags.includes('async')) parts.push(ASYNC_PRELUDE);
        for (const inc of m.includes) parts.push(harness(inc));
    }
    parts.push(src);
    if (m.flags.includes('async')) parts.push('\n;await __doneP;');
    else parts.push('\n;void 0;');
    return parts.join('\n');
}

function run(file) {
    return new Promise((resolve) => {
        execFile(runjs, [file], { encoding: 'utf8', timeout: 20000 }, (err, stdout) => {
            resolve(err && !stdout ? `CRASH ${err.code || err.signal}` : stdout);
        });
    });
}

function judge(out, m) {
    const line = out.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) return { ok: false, why: 'no result: ' + out.slice(-200) };
    const r = JSON.parse(line.slice(7));
    if (m.negative) {
        if (r.ok) return { ok: false, why: `expected ${m.negative.phase} ${m.negative.type}` };
        if (r.error.name !== m.negative.type) return { ok: false, why: `expected ${m.negative.type}, got ${r.error.name}: ${r.error.message}` };
        return { ok: true };
    }
    if (!r.ok) return { ok: false, why: `${r.error.name}: ${r.error.message}` };
    if (m.flags.includes('async') && !out.includes('Test262:AsyncTestComplete')) return { ok: false, why: out.trim().split('\n')[0] };
    return { ok: true };
}

async function main() {
    if (!t262) {
        console.error('usage: node tests/lower/test262.mjs TEST262_DIR [DIR...] [-v] [-j N]');
        process.exit(2);
    }
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lower262-'));
    const files = [];
    for (const d of dirs) {
        const full = path.join(t262, 'test', d);
        if (fs.existsSync(full)) {
            if (fs.statSync(full).isDirectory()) walk(full, files);
            else files.push(full);
        }
    }
    files.sort();
    const stats = new Map();
    let pass = 0, fail = 0, skipped = 0, idx = 0;
    const failures = [];
    // the longest listed directory holding the file (assignment/dstr apart from assignment/destructuring)
    const dirOf = (f) => {
        const rel = path.relative(path.join(t262, 'test'), f).split(path.sep).join('/');
        return dirs.filter((d) => rel.startsWith(d + '/')).sort((a, b) => b.length - a.length)[0] || rel.split('/').slice(0, 3).join('/');
    };
    async function worker(w) {
        while (idx < files.length) {
            const f = files[idx++];
            const src = fs.readFileSync(f, 'utf8');
            const m = meta(src);
            const d = dirOf(f);
            if (!stats.has(d)) stats.set(d, { pass: 0, fail: 0, skip: 0 });
            const st = stats.get(d);
            if (m.flags.includes('module') || m.features.some((x) => SKIP_FEATURES.has(x)) ||
                usesBigInt(src) || usesNewTarget(src)) {
                skipped++;
                st.skip++;
                continue;
            }
            const tf = path.join(tmp, `w${w}.js`);
            fs.writeFileSync(tf, build(src, m));
            const out = await run(tf);
            const j = judge(out, m);
            if (j.ok) { pass++; st.pass++; }
            else {
                fail++; st.fail++;
                failures.push(`${path.relative(t262, f)}: ${j.why}`);
                if (verbose) console.log(`FAIL ${path.relative(t262, f)}: ${j.why}`);
            }
        }
    }
    await Promise.all(Array.from({ length: jobs }, (_, w) => worker(w)));
    fs.rmSync(tmp, { recursive: true, force: true });
    for (const [d, s] of [...stats].sort()) {
        const n = s.pass + s.fail;
        console.log(`${d.padEnd(48)} ${String(s.pass).padStart(5)}/${String(n).padEnd(5)} ${n ? (100 * s.pass / n).toFixed(1) : '-'}%  (skipped ${s.skip})`);
    }
    fs.mkdirSync(path.join(root, 'build', 'lower'), { recursive: true });
    fs.writeFileSync(path.join(root, 'build', 'lower', 'test262-failures.txt'), failures.sort().join('\n') + '\n');
    console.log(`test262: ${pass} passed, ${fail} failed, ${skipped} skipped (${(100 * pass / Math.max(1, pass + fail)).toFixed(1)}% of run)`);
    if (writeFloorFile) {
        const floor = {};
        for (const [d, s] of [...stats].sort()) floor[d] = { passed: s.pass, run: s.pass + s.fail };
        fs.writeFileSync(writeFloorFile, JSON.stringify(floor, null, 2) + '\n');
    }
    if (floorFile) {
        const floor = JSON.parse(fs.readFileSync(floorFile, 'utf8'));
        let below = 0;
        for (const [d, f] of Object.entries(floor)) {
            const s = stats.get(d);
            if (!s) continue; // not run this time
            if (s.pass < f.passed) {
                console.log(`BELOW FLOOR ${d}: ${s.pass} passed, ${f.passed} recorded (${floorFile})`);
                below++;
            }
        }
        if (below) process.exitCode = 1;
    }
}

main();
