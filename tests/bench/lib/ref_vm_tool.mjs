// The reference servers' one tool: execute_code on the pinned SDK's McpServer,
// each program run as the body of an async function in a fresh node:vm context
// (as Node vm-based code-mode servers do). Not a sandbox: node:vm is no
// security boundary; it only stands in for the per-call work such servers do.
// Used by ref_vm_server.mjs (stdio) and ref_vm_http_server.mjs (Streamable HTTP).
import vm from 'node:vm';
import * as z from 'zod';

async function runProgram(code, timeoutMs) {
    const logs = [];
    const push = (...a) => logs.push(a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' '));
    const context = vm.createContext({ console: { log: push, info: push, warn: push, error: push, debug: push } });
    const script = new vm.Script(`(async () => {\n${code}\n})()`, { filename: 'program.js' });
    const started = Date.now();
    const value = await script.runInContext(context, { timeout: timeoutMs });
    return { value, logs, durationMs: Date.now() - started };
}

/** Registers execute_code on an McpServer. */
export function registerExecuteCode(server) {
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
}
