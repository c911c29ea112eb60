// Records the expected outcome of every program in tests/programs/cases/ by
// running it under Node with the same contract our sandbox keeps: the code
// is the body of an async function (top-level await/return, a final
// expression statement's value, a lone function expression called), `tools`
// and `callTool` reach the scripted host's tool logic (host/tools.mjs) with
// the same delays, argument validation (ajv) and result mapping, console
// lines are captured with our formatting rules, TypeScript is erased by the
// pinned `typescript` package. Writes cases/NAME.expected.json.
//
//   node tests/programs/record.mjs [--check] [name-substring...]
//   --check   run and compare with the recorded files, write nothing (exit 1 on a difference)
import fs from 'node:fs';
import vm from 'node:vm';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ROOT, listCases, expectedPath, pragmas } from './lib/common.mjs';
import { PERSONAS, findTool, callTool as hostCall, newState } from './host/tools.mjs';

const require = createRequire(path.join(ROOT, '..', 'package.json'));
const ts = require('typescript');
const Ajv2020 = require('ajv/dist/2020').default;
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });

// ---- the program's realm ------------------------------------------------------------------------
// Each program runs in a fresh vm context holding only ECMAScript built-ins and
// the globals our sandbox gives (tools, callTool, console, sleep, timers,
// structuredClone of JSON data, ToolError, ToolArgumentError): a program that
// leans on a Node or web API (Buffer, process, fetch) or on what our engine
// lacks (WeakRef) fails here too, instead of only in our sandbox. URL and
// URLSearchParams are Node's (the sandbox implements the same standard).
// Locale formatting is the sandbox's: en-US data in UTC. A program may use
// Intl, toLocaleString and localeCompare with no locale, "en" or "en-US" and
// no time zone but UTC; the default locale is en-US whatever the machine's.

process.env.TZ = 'UTC';
const REMOVED = ['WeakRef', 'FinalizationRegistry', 'WebAssembly', 'SharedArrayBuffer', 'Atomics'];
const REALM_SETUP = `(function () {
    ${REMOVED.map((k) => `delete globalThis.${k};`).join(' ')}
    // Outcomes must not depend on randomness or on the host's locale data.
    const forbid = (what) => function () { throw new Error(what + ' is not allowed in corpus programs (not deterministic, or locale-dependent)'); };
    Math.random = forbid('Math.random');
    for (const m of ['toLocaleUpperCase', 'toLocaleLowerCase']) String.prototype[m] = forbid(m);
    // en-US and UTC only, as in the sandbox; Node 20 shows midnight as 24 with hour12: false.
    const refuse = (what) => { throw new Error(what + ' is not allowed in corpus programs (the sandbox formats en-US in UTC)'); };
    const locale = (l) => {
        if (l === undefined) return 'en-US';
        for (const t of typeof l === 'string' ? [l] : Array.from(l)) if (!/^en(-US)?$/i.test(String(t))) refuse('locale ' + JSON.stringify(String(t)));
        return l;
    };
    const options = (o) => {
        if (o === undefined || o === null) return o;
        if (o.timeZone !== undefined && !/^(etc\\/)?(utc|gmt)$/i.test(String(o.timeZone))) refuse('timeZone ' + JSON.stringify(String(o.timeZone)));
        if (o.hour12 === false) refuse('hour12: false');
        return o;
    };
    for (const name of ['NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat']) {
        const C = Intl[name];
        const W = function (l, o) {
            if (!new.target && !['NumberFormat', 'DateTimeFormat', 'Collator'].includes(name)) return C(l, o); // throws, as in the sandbox
            return new C(locale(l), options(o));
        };
        W.prototype = C.prototype;
        W.supportedLocalesOf = C.supportedLocalesOf;
        Intl[name] = W;
    }
    for (const name of ['DisplayNames', 'Segmenter', 'Locale', 'DurationFormat'])
        delete Intl[name];
    const wrap = (proto, m) => {
        const f = proto[m];
        Object.defineProperty(proto, m, { configurable: true, writable: true, value: { [m](...a) {
            if (m === 'localeCompare') return f.call(this, a[0], locale(a[1]), options(a[2]));
            return f.call(this, locale(a[0]), options(a[1]));
        } }[m] });
    };
    wrap(Number.prototype, 'toLocaleString');
    for (const m of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) wrap(Date.prototype, m);
    wrap(String.prototype, 'localeCompare');
    class ToolError extends Error {
        constructor(message, tool, result) { super(message); this.tool = tool; this.result = result; }
    }
    Object.defineProperty(ToolError.prototype, 'name', { value: 'ToolError', writable: true, configurable: true });
    class ToolArgumentError extends Error {
        constructor(message, tool, violations) { super(message); this.tool = tool; this.violations = violations; }
    }
    Object.defineProperty(ToolArgumentError.prototype, 'name', { value: 'ToolArgumentError', writable: true, configurable: true });
    return { ToolError, ToolArgumentError, parse: JSON.parse, TypeError, Error };
})()`;

