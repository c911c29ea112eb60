// Reference baseline for the HTTP benchmark: the pinned SDK's McpServer with
// execute_code in a fresh node:vm context per call (lib/ref_vm_tool.mjs), over
// the SDK's StreamableHTTPServerTransport on node:http, the way the SDK's
// examples serve sessions: an initialize POST creates a transport and an
// McpServer for a new session id; later requests are routed by Mcp-Session-Id.
// SDK defaults (replies as SSE streams) unless REF_JSON_RESPONSE=1.
//   node tests/bench/ref_vm_http_server.mjs [PORT]   (0 or none: any free port)
// Prints "ref-vm-http-server: listening on http://127.0.0.1:PORT" on stderr.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { registerExecuteCode } from './lib/ref_vm_tool.mjs';

const sessions = new Map(); // session id -> transport
const enableJsonResponse = process.env.REF_JSON_RESPONSE === '1';

function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        req.on('error', reject);
    });
}

function refuse(res, status, message) {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** A new session: its transport and McpServer, registered once initialize succeeds. */
async function newSession() {
    const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse,
        onsessioninitialized: (id) => sessions.set(id, transport),
    });
    transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = new McpServer({ name: 'ref-vm-http-server', version: '1.0.0' });
    registerExecuteCode(server);
    await server.connect(transport);
    return transport;
}

async function handle(req, res) {
    if (new URL(req.url, 'http://x').pathname !== '/mcp') return refuse(res, 404, 'Not found');
    const sid = req.headers['mcp-session-id'];
    let body;
    if (req.method === 'POST') {
        try {
            body = JSON.parse(await readBody(req));
        } catch {
            return refuse(res, 400, 'Parse error');
        }
    }
    let transport = sid ? sessions.get(sid) : undefined;
    if (!transport) {
        if (sid) return refuse(res, 404, 'Session not found');
        if (req.method !== 'POST' || !isInitializeRequest(body)) return refuse(res, 400, 'No session');
        transport = await newSession();
    }
    await transport.handleRequest(req, res, body);
}

const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
        if (!res.headersSent) refuse(res, 500, String(err));
        else res.end();
    });
});
server.keepAliveTimeout = 60000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
    process.stderr.write(`ref-vm-http-server: listening on http://127.0.0.1:${server.address().port}\n`);
});
for (const sig of ['SIGTERM', 'SIGINT']) {
    process.on(sig, () => {
        for (const t of sessions.values()) t.close().catch(() => {});
        server.close();
        server.closeAllConnections();
        process.exit(0);
    });
}
