// A reference implementation of our execute_code contract in Node, for
// testing the corpus plumbing end to end while the real server grows:
//   MCP_CODEMODE_BIN=tests/programs/lib/reference-server.mjs node tests/programs/run.mjs
// It takes the same `--stdio --config FILE` arguments as mcp-codemode, starts
// the configured stdio servers as MCP clients, and runs each program with the
// recorder's runtime (record.mjs), sending tool calls over the real wire.
// Results have our shape: structuredContent {result, logs, stats} or
// {error, logs, stats} with isError. Not a sandbox: trusted test programs only.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { createRequire } from 'node:module';
import { ROOT } from './common.mjs';
import { runProgram } from '../record.mjs';

const require = createRequire(path.join(ROOT, '..', 'package.json'));
const ts = require('typescript');
const sdk = (p) => import(require.resolve('@modelcontextprotocol/sdk/' + p));
const { McpServer } = await sdk('server/mcp.js');
const { StdioServerTransport } = await sdk('server/stdio.js');
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');
const { ListToolsRequestSchema, CallToolRequestSchema } = await sdk('types.js');

const argv = process.argv.slice(2);
const configFile = argv[argv.indexOf('--config') + 1];
if (!configFile || !fs.existsSync(configFile)) {
    process.stderr.write('usage: reference-server.mjs --stdio --config FILE\n');
    process.exit(2);
}
const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));

const clients = {};
await Promise.all(Object.entries(config.mcpServers || {}).map(async ([name, s]) => {
    const c = new Client({ name: 'reference-codemode', version: '1.0.0' });
    await c.connect(new StdioClientTransport({ command: s.command, args: s.args || [], stderr: 'inherit' }));
    await c.listTools(); // so the client knows the output schemas it checks results against
    clients[name] = c;
}));

/** TypeScript when it does not compile as JavaScript but parses as TypeScript. */
function looksLikeTs(code) {
    try {
        new vm.Script('(async function () {' + code + '\n})');
        return false;
    } catch {
        const out = ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
        return (out.diagnostics || []).length === 0;
    }
}

let seq = 0;
async function execute(args) {
    const code = args && args.code;
    if (typeof code !== 'string') return { content: [{ type: 'text', text: 'execute_code: "code" must be a string' }], isError: true };
    const t0 = Date.now();
    const { outcome, calls } = await runProgram(`ref-${++seq}`, code, looksLikeTs(code), {
        callHost: (server, tool, a) => clients[server].callTool({ name: tool, arguments: a }),
    });
    const stats = { durationMs: Date.now() - t0, toolCalls: calls };
    const sc = outcome.ok ? { ...(outcome.value !== undefined && { result: outcome.value }), logs: outcome.logs, stats }
        : { error: outcome.error, logs: outcome.logs, stats };
    const text = outcome.ok ? JSON.stringify(outcome.value) ?? 'undefined' : `${outcome.error.name}: ${outcome.error.message}`;
    return { content: [{ type: 'text', text }], structuredContent: sc, ...(outcome.ok ? {} : { isError: true }) };
}

const server = new McpServer({ name: 'reference-codemode', version: '1.0.0' }, { capabilities: { tools: {} } });
server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{
        name: 'execute_code',
        description: 'Run a JavaScript program (reference implementation for tests).',
        inputSchema: { type: 'object', properties: { code: { type: 'string' }, timeoutMs: { type: 'integer' } }, required: ['code'] },
    }],
}));
server.server.setRequestHandler(CallToolRequestSchema, async (req) =>
    (req.params.name === 'execute_code' ? execute(req.params.arguments)
        : { content: [{ type: 'text', text: `unknown tool ${req.params.name}` }], isError: true }));
process.on('unhandledRejection', () => {});
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
