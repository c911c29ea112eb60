// The official SDK client (pinned @modelcontextprotocol/sdk) over stdio, as a
// real MCP host would use it: connect (initialize), tools/list once (the SDK
// caches output schemas from it), then tools/call. Each call is timed around
// the awaited callTool, so the SDK's own work (zod validation of the result,
// its JSON framing) is included.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { checkResult } from './raw_client.mjs';
import { nowMs } from './clock.mjs';

export class SdkClient {
    static async connect(command, args, env) {
        const c = new SdkClient();
        c.transport = new StdioClientTransport({ command, args, env, stderr: 'pipe' });
        c.stderr = '';
        c.transport.stderr?.on('data', (d) => {
            if (c.stderr.length < 65536) c.stderr += d.toString();
        });
        c.client = new Client({ name: 'mcp-codemode-bench-sdk', version: '1' });
        try {
            await c.client.connect(c.transport);
            c.pid = c.transport.pid;
            await c.client.listTools();
        } catch (err) {
            await c.transport.close().catch(() => {});
            throw new Error(`${err.message}${c.stderr ? `; its stderr:\n${c.stderr.slice(-2000)}` : ''}`);
        }
        return c;
    }

    /** One timed execute_code call; throws unless its text is `expect`. */
    async execute(code, expect) {
        const t0 = nowMs();
        const result = await this.client.callTool({ name: 'execute_code', arguments: { code } });
        const ms = nowMs() - t0;
        checkResult(result, expect);
        return { ms, result };
    }

    async close() {
        await this.client.close();
    }
}
