// A raw stdio client: spawns the binary, writes bytes to its stdin exactly as
// told, and reads its stdout line by line through a Wire (which validates
// every line). Requests are written with the id first so the id's raw text can
// be matched against the reply's (big integers, escaped strings).
import { spawn } from 'node:child_process';
import { BIN } from './paths.mjs';
import { Wire } from './wire.mjs';

export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

export const allServers = [];

/** The per-request _meta of a 2026-07-28 request, plus `extra`. */
export function modernMeta(extra = {}) {
  return {
    [PROTOCOL_VERSION_KEY]: '2026-07-28',
    [CLIENT_CAPABILITIES_KEY]: {},
    [CLIENT_INFO_KEY]: { name: 'e2e-raw', version: '1.0.0' },
    ...extra,
  };
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class RawServer {
  constructor(args = [], { label = 'server', env } = {}) {
    this.label = label;
    this.args = args;
    this.wire = new Wire(label);
    this.stderr = '';
    this.nextId = 1;
    this.startedAt = Date.now();
    this.proc = spawn(BIN, args, { stdio: ['pipe', 'pipe', 'pipe'], env: env ?? process.env });
    this.proc.stdout.on('data', (b) => this.wire.feed(b));
    this.proc.stdout.on('end', () => this.wire.end());
    this.proc.stderr.on('data', (b) => { this.stderr += b.toString('utf8'); });
    this.proc.stdin.on('error', () => {}); // EPIPE after the server exited: the test sees the exit
    this.exit = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
    });
    this.stopped = false;
    allServers.push(this);
  }

  get pid() {
    return this.proc.pid;
  }

  /** Writes bytes as they are (no newline added). */
  write(data) {
    this.proc.stdin.write(data);
  }

  /** Writes one message line: a string as is, anything else as JSON. */
  send(msg) {
    const text = typeof msg === 'string' ? msg : JSON.stringify(msg);
    this.wire.noteSent(text);
    this.write(text + '\n');
  }

  /** The text of a request line with the raw id `rawId`. */
  requestLine(method, params, rawId) {
    let s = `{"jsonrpc":"2.0","id":${rawId},"method":${JSON.stringify(method)}`;
    if (params !== undefined) s += `,"params":${JSON.stringify(params)}`;
    return s + '}';
  }

  /** Sends a request and resolves with its reply's line entry ({raw, msg, rev}). */
  async request(method, params, { id, timeout = 10000 } = {}) {
    const rawId = id ?? String(this.nextId++);
    const from = this.wire.lines.length;
    this.send(this.requestLine(method, params, rawId));
    return this.wire.response(rawId, { timeout, from });
  }

  /** A 2026-07-28 stateless request (per-request _meta). */
  modern(method, params = {}, { meta, ...opts } = {}) {
    return this.request(method, { ...params, _meta: modernMeta(meta) }, opts);
  }

  /** initialize + notifications/initialized; resolves with the result. */
  async initialize(protocolVersion = '2025-11-25') {
    const r = await this.request('initialize', {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'e2e-raw', version: '1.0.0' },
    });
    if (!r.msg.result) throw new Error(`${this.label}: initialize failed: ${r.raw}`);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r.msg.result;
  }

  /** Sends a tools/call of execute_code without waiting for its reply (it may never come). */
  post(code, { timeoutMs, id, meta } = {}) {
    const args = { code };
    if (timeoutMs !== undefined) args.timeoutMs = timeoutMs;
    const params = { name: 'execute_code', arguments: args };
    if (meta) params._meta = meta;
    this.send(this.requestLine('tools/call', params, id ?? String(this.nextId++)));
  }

  /** tools/call of execute_code in the current legacy session (or modern with opts.modern). */
  call(code, { timeoutMs, meta, modern = false, id, timeout = 20000 } = {}) {
    const args = { code };
    if (timeoutMs !== undefined) args.timeoutMs = timeoutMs;
    const params = { name: 'execute_code', arguments: args };
    if (modern) return this.modern('tools/call', params, { meta, id, timeout });
    if (meta) params._meta = meta;
    return this.request('tools/call', params, { id, timeout });
  }

  /** The lines received from index `from` on. */
  linesSince(from) {
    return this.wire.lines.slice(from);
  }

  get mark() {
    return this.wire.lines.length;
  }

  /** Closes stdin and waits for the exit (SIGKILL after `timeout` ms). */
  async stop({ timeout = 5000 } = {}) {
    if (!this.stopped) {
      this.stopped = true;
      this.proc.stdin.end();
    }
    return this.waitExit(timeout);
  }

  async waitExit(timeout = 5000) {
    let timer;
    const t = new Promise((resolve) => { timer = setTimeout(() => resolve(null), timeout); });
    const r = await Promise.race([this.exit, t]);
    clearTimeout(timer);
    if (r === null) {
      this.proc.kill('SIGKILL');
      const k = await this.exit;
      return { ...k, timedOut: true };
    }
    return r;
  }
}

/** Starts a server; the audit stops it at the end of the file. */
export function startServer(args = [], opts = {}) {
  return new RawServer(args, opts);
}
