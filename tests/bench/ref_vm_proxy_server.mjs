// Reference baseline for the proxy benchmark: ref_vm_server.mjs's node:vm
// execute_code, whose programs call the tools of one downstream stdio server
// through the pinned SDK's Client, as Node vm-based code-mode servers do.
// In the program: tools.<server>.<tool>(args) returns a Promise of the result
// mapped as mcp-codemode maps it (structuredContent, else one text item parsed
// as JSON, else its text, else the content; isError throws), plus console.*
// and sleep(ms); console lines also go out as notifications/message.
// Not a sandbox: node:vm is no security boundary.
// Usage: node ref_vm_proxy_server.mjs SERVER_NAME COMMAND [ARGS...]
import vm from 'node:vm';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as z from 'zod';

const [serverName, command, ...commandArgs] = process.argv.slice(2);
if (!serverName || !command) {
    console.error('usage: node ref_vm_proxy_server.mjs SERVER_NAME COMMAND [ARGS...]');
    process.exit(2);
}

const downstream = new Client({ name: 'ref-vm-proxy', version: '1.0.0' });
await downstream.connect(new StdioClientTransport({ command, args: commandArgs, stderr: 'inherit' }));
const { tools: listed } = await downstream.listTools();

function mapResult(result, name) {
    if (result.isError) {
        const text = (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
        throw Object.assign(new Error(text || `${name} reported an error`), { name: 'ToolError', tool: name, result });
    }
    if (result.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
    const content = result.content ?? [];
    if (content.length === 1 && content[0].type === 'text') {
        try {
            return JSON.parse(content[0].text);
        } catch {
            return content[0].text;
        }
    }
    return content;
}

const tools = { [serverName]: {} };
for (const t of listed) {
    tools[serverName][t.name] = (args) =>
        downstream.callTool({ name: t.name, arguments: args ?? {} }).then((r) => mapResult(r, `${serverName}.${t.name}`));
}

const server = new McpServer({ name: 'ref-vm-proxy-server', version: '1.0.0' }, { capabilities: { logging: {} } });

/** Console lines are kept for the result and streamed as log notifications (as mcp-codemode does). */
async function runProgram(code, timeoutMs) {
    const logs = [];
    const push = (...a) => {
        const line = a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ');
        logs.push(line);
        server.sendLoggingMessage({ level: 'info', logger: 'execute_code', data: line }).catch(() => {});
    };
    const context = vm.createContext({
        console: { log: push, info: push, warn: push, error: push, debug: push },
        tools,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    const script = new vm.Script(`(async () => {\n${code}\n})()`, { filename: 'program.js' });
    const value = await script.runInContext(context, { timeout: timeoutMs });
    return { value, logs };
}

server.registerTool(
    'execute_code',
    {
        description: 'Runs a JavaScript program (the body of an async function) that may call tools.<server>.<tool>(args).',
        inputSchema: { code: z.string(), timeoutMs: z.number().int().positive().optional() },
    },
    async ({ code, timeoutMs }) => {
        try {
            const r = await runProgram(code, timeoutMs ?? 300000);
            const text = r.value === undefined ? 'undefined' : JSON.stringify(r.value);
            return { content: [{ type: 'text', text }], structuredContent: { result: r.value ?? null, logs: r.logs } };
        } catch (err) {
            return { content: [{ type: 'text', text: String(err) }], isError: true };
        }
    },
);
await server.connect(new StdioServerTransport());