function newRealm() {
    const ctx = vm.createContext({ URL, URLSearchParams }); // the sandbox has them too
    const r = vm.runInContext(REALM_SETUP, ctx);
    r.ctx = ctx;
    r.clone = (v) => (v === undefined ? undefined : r.parse(JSON.stringify(v)));
    return r;
}

// Hidden line of an error raised on behalf of a tool call (the call's line).
const CALL_LINE = Symbol('callLine');
const PROGRAM = 'program.js';

function programLine(stack) {
    if (typeof stack !== 'string') return undefined;
    // "program.js:L:C" in a frame; a compile-time SyntaxError starts "program.js:L\n".
    const m = /program\.js:(\d+):\d+/.exec(stack) || /^program\.js:(\d+)\n/.exec(stack);
    return m ? Number(m[1]) : undefined;
}

// ---- names ------------------------------------------------------------------------------------

const RESERVED = new Set(('break case catch class const continue debugger default delete do else enum export extends ' +
    'false finally for function if import in instanceof new null return super switch this throw true try typeof var ' +
    'void while with yield let static implements interface package private protected public await').split(' '));
export function jsName(name) {
    let s = name.replace(/[^A-Za-z0-9_$]/g, '_');
    if (/^[0-9]/.test(s) || RESERVED.has(s)) s = '_' + s;
    return s;
}

function levenshtein(a, b) {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i]);
    for (let j = 1; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
            d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        }
    }
    return d[a.length][b.length];
}
function nearest(name, candidates) {
    return candidates.map((c) => [levenshtein(name, c), c]).sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1))
        .slice(0, 3).map((x) => x[1]);
}
const allToolNames = () => Object.entries(PERSONAS).flatMap(([p, ts_]) => ts_.map((t) => `${p}.${t.name}`));

// ---- the tools proxy ----------------------------------------------------------------------------

// Which program owns each stateful partition (kv namespace, flaky/slow key):
// two programs sharing one would interfere when the runner runs them at once.
const owners = new Map();
function partitionOf(persona, tool, args) {
    if (persona === 'kv') return `kv:${args.ns}`;
    if (persona === 'flaky' && tool === 'fetch') return `flaky:${args.key}`;
    if (persona === 'slow' && (tool === 'enter' || tool === 'peak')) return `slow:${args.key}`;
    return null;
}

function mapResult(r) {
    if (r.structuredContent !== undefined) return r.structuredContent;
    const c = r.content || [];
    if (c.length === 1 && c[0].type === 'text') {
        try { return JSON.parse(c[0].text); } catch { return c[0].text; }
    }
    return c;
}

const validators = new Map();
function validatorFor(persona, tool) {
    const k = persona + '.' + tool.name;
    if (!validators.has(k)) validators.set(k, ajv.compile(tool.inputSchema));
    return validators.get(k);
}

// Violation messages worded like our validator's where programs may look for a
// name in them (the property that is missing or not allowed).
function violationText(e) {
    if (e.keyword === 'required') return `missing required property "${e.params.missingProperty}"`;
    if (e.keyword === 'additionalProperties') return `property "${e.params.additionalProperty}" is not allowed`;
    return e.message;
}

