// A raw newline-delimited JSON-RPC client over a child's stdio: no SDK, no
// schema validation, so what it times is the server. Each response is
// stamped with the monotonic clock in the stdout 'data' handler, before any
// parsing. The spawn time is taken just before spawn() so spawn-to-response
// figures include process creation and exec.
import { spawn } from 'node:child_process';
import { nowMs } from './clock.mjs';

export const PROTOCOL_VERSION = '2025-11-25';
const STDERR_CAP = 1 << 20; // kept for error reports

export class RawClient {
    /** Spawns `command args` with piped stdin/stdout; stderr is kept for error reports. */
    constructor(command, args, env) {
        this.pending = new Map();
        this.nextId = 1;
        this.stderr = '';
        this.closed = false;
        this.onNotification = null; // (msg, t): called for each notification from the server
        this.tSpawn = nowMs();
        this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env });
        this.pid = this.child.pid;
        this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
        this.child.on('error', (err) => this.failAll(err));
        this.child.stdin.on('error', () => {});
        this.child.stderr.on('data', (d) => {
            if (this.stderr.length < STDERR_CAP) this.stderr += d.toString();
        });
        let tail = '';
        this.child.stdout.on('data', (chunk) => {
            const t = nowMs();
            const lines = (tail + chunk.toString()).split('\n');
            tail = lines.pop();
            for (const line of lines) if (line) this.onLine(line, t);
        });
        this.child.stdout.on('end', () => this.failAll(new Error(`server closed stdout${this.stderrNote()}`)));
    }

    stderrNote() {
        return this.stderr ? `; its stderr:\n${this.stderr.slice(-2000)}` : '';
    }

    onLine(line, t) {
        let msg;
        try {
            msg = JSON.parse(line);
        } catch {
            this.failAll(new Error(`server wrote a non-JSON line: ${line.slice(0, 200)}`));
            return;
        }
        if (msg.method !== undefined) {
            if (msg.id === undefined && this.onNotification) this.onNotification(msg, t);
            return; // notification or server request
        }
        if (msg.id === undefined) return;
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        p.resolve({ msg, tSent: p.tSent, tRecv: t, ms: t - p.tSent });
    }

    failAll(err) {
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
    }

    /** Sends a request; resolves {msg, tSent, tRecv, ms}; rejects on a JSON-RPC error or a dead server. */
    request(method, params) {
        const id = this.nextId++;
        const line = JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';
        return new Promise((resolve, reject) => {
            const ok = (r) => (r.msg.error ? reject(new Error(`${method}: ${JSON.stringify(r.msg.error)}`)) : resolve(r));
            this.pending.set(id, { resolve: ok, reject, tSent: nowMs() });
            this.child.stdin.write(line);
        });
    }

    notify(method, params) {
        this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }) + '\n');
    }

    /** initialize + notifications/initialized; resolves the initialize timing. */
    async initialize() {
        const r = await this.request('initialize', {
            protocolVersion: PROTOCOL_VERSION,
            capabilities: {},
            clientInfo: { name: 'mcp-codemode-bench', version: '1' },
        });
        this.notify('notifications/initialized');
        return r;
    }

    /** One execute_code call; rejects unless the result is a success whose text is `expect`. */
    async execute(code, expect) {
        const r = await this.request('tools/call', { name: 'execute_code', arguments: { code } });
        checkResult(r.msg.result, expect);
        return r;
    }

    /** Closes stdin and waits for the exit (SIGKILL after `graceMs`). */
    async close(graceMs = 3000) {
        if (this.closed) return this.exited;
        this.closed = true;
        this.child.stdin.end();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
        const st = await this.exited;
        clearTimeout(timer);
        return st;
    }
}

/** Throws unless an execute_code result is a success whose first text is `expect`. */
export function checkResult(result, expect) {
    const text = result?.content?.[0]?.text;
    if (result?.isError || (expect !== undefined && text !== expect))
        throw new Error(`execute_code failed: ${JSON.stringify(result).slice(0, 500)}`);
}
