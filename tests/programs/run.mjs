// Runs every program of tests/programs/cases/ through our server, the real
// way: start $MCP_CODEMODE_BIN (default build/mcp-codemode) over stdio with
// a config naming the scripted personas (host/server.mjs) as downstream
// servers, connect with the pinned SDK Client, call execute_code for each
// program (4 at a time) and compare its structuredContent with the outcome
// recorded from Node (NAME.expected.json, written by record.mjs).
//
//   node tests/programs/run.mjs [--filter SUBSTRING]... [--list-failures] [--jobs N] [--verbose]
// Exit status 0 when every program matched, 1 otherwise, 2 on a usage or start-up error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { ROOT, SERVER, listCases, expectedPath } from './lib/common.mjs';
import { PERSONAS } from './host/tools.mjs';

const require = createRequire(path.join(ROOT, '..', 'package.json'));
const sdk = (p) => import(require.resolve('@modelcontextprotocol/sdk/' + p));
const REPO = path.resolve(ROOT, '..', '..');
const CALL_TIMEOUT_MS = 120000;

// ---- arguments ----------------------------------------------------------------------------------

function usage(msg) {
    if (msg) console.error(`run.mjs: ${msg}`);
    console.error('usage: node tests/programs/run.mjs [--filter SUBSTRING]... [--list-failures] [--jobs N] [--verbose]');
    process.exit(2);
}
function parseArgs(argv) {
    const o = { filter: [], listFailures: false, jobs: 4, verbose: false };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--filter') { if (argv[i + 1] === undefined) usage('--filter needs a value'); o.filter.push(argv[++i]); }
        else if (a.startsWith('--filter=')) o.filter.push(a.slice(9));
        else if (a === '--list-failures') o.listFailures = true;
        else if (a === '--verbose' || a === '-v') o.verbose = true;
        else if (a === '--jobs') { o.jobs = Number(argv[++i]); if (!(o.jobs >= 1)) usage('--jobs needs a positive number'); }
        else if (a === '--help' || a === '-h') usage();
        else if (!a.startsWith('-')) o.filter.push(a);
        else usage(`unknown option ${a}`);
    }
    return o;
}

// ---- comparison -------------------------------------------------------------------------------------

const show = (v) => (v === undefined ? '(absent)' : JSON.stringify(v));
const clip = (s, n = 160) => (s.length > n ? s.slice(0, n - 3) + '...' : s);

/** The first place two JSON values differ, as "path: expected X, got Y". */
function firstDiff(exp, act, at = '') {
    if (isDeepStrictEqual(exp, act)) return null;
    const kind = (v) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
    if (kind(exp) !== kind(act) || (kind(exp) !== 'array' && kind(exp) !== 'object')) {
        return `${at || '(root)'}: expected ${clip(show(exp))}, got ${clip(show(act))}`;
    }
    if (kind(exp) === 'array') {
        for (let i = 0; i < Math.max(exp.length, act.length); i++) {
            if (i >= exp.length) return `${at}[${i}]: unexpected extra element ${clip(show(act[i]))}`;
            if (i >= act.length) return `${at}[${i}]: missing element ${clip(show(exp[i]))}`;
            const d = firstDiff(exp[i], act[i], `${at}[${i}]`);
            if (d) return d;
        }
    }
    const keys = [...new Set([...Object.keys(exp), ...Object.keys(act)])];
    for (const k of keys) {
        const d = firstDiff(exp[k], act[k], `${at}.${k}`);
        if (d) return d;
    }
    const ek = Object.keys(exp).join(','), ak = Object.keys(act).join(',');
    return `${at || '(root)'}: key order differs: expected ${ek}, got ${ak}`;
}

function logsDiff(exp, act) {
    for (let i = 0; i < Math.max(exp.length, act.length); i++) {
        if (exp[i] !== act[i]) {
            return `logs[${i}]: expected ${clip(show(exp[i]))}, got ${clip(show(act[i]))}` +
                (exp.length !== act.length ? ` (${exp.length} lines expected, ${act.length} got)` : '');
        }
    }
    return null;
}

/** Compares a CallToolResult of execute_code with an expected outcome; answers a list of problems. */
export function compare(expected, res) {
    const sc = res && res.structuredContent;
    if (!sc || typeof sc !== 'object') {
        const txt = (res?.content || []).map((c) => c.text).join('\n');
        return [`no structuredContent in the result (isError=${!!res?.isError}): ${clip(txt, 300)}`];
    }
    const problems = [];
    const ok = !res.isError;
    if (ok !== expected.ok) {
        problems.push(expected.ok
            ? `expected success with ${clip(show(expected.value))}, got ${sc.error ? `${sc.error.name}: ${sc.error.message}` : 'isError'}` +
              (sc.error?.line !== undefined ? ` (line ${sc.error.line})` : '')
            : `expected ${expected.error.name}: ${expected.error.message}, got success with ${clip(show(sc.result))}`);
    } else if (ok) {
        const d = firstDiff(expected.value, sc.result);
        if (d) problems.push(`result ${d}`);
    } else {
        const e = expected.error, a = sc.error || {};
        if (a.name !== e.name) problems.push(`error name: expected ${e.name}, got ${a.name}`);
        if (!expected.looseMessage && a.message !== e.message) problems.push(`error message: expected ${show(e.message)}, got ${show(a.message)}`);
        if (expected.looseMessage && (typeof a.message !== 'string' || a.message === '')) problems.push('error message: missing');
        if (e.line !== undefined && a.line !== e.line) problems.push(`error line: expected ${e.line}, got ${show(a.line)}`);
    }
    const d = logsDiff(expected.logs || [], Array.isArray(sc.logs) ? sc.logs : []);
    if (d) problems.push(d);
    return problems;
}