function makeCaller(ctx, realm) {
    return function call(fullName, args, line) {
        const dot = String(fullName).indexOf('.');
        const server = dot < 0 ? String(fullName) : fullName.slice(0, dot);
        const toolName = dot < 0 ? '' : fullName.slice(dot + 1);
        const withLine = (e) => { e[CALL_LINE] = line; return e; };
        let text;
        if (args === undefined) text = '{}';
        else {
            text = JSON.stringify(args);
            if (text === undefined) throw new realm.TypeError('tool arguments must be a JSON value, got ' + typeof args);
        }
        const tool = PERSONAS[server] && (findTool(server, toolName) ||
            PERSONAS[server].find((t) => jsName(t.name) === toolName));
        if (!tool) {
            return Promise.reject(withLine(new realm.Error(`Unknown tool ${fullName}: did you mean ${nearest(fullName, allToolNames()).join(', ')}?`)));
        }
        const full = `${server}.${tool.name}`;
        const a = JSON.parse(text);
        const violationsOf = (errs) => realm.clone(errs.map((e) => ({ path: e.instancePath, keyword: e.keyword, message: violationText(e) })));
        const validate = validatorFor(server, tool);
        if (!validate(a)) {
            const violations = violationsOf(validate.errors);
            const msg = `invalid arguments for ${full}:\n` + violations.map((v) => `- ${v.path || '(root)'}: ${v.message}`).join('\n');
            return Promise.reject(withLine(new realm.ToolArgumentError(msg, full, violations)));
        }
        const part = partitionOf(server, tool.name, a);
        if (part) {
            const o = owners.get(part);
            if (o && o !== ctx.name) ctx.partitionClash = `state partition clash: ${part} is also used by ${o}`;
            owners.set(part, ctx.name);
        }
        ctx.calls++;
        return ctx.callHost(server, tool.name, a).then((r) => {
            if (r.isError) {
                const msg = (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
                throw withLine(new realm.ToolError(msg, full, realm.clone(r)));
            }
            return realm.clone(mapResult(r));
        });
    };
}

function passThrough(target, k) {
    return typeof k !== 'string' || Object.prototype.hasOwnProperty.call(target, k) || k === 'then' || k === 'toJSON' || k in Object.prototype;
}

function makeTools(call) {
    const servers = {};
    for (const [persona, list] of Object.entries(PERSONAS)) {
        const obj = {};
        for (const t of list) {
            const f = (args) => call(`${persona}.${t.name}`, args, programLine(new Error().stack));
            Object.defineProperty(obj, jsName(t.name), { value: f, enumerable: true });
            if (jsName(t.name) !== t.name) Object.defineProperty(obj, t.name, { value: f, enumerable: false });
        }
        servers[jsName(persona)] = new Proxy(obj, {
            get: (target, k) => (passThrough(target, k) ? target[k]
                : (args) => call(`${persona}.${k}`, args, programLine(new Error().stack))),
        });
    }
    return new Proxy(servers, {
        get: (target, k) => (passThrough(target, k) ? target[k]
            : new Proxy({}, { get: (t, tk) => (passThrough(t, tk) ? t[tk] : (args) => call(`${k}.${tk}`, args, programLine(new Error().stack))) })),
    });
}

// ---- console ------------------------------------------------------------------------------------

function isError(x) {
    return Object.prototype.toString.call(x) === '[object Error]' || x instanceof Error;
}
function fmtOne(x) {
    switch (typeof x) {
    case 'string': return x;
    case 'undefined': return 'undefined';
    case 'function': return '[Function: ' + (x.name || 'anonymous') + ']';
    case 'symbol': case 'number': case 'boolean': return String(x);
    }
    if (x === null) return 'null';
    if (isError(x)) return String(x);
    try {
        const j = JSON.stringify(x);
        return j === undefined ? String(x) : j;
    } catch {
        const seen = [];
        return JSON.stringify(x, function (k, v) {
            if (typeof v === 'object' && v !== null) {
                while (seen.length && seen[seen.length - 1] !== this) seen.length--;
                if (seen.includes(v)) return '[Circular]';
                seen.push(v);
            }
            return v;
        });
    }
}
function makeConsole(lines) {
    const level = (prefix) => (...args) => { lines.push(prefix + args.map(fmtOne).join(' ')); };
    return { log: level(''), info: level(''), warn: level('[warn] '), error: level('[error] '), debug: level('[debug] ') };
}

// ---- main-program semantics -----------------------------------------------------------------------

function hasTopLevelReturn(sf) {
    let found = false;
    const visit = (n) => {
        if (found || ts.isFunctionLike(n) || ts.isClassLike(n)) return;
        if (ts.isReturnStatement(n)) { found = true; return; }
        ts.forEachChild(n, visit);
    };
    sf.statements.forEach(visit);
    return found;
}
const unparen = (e) => (ts.isParenthesizedExpression(e) ? unparen(e.expression) : e);
const typeOnly = (s) => ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEmptyStatement(s) ||
    (ts.isModuleDeclaration(s)) || s.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword);

