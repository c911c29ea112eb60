// One scripted downstream MCP server over stdio: `node server.mjs <persona>`
// (github, db, fs, weather, kv, search, mail, slow, flaky, text). Built on the
// pinned SDK's McpServer; tools are listed with their raw JSON Schemas and
// answered by tools.mjs (same logic and delays the recorder uses).
// A persona's state (kv spaces, flaky counters) lives as long as the process.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PERSONAS, listTools, callTool, newState } from './tools.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', '..', 'package.json'));
const sdk = (p) => import(require.resolve('@modelcontextprotocol/sdk/' + p));

const persona = process.argv[2];
if (!PERSONAS[persona]) {
    process.stderr.write(`usage: node server.mjs <${Object.keys(PERSONAS).join('|')}>\n`);
    process.exit(2);
}

const { McpServer } = await sdk('server/mcp.js');
const { StdioServerTransport } = await sdk('server/stdio.js');
const { ListToolsRequestSchema, CallToolRequestSchema } = await sdk('types.js');

// The tools are registered as raw JSON Schema handlers on the underlying
// Server (McpServer.registerTool takes zod shapes, not JSON Schema).
const mcp = new McpServer({ name: `scripted-${persona}`, version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
const state = newState();
mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools(persona) }));
mcp.server.setRequestHandler(CallToolRequestSchema, async (req) =>
    callTool(state, persona, req.params.name, req.params.arguments ?? {}));

await mcp.connect(new StdioServerTransport());
// The SDK's stdio transport does not end on EOF: exit when our parent closes our stdin.
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0)); // EPIPE: the parent is gone
