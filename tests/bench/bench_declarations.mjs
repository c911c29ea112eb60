// What the model pays before its first call (issue 27): for sets of real
// published MCP servers, installed from npm at pinned versions
// (tests/package.json), the tokens of (a) the servers' own tools/list
// results, which a client would put in the model's context directly, and
// (b) mcp-codemode's tools/list (the execute_code tool: its description with
// the declarations, and its schemas) over the same servers. Tokens are
// counted with gpt-tokenizer's o200k_base, a proxy for any model's
// tokenizer. Also: how many tools keep their signature (the tool and every
// top-level argument name declared), how many are reduced, and the error of
// the server's own token estimate (bytes / 4) on the description.
//
// Sets: "four" (everything, filesystem, memory, sequential-thinking: 37
// tools) and "ten" (those plus notion, generated from Notion's OpenAPI
// document, github, playwright, firecrawl, tavily and context7: about 150
// tools). Targets: four at most 50% of direct with every signature kept; ten
// at most 25% with every signature kept. A benchmark, not a test: a missed
// target is reported (exit 0); exit 1 only when a server could not be
// listed.
//
// Knobs (env): MCP_CODEMODE_BIN, BENCH_DECL_SETS (comma list: four,ten),
// BENCH_DECL_BUDGET (tokens, passed as --declarations-tokens), BENCH_OUT
// (raw numbers as JSON).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN } from './lib/targets.mjs';
import { table } from './lib/report.mjs';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'mcp-codemode-bench-decl-'));
const pkgDir = (name) => dirname(require.resolve(`${name}/package.json`));
const node = (name, file, args = [], env = {}) => ({
    command: process.execPath,
    args: [join(pkgDir(name), file), ...args],
    env,
});

// Credentials are dummies: listing tools does not use them.
const SERVERS = {
    everything: node('@modelcontextprotocol/server-everything', 'dist/index.js'),
    filesystem: node('@modelcontextprotocol/server-filesystem', 'dist/index.js', [dir]),
    memory: node('@modelcontextprotocol/server-memory', 'dist/index.js', [], { MEMORY_FILE_PATH: join(dir, 'memory.json') }),
    'sequential-thinking': node('@modelcontextprotocol/server-sequential-thinking', 'dist/index.js'),
    notion: node('@notionhq/notion-mcp-server', 'bin/cli.mjs', [], { NOTION_TOKEN: 'ntn_bench_dummy' }),
    github: node('@modelcontextprotocol/server-github', 'dist/index.js', [], { GITHUB_PERSONAL_ACCESS_TOKEN: 'bench-dummy' }),
    playwright: node('@playwright/mcp', 'cli.js', ['--headless']),
    firecrawl: node('firecrawl-mcp', 'dist/index.js', [], { FIRECRAWL_API_KEY: 'fc-bench-dummy' }),
    tavily: node('tavily-mcp', 'build/index.js', [], { TAVILY_API_KEY: 'tvly-bench-dummy' }),
    context7: node('@upstash/context7-mcp', 'dist/index.js'),
};
const FOUR = ['everything', 'filesystem', 'memory', 'sequential-thinking'];
const SETS = {
    four: { servers: FOUR, target: 0.5 },
    ten: { servers: Object.keys(SERVERS), target: 0.25 },
};

async function connect(command, args, env) {
    const transport = new StdioClientTransport({ command, args, env: { ...process.env, ...env }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d) => {
        if (stderr.length < 65536) stderr += d;
    });
    const client = new Client({ name: 'mcp-codemode-bench-declarations', version: '1' });
    await client.connect(transport);
    return { client, stderr: () => stderr };
}

/** The tools/list result of one server, as a client gets it. */
async function direct(name) {
    const s = SERVERS[name];
    const c = await connect(s.command, s.args, s.env);
    try {
        return await c.client.listTools();
    } finally {
        await c.client.close();
    }
}

// tools/names.c: `-`, `.` and spaces become `_`; a leading digit gets `_`.
const sanitize = (n) => {
    const s = n.replace(/[^A-Za-z0-9_$]/g, '_');
    return /^[0-9]/.test(s) ? `_${s}` : s;
};

