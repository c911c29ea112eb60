// Reference baseline for the benchmarks: the smallest honest Node code-mode
// MCP server. The pinned SDK's McpServer over stdio, one tool execute_code,
// each program run as the body of an async function in a fresh node:vm
// context (as Node vm-based code-mode servers do). Not a sandbox: node:vm is
// no security boundary; it only stands in for the per-call work such servers do.
import vm from 'node:vm';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const server = new McpServer({ name: 'ref-vm-server', version: '1.0.0' });

async function runProgram(code, timeoutMs) {
    const logs = [];
    const push = (...a) => logs.push(a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' '));
    const context = vm.createContext({ console: { log: push, info: push, warn: push, error: push, debug: push } });
    const script = new vm.Script(`(async () => {\n${code}\n})()`, { filename: 'program.js' });
    const started = Date.now();
    const value = await script.runInContext(context, { timeout: timeoutMs });
    return { value, logs, durationMs: Date.now() - started };
}

server.registerTool(
    'execute_code',
    {
        description: 'Runs a JavaScript program (the body of an async function) and returns its value.',
        inputSchema: { code: z.string(), timeoutMs: z.number().int().positive().optional() },
    },
    async ({ code, timeoutMs }) => {
        try {
            const r = await runProgram(code, timeoutMs ?? 30000);
            const text = r.value === undefined ? 'undefined' : JSON.stringify(r.value);
            return {
                content: [{ type: 'text', text }],
                structuredContent: { result: r.value ?? null, logs: r.logs, stats: { durationMs: r.durationMs } },
            };
        } catch (err) {
            return { content: [{ type: 'text', text: String(err) }], isError: true };
        }
    },
);

await server.connect(new StdioServerTransport());