// ---- the server ---------------------------------------------------------------------------------------

function writeConfig(dir) {
    const mcpServers = {};
    for (const p of Object.keys(PERSONAS)) mcpServers[p] = { command: process.execPath, args: [SERVER, p] };
    const file = path.join(dir, 'programs-config.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers, codemode: { poolSize: 4 } }, null, 2));
    return file;
}

async function startServer(bin, config, stderrFile) {
    const { Client } = await sdk('client/index.js');
    const { StdioClientTransport } = await sdk('client/stdio.js');
    // A .mjs "binary" is a Node stand-in (lib/reference-server.mjs) run by this Node.
    const [command, args] = bin.endsWith('.mjs') ? [process.execPath, [bin]] : [bin, []];
    const transport = new StdioClientTransport({ command, args: [...args, '--stdio', '--config', config], stderr: 'pipe', cwd: REPO });
    const errOut = fs.createWriteStream(stderrFile);
    transport.stderr?.pipe(errOut);
    const client = new Client({ name: 'programs-runner', version: '1.0.0' });
    await client.connect(transport);
    return { client, transport };
}

// ---- main -----------------------------------------------------------------------------------------------

async function main() {
    const opts = parseArgs(process.argv.slice(2));
    const bin = path.resolve(REPO, process.env.MCP_CODEMODE_BIN || 'build/mcp-codemode');
    if (!fs.existsSync(bin)) { console.error(`run.mjs: no binary at ${bin} (build it with make, or set MCP_CODEMODE_BIN)`); process.exit(2); }
    const cases = listCases(opts.filter);
    if (cases.length === 0) { console.error('run.mjs: no program matches'); process.exit(2); }

    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-codemode-programs-'));
    const stderrFile = path.join(tmp, 'server-stderr.log');
    let server;
    try {
        server = await startServer(bin, writeConfig(tmp), stderrFile);
    } catch (e) {
        console.error(`run.mjs: could not start or connect to ${bin}: ${e.message}`);
        console.error(tail(stderrFile));
        process.exit(2);
    }
    const { tools } = await server.client.listTools();
    if (!tools.some((t) => t.name === 'execute_code')) { console.error('run.mjs: the server has no execute_code tool'); process.exit(2); }

    const t0 = Date.now();
    const failures = [];
    let done = 0, next = 0;
    const runOne = async (c) => {
        const file = expectedPath(c);
        if (!fs.existsSync(file)) return [`not recorded: run node tests/programs/record.mjs ${c.name}`];
        const expected = JSON.parse(fs.readFileSync(file, 'utf8'));
        const code = fs.readFileSync(c.file, 'utf8');
        try {
            const res = await server.client.callTool({ name: 'execute_code', arguments: { code } }, undefined,
                { timeout: CALL_TIMEOUT_MS });
            return compare(expected, res);
        } catch (e) {
            return [`execute_code call failed: ${e.message}`];
        }
    };
    const worker = async () => {
        while (next < cases.length) {
            const c = cases[next++];
            const started = Date.now();
            const problems = await runOne(c);
            done++;
            if (problems.length) failures.push({ name: c.name, problems });
            if (opts.verbose) console.log(`${problems.length ? 'FAIL' : 'ok  '} ${c.name} (${Date.now() - started} ms)`);
        }
    };
    await Promise.all(Array.from({ length: Math.min(opts.jobs, cases.length) }, worker));
    const ms = Date.now() - t0;
    try { await server.client.close(); } catch { /* already gone */ }

    failures.sort((a, b) => (a.name < b.name ? -1 : 1));
    if (!opts.listFailures) {
        for (const f of failures) {
            console.log(`FAIL ${f.name}`);
            for (const p of f.problems) console.log(`     ${p}`);
        }
    }
    const passed = cases.length - failures.length;
    const pct = ((100 * passed) / cases.length).toFixed(1);
    if (opts.listFailures) for (const f of failures) console.log(f.name);
    const summary = `programs: ${passed}/${cases.length} passed (${pct}%) in ${(ms / 1000).toFixed(1)} s`;
    if (opts.listFailures) console.error(summary); else console.log(summary);
    if (failures.some((f) => f.problems.some((p) => /call failed|no structuredContent/.test(p)))) {
        console.error(`server stderr (last lines, full log in ${stderrFile}):\n${tail(stderrFile)}`);
    }
    if (failures.length === 0) fs.rmSync(tmp, { recursive: true, force: true });
    else if (!opts.listFailures) console.log(`server stderr: ${stderrFile}`);
    process.exit(failures.length ? 1 : 0);
}

function tail(file, n = 15) {
    try { return fs.readFileSync(file, 'utf8').split('\n').slice(-n).join('\n'); } catch { return '(no stderr captured)'; }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'run.mjs')) {
    main().catch((e) => { console.error(`run.mjs: ${e.stack || e}`); process.exit(2); });
}