/** Rewrites the body so it returns what our contract says (same lines). */
export function mainSemantics(code, isTs) {
    const sf = ts.createSourceFile('p' + (isTs ? '.ts' : '.js'), code, ts.ScriptTarget.ES2022, true,
        isTs ? ts.ScriptKind.TS : ts.ScriptKind.JS);
    if (hasTopLevelReturn(sf)) return code;
    const real = sf.statements.filter((s) => !typeOnly(s));
    const last = real[real.length - 1];
    if (!last || !ts.isExpressionStatement(last)) return code;
    const e = last.expression, start = e.getStart(sf);
    const fn = ts.isArrowFunction(unparen(e)) || ts.isFunctionExpression(unparen(e));
    const tail = code.slice(e.end, last.end);
    return code.slice(0, last.getStart(sf)) + 'return (' + code.slice(start, e.end) + (fn && real.length === 1 ? ')()' : ')') +
        tail + code.slice(last.end);
}

function compile(source, isTs, realm) {
    let body = mainSemantics(source, isTs);
    if (isTs) {
        body = ts.transpileModule(body, {
            compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.None, removeComments: false },
            reportDiagnostics: false,
        }).outputText;
    }
    const script = new vm.Script('(async function () {' + body + '\n})', { filename: PROGRAM });
    return script.runInContext(realm.ctx);
}

// ---- one program ----------------------------------------------------------------------------------

function describeError(e, withLine) {
    const d = { name: 'Error', message: '' };
    if ((e !== null && typeof e === 'object') || typeof e === 'function') {
        d.name = String(e.name === undefined ? 'Error' : e.name);
        d.message = String(e.message === undefined ? '' : e.message);
        if (!isError(e) && typeof e === 'object') {
            d.name = 'Error';
            d.message = 'Uncaught ' + fmtOne(e);
        } else if (withLine) {
            const line = e[CALL_LINE] !== undefined ? e[CALL_LINE] : programLine(e.stack);
            if (line !== undefined) d.line = line;
        }
    } else {
        d.message = 'Uncaught ' + (typeof e === 'string' ? JSON.stringify(e) : fmtOne(e));
    }
    return d;
}

const TIMEOUT_MS = 20000;

// ---- what JSON lost ---------------------------------------------------------------------------------------

const LOSS_ADVICE = {
    Map: [' is a Map; JSON drops its entries', ' are Maps; JSON drops their entries', ' - return Object.fromEntries(map)'],
    Set: [' is a Set; JSON drops its values', ' are Sets; JSON drops their values', ' - return [...set]'],
    Promise: [' is a Promise', ' are Promises', ' - did you forget await? use await Promise.all(...)'],
    function: [' is a function; JSON leaves it out', ' are functions; JSON leaves them out', ' (null in an array) - return data, not functions'],
};

function lossKind(x) {
    if (typeof x === 'function') return 'function';
    if (x === null || typeof x !== 'object') return null;
    const tag = Object.prototype.toString.call(x);
    return tag === '[object Map]' ? 'Map' : tag === '[object Set]' ? 'Set' : tag === '[object Promise]' ? 'Promise' : null;
}

/**
 * Our contract for a result holding values JSON cannot carry (a Map, Set,
 * Promise or function): one [warn] line per kind, naming up to three paths
 * in the order JSON meets them (own data properties; getters are not run
 * again, values with a toJSON are not entered), as the sandbox's prelude
 * (89_result_loss.js) words them.
 */
function lossWarnings(value) {
    const hits = {}, firstKey = {}, objs = [];
    JSON.stringify(value, function (k, v) {
        const kind = lossKind(v);
        if (kind) {
            hits[kind] = (hits[kind] || 0) + 1;
            if (!(kind in firstKey)) firstKey[kind] = k;
            if (!objs.includes(v)) objs.push(v);
        }
        return v;
    });
    const found = { Map: [], Set: [], Promise: [], function: [] };
    const walk = (v, path, depth) => {
        if (depth > 1000 || v === null || (typeof v !== 'object' && typeof v !== 'function')) return;
        if (objs.includes(v)) {
            const list = found[lossKind(v)];
            if (list.length < 3) list.push(path);
            return;
        }
        if (typeof v === 'function' || typeof v.toJSON === 'function') return;
        const arr = Array.isArray(v), keys = arr ? null : Object.keys(v), n = arr ? v.length : keys.length;
        for (let i = 0; i < n; i++) {
            const k = arr ? i : keys[i], d = Object.getOwnPropertyDescriptor(v, k);
            if (d === undefined) continue;
            walk(d.value, path + (arr ? `[${k}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`), depth + 1);
        }
    };
    if (objs.length) walk(value, 'result', 0);
    const out = [];
    for (const kind of ['Map', 'Set', 'Promise', 'function']) {
        const n = hits[kind];
        if (!n) continue;
        let paths = found[kind];
        if (paths.length === 0) paths = [`a value under key ${JSON.stringify(firstKey[kind])}`];
        const more = n - paths.length;
        let text = paths[0];
        for (let i = 1; i < paths.length; i++) text += (i === paths.length - 1 && more <= 0 ? ' and ' : ', ') + paths[i];
        if (more > 0) text += ` and ${more} more`;
        out.push(`[warn] ${text}${LOSS_ADVICE[kind][n === 1 ? 0 : 1]}${LOSS_ADVICE[kind][2]}`);
    }
    return out;
}

