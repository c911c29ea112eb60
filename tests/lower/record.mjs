// Records the reference output of every differential case from Node: each
// tests/lower/cases/NAME.{js,ts} runs as the body of an async function (the
// sandbox's main-program semantics: top-level await and return, the value of
// a final expression statement, a lone function called), TypeScript erased by
// the pinned `typescript` package; console lines and the outcome are written
// to NAME.expected. Re-runnable: node tests/lower/record.mjs [NAME...]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'package.json'));
const ts = require('typescript');
const casesDir = path.join(here, 'cases');

// ---- main-program semantics, applied to the source text ----------------------

function hasTopLevelReturn(sf) {
    let found = false;
    const visit = (n) => {
        if (found) return;
        if (ts.isFunctionLike(n) || ts.isClassLike(n)) return;
        if (ts.isReturnStatement(n)) { found = true; return; }
        ts.forEachChild(n, visit);
    };
    sf.statements.forEach(visit);
    return found;
}

function ignorable(s) {
    return ts.isEmptyStatement(s) || ts.isFunctionDeclaration(s) || ts.isInterfaceDeclaration(s) ||
        ts.isTypeAliasDeclaration(s) || (ts.isModuleDeclaration(s));
}

function unparen(e) {
    while (ts.isParenthesizedExpression(e)) e = e.expression;
    return e;
}

export function mainSemantics(code, isTs) {
    const sf = ts.createSourceFile('case' + (isTs ? '.ts' : '.js'), code, ts.ScriptTarget.ES2022, true,
        isTs ? ts.ScriptKind.TS : ts.ScriptKind.JS);
    if (hasTopLevelReturn(sf)) return code;
    const stmts = sf.statements.filter((s) => !ts.isEmptyStatement(s));
    const erasedKinds = (s) => ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s);
    const real = stmts.filter((s) => !erasedKinds(s));
    if (real.length === 1 && ts.isExpressionStatement(real[0]) &&
        (ts.isFunctionExpression(unparen(real[0].expression)) || ts.isArrowFunction(unparen(real[0].expression)))) {
        const s = real[0];
        return code.slice(0, s.getStart()) + 'return (' + code.slice(s.expression.getStart(), s.expression.end) +
            ')();' + code.slice(s.end);
    }
    if (real.length === 1 && ts.isFunctionDeclaration(real[0]) && real[0].name) {
        return code + '\nreturn ' + real[0].name.text + '();';
    }
    const last = [...sf.statements].reverse().find((s) => !ignorable(s));
    if (last && ts.isExpressionStatement(last)) {
        return code.slice(0, last.getStart()) + 'return (' + code.slice(last.expression.getStart(), last.expression.end) +
            ');' + code.slice(last.end);
    }
    return code;
}

// ---- console formatting as in sandbox/prelude/40_console.js ------------------------

function fmtOne(x) {
    switch (typeof x) {
    case 'string': return x;
    case 'undefined': return 'undefined';
    case 'function': return '[Function: ' + (x.name || 'anonymous') + ']';
    case 'symbol': return String(x);
    case 'number': case 'boolean': return String(x);
    }
    if (x === null) return 'null';
    if (x instanceof Error) return String(x);
    try {
        const j = JSON.stringify(x);
        return j === undefined ? String(x) : j;
    } catch (e) {
        return String(x);
    }
}

export async function runReference(code, isTs) {
    let body = mainSemantics(code, isTs);
    if (isTs) {
        body = ts.transpileModule(body, {
            compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
            reportDiagnostics: false,
        }).outputText.replace(/^export \{\};\s*$/m, ''); // a type-only module: nothing to export
    }
    const lines = [];
    const log = (prefix) => (...args) => { lines.push(prefix + args.map(fmtOne).join(' ')); };
    const console_ = {
        log: log(''), info: log(''), warn: log('[warn] '), error: log('[error] '), debug: log('[debug] '),
    };
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    const AsyncFunction = (async function () {}).constructor;
    let outcome;
    try {
        const fn = new AsyncFunction('console', 'sleep', body);
        const v = await fn.call(undefined, console_, sleep);
        const j = JSON.stringify(v);
        outcome = j === undefined ? { ok: true } : { ok: true, value: JSON.parse(j) };
    } catch (e) {
        const name = e && e.name !== undefined ? String(e.name) : 'Error';
        const message = e && e.message !== undefined ? String(e.message) : String(e);
        outcome = { ok: false, error: { name, message } };
    }
    return lines.join('\n') + (lines.length ? '\n' : '') + 'RESULT ' + JSON.stringify(outcome) + '\n';
}

async function main() {
    const only = process.argv.slice(2);
    const files = fs.readdirSync(casesDir).filter((f) => /\.(js|ts)$/.test(f)).sort();
    let n = 0;
    for (const f of files) {
        const name = f.replace(/\.(js|ts)$/, '');
        if (only.length && !only.includes(name)) continue;
        const code = fs.readFileSync(path.join(casesDir, f), 'utf8');
        const out = await runReference(code, f.endsWith('.ts'));
        fs.writeFileSync(path.join(casesDir, name + '.expected'), out);
        n++;
    }
    console.log(`recorded ${n} case(s)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