/** The declaration of tools.<server>.<id> in the description, or null. */
function declarationOf(decls, server, id) {
    const block = decls.indexOf(`\n  ${server}: {\n`);
    if (block < 0) return null;
    const end = decls.indexOf('\n  };\n', block);
    const text = decls.slice(block, end);
    const at = text.search(new RegExp(`\\n    (${id.replace(/\$/g, '\\$')}|"${id}")[(:]`));
    if (at < 0) return null;
    const next = text.slice(at + 1).search(/\n {4}(\/\*\*|[A-Za-z_$"][^\n]*?[(:])/);
    return next < 0 ? text.slice(at) : text.slice(at, at + 1 + next);
}

/** Tools whose declaration names the tool and every top-level argument. */
function signatures(decls, lists) {
    let kept = 0, total = 0;
    const missing = [];
    for (const [server, list] of Object.entries(lists)) {
        for (const t of list.tools) {
            total++;
            const d = declarationOf(decls, sanitize(server), sanitize(t.name));
            const args = Object.keys(t.inputSchema?.properties ?? {});
            const ok = d && !/: AnyTool;/.test(d) && args.every((a) => d.includes(`${a}?:`) || d.includes(`${a}:`) || d.includes(`${JSON.stringify(a)}`));
            if (ok) kept++;
            else missing.push(`${server}.${t.name}`);
        }
    }
    return { kept, total, missing };
}

/** mcp-codemode's tools/list over the servers of a set, once all are listed. */
async function ours(setName, names) {
    const cfg = { mcpServers: {} };
    for (const n of names) cfg.mcpServers[n] = SERVERS[n];
    const file = join(dir, `${setName}.json`);
    writeFileSync(file, JSON.stringify(cfg));
    const args = ['--config', file];
    if (process.env.BENCH_DECL_BUDGET) args.push('--declarations-tokens', process.env.BENCH_DECL_BUDGET);
    const c = await connect(BIN, args, { MCP_CODEMODE_CONFIG: '' });
    try {
        for (let i = 0; i < 100; i++) {
            const r = await c.client.listTools();
            const d = r.tools[0].description;
            if (names.every((n) => d.includes(`\n  ${sanitize(n)}: {\n`))) return r;
            await new Promise((res) => setTimeout(res, 200));
        }
        throw new Error(`not every server listed by mcp-codemode; its stderr:\n${c.stderr().slice(-2000)}`);
    } finally {
        await c.client.close();
    }
}

const results = {};
let failed = false;
const wanted = (process.env.BENCH_DECL_SETS || 'four,ten').split(',');
const lists = {};
for (const name of new Set(wanted.flatMap((s) => SETS[s].servers))) {
    try {
        lists[name] = await direct(name);
    } catch (err) {
        console.log(`   ${name}: could not list its tools: ${err.message}`);
        failed = true;
    }
}
if (failed) process.exit(1);

console.log('Declarations: tokens (o200k_base) the model reads before its first call');
const rows = [];
for (const setName of wanted) {
    const set = SETS[setName];
    const perServer = set.servers.map((n) => ({ n, tools: lists[n].tools.length, tokens: countTokens(JSON.stringify(lists[n])) }));
    const directTokens = perServer.reduce((a, s) => a + s.tokens, 0);
    const tools = perServer.reduce((a, s) => a + s.tools, 0);
    const mine = await ours(setName, set.servers);
    const json = JSON.stringify(mine);
    const ourTokens = countTokens(json);
    const desc = mine.tools[0].description;
    const decls = desc.slice(desc.indexOf('Tools available to the program'));
    const sig = signatures(decls, Object.fromEntries(set.servers.map((n) => [n, lists[n]])));
    const declBytes = Buffer.byteLength(decls);
    const declTokens = countTokens(decls);
    const ratio = ourTokens / directTokens;
    const noOutput = perServer.reduce((a, s) => a + lists[s.n].tools.filter((t) => !t.outputSchema).length, 0);
    results[setName] = {
        servers: perServer, tools, directTokens, ourTokens, ratio, target: set.target,
        signaturesKept: sig.kept, signaturesMissing: sig.missing, noOutputSchema: noOutput,
        declarationBytes: declBytes, declarationTokens: declTokens,
        estimateError: Math.ceil(declBytes / 4) / declTokens - 1,
    };
    rows.push([
        setName, `${set.servers.length}`, `${tools}`, `${directTokens}`, `${ourTokens}`,
        `${(ratio * 100).toFixed(1)}% (<= ${set.target * 100}%)`, `${sig.kept}/${sig.total}`,
        `${ratio <= set.target && sig.kept === sig.total ? 'met' : 'MISSED'}`,
    ]);
    console.log(`\n   set "${setName}": ${perServer.map((s) => `${s.n} ${s.tools} tools ${s.tokens} tok`).join(', ')}`);
    console.log(`   tools without outputSchema: ${noOutput} of ${tools}`);
    console.log(`   declarations in the description: ${declBytes} bytes, ${declTokens} tokens; estimate bytes/4 = ${Math.ceil(declBytes / 4)} (${(results[setName].estimateError * 100).toFixed(1)}%)`);
    if (sig.missing.length) console.log(`   without a full signature: ${sig.missing.join(', ')}`);
}
console.log('');
table(['set', 'servers', 'tools', 'direct tokens', 'mcp-codemode tokens', 'ratio', 'signatures', 'target'], rows);
if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify(results, null, 2));
rmSync(dir, { recursive: true, force: true });