/**
 * Runs one program; answers {outcome, calls, clash}. opts.callHost(server, tool, args)
 * answers a Promise of the CallToolResult (default: the tool logic in-process,
 * with fresh state for this program).
 */
export async function runProgram(name, source, isTs, opts = {}) {
    const state = newState();
    const ctx = { name, calls: 0, partitionClash: null,
        callHost: opts.callHost || ((server, tool, args) => hostCall(state, server, tool, args)) };
    const realm = newRealm();
    const lines = [];
    const call = makeCaller(ctx, realm);
    Object.assign(realm.ctx, {
        tools: makeTools(call),
        callTool: (n, args) => call(n, args, programLine(new Error().stack)),
        console: makeConsole(lines),
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        setTimeout, clearTimeout, setInterval, clearInterval, queueMicrotask,
        structuredClone: (v) => realm.clone(v),
        ToolError: realm.ToolError,
        ToolArgumentError: realm.ToolArgumentError,
    });
    const prag = pragmas(source);
    const out = { ok: true };
    let timer, compiled = false;
    try {
        const fn = compile(source, isTs, realm);
        compiled = true;
        const timeout = new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`recorder: ${name} did not finish in ${TIMEOUT_MS} ms`)), TIMEOUT_MS); });
        const v = await Promise.race([fn(), timeout]);
        let j;
        try {
            j = JSON.stringify(v);
        } catch (e) {
            // As our sandbox does; the engine's words after the colon differ, so loose.
            Object.assign(out, { ok: false, error: { name: 'TypeError', message: `the returned value is not JSON-serialisable: ${e.message}` }, looseMessage: true });
        }
        if (j !== undefined) out.value = JSON.parse(j);
        if (out.ok) lines.push(...lossWarnings(v));
    } catch (e) {
        out.ok = false;
        out.error = describeError(e, !isTs && !prag['no-line']);
        if (prag['loose-message'] || (e && (e.name === 'ToolArgumentError' || /^Unknown tool /.test(e.message)))) out.looseMessage = true;
        if (compiled === false) out.looseMessage = true; // a SyntaxError: the parser's own words
    } finally {
        clearTimeout(timer);
    }
    out.logs = lines;
    return { outcome: out, calls: ctx.calls, clash: ctx.partitionClash || null };
}

// ---- main -----------------------------------------------------------------------------------------------

async function main() {
    const argv = process.argv.slice(2);
    const check = argv.includes('--check');
    const filter = argv.filter((a) => !a.startsWith('--'));
    process.on('unhandledRejection', () => {}); // a program's stray rejections are its own business
    const cases = listCases(filter);
    let written = 0, differ = 0, problems = 0;
    for (const c of cases) {
        const src = fs.readFileSync(c.file, 'utf8');
        const { outcome, clash } = await runProgram(c.name, src, c.isTs);
        if (clash) { problems++; console.error(`${c.name}: ${clash}`); }
        if (outcome.error && /^recorder: /.test(outcome.error.message)) { problems++; console.error(`${c.name}: ${outcome.error.message}`); }
        const text = JSON.stringify(outcome, null, 2) + '\n';
        const file = expectedPath(c);
        if (check) {
            const old = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
            if (!isDeepStrictEqual(old, JSON.parse(text))) { differ++; console.error(`${c.name}: differs from ${path.basename(file)}`); }
        } else if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) {
            fs.writeFileSync(file, text);
            written++;
        }
    }
    if (filter.length === 0) {
        const names = new Set(cases.map((c) => c.name));
        for (const f of fs.readdirSync(path.dirname(expectedPath(cases[0])))) {
            if (f.endsWith('.expected.json') && !names.has(f.replace('.expected.json', ''))) {
                problems++;
                console.error(`${f}: no program of that name (delete it)`);
            }
        }
    }
    const ok = cases.length;
    if (check) console.log(`checked ${ok} programs: ${differ} differ from their recording, ${problems} problems`);
    else console.log(`recorded ${ok} programs (${written} files changed), ${problems} problems`);
    process.exit(differ || problems ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'record.mjs')) main();
