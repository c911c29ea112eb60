// The binary served over HTTP (`--http 127.0.0.1:0`, the bound URL read from
// the "listening on" line on stderr), a raw HTTP client (node:http, so Host,
// Origin and every other header can be set) that understands JSON and SSE
// replies, and a recording fetch for the official SDK transports. Every
// JSON-RPC message the server sends, in a JSON body or an SSE event, is fed to
// a Wire (wire.mjs) so the file's audit validates it like stdio output.
//
// One addition to the Wire's rules: an error the HTTP layer sends for a
// request it refused before any MCP server saw it (403, 404 for an unknown
// session, 405, 415, ...) has no id, as the transport pages allow ("MAY
// comprise a JSON-RPC error response that has no id"). Such bodies are not
// part of a session's JSON-RPC exchange: they go to a separate Wire of their
// own (no session, so validated against 2025-11-25, where the id is optional).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN } from './paths.mjs';
import { allServers } from './raw.mjs';
import { Wire } from './wire.mjs';

export const MODERN = '2026-07-28';
export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/** The per-request _meta of a 2026-07-28 request. */
export function modernMeta(extra = {}) {
  return { [PROTOCOL_VERSION_KEY]: MODERN, [CLIENT_CAPABILITIES_KEY]: {}, ...extra };
}

/** Writes a config file with `codemode` settings; returns its path. */
export function writeConfig(codemode, mcpServers = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-codemode-http-'));
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ mcpServers, codemode }));
  return file;
}

export class HttpServer {
  /** Use HttpServer.start(). */
  constructor(args, label, openFiles) {
    this.label = label;
    this.stderr = '';
    this.stopped = false;
    const argv = ['--http', '127.0.0.1:0', ...args];
    // openFiles: started under `ulimit -n openFiles` (soft and hard limit); exec keeps the pid
    this.proc = openFiles
      ? spawn('/bin/sh', ['-c', `ulimit -n ${Number(openFiles)} && exec "$0" "$@"`, BIN, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn(BIN, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.exit = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
    });
    this.listening = new Promise((resolve, reject) => {
      this.proc.stderr.on('data', (b) => {
        this.stderr += b.toString('utf8');
        const m = /listening on (http:\/\/\S+)/.exec(this.stderr);
        if (m && !this.url) {
          this.url = m[1];
          this.port = Number(new URL(this.url).port);
          resolve(this);
        }
      });
      this.exit.then((e) => reject(new Error(`${label}: exited (${e.code ?? e.signal}) before listening:\n${this.stderr}`)));
    });
    // HTTP-level refusals (no id) of every client of this server.
    this.transportWire = new Wire(`${label} (HTTP-level errors)`);
    allServers.push(this);
  }

  static async start(args = [], { label = 'http', openFiles } = {}) {
    const s = new HttpServer(args, label, openFiles);
    return s.listening;
  }

  get pid() {
    return this.proc.pid;
  }

  /** What was wrong with how the process ended (for the audit): a status other than 0, sanitizer reports. */
  async exitProblems() {
    const e = await this.exit;
    const out = [];
    if (e.code !== 0) out.push(`${this.label}: exited with ${e.code ?? e.signal}`);
    if (/Sanitizer|runtime error:/.test(this.stderr)) out.push(`${this.label}: sanitizer report on stderr:\n${this.stderr.slice(0, 2000)}`);
    return out;
  }

  /** SIGTERM, then waits for the exit (the drain may take up to its deadline). */
  async stop() {
    if (!this.stopped) {
      this.stopped = true;
      this.proc.kill('SIGTERM');
    }
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 15000);
    const e = await this.exit;
    clearTimeout(timer);
    return e;
  }
}

/** Parses an event stream incrementally: feed(text) returns complete events. */
export class SseParser {
  constructor() {
    this.buf = '';
  }

  feed(text) {
    this.buf += text;
    const events = [];
    let end;
    while ((end = this.buf.search(/\r?\n\r?\n/)) >= 0) {
      const block = this.buf.slice(0, end);
      this.buf = this.buf.slice(end).replace(/^\r?\n\r?\n/, '');
      const ev = { event: undefined, data: [], comments: [] };
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(':')) ev.comments.push(line.slice(1));
        else if (line.startsWith('data:')) ev.data.push(line.slice(5).replace(/^ /, ''));
        else if (line.startsWith('event:')) ev.event = line.slice(6).trim();
      }
      events.push({ event: ev.event, data: ev.data.length ? ev.data.join('\n') : undefined, comments: ev.comments });
    }
    return events;
  }
}

/** Feeds a JSON-RPC body to the right wire (see the file comment). */
function record(text, status, wire, transportWire) {
  let v;
  try {
    v = JSON.parse(text);
  } catch {
    wire.feed(Buffer.from(text + '\n')); // reported as "not JSON" by the wire
    return;
  }
  const idless = v && typeof v === 'object' && !Array.isArray(v) && 'error' in v && !('id' in v);
  (status >= 400 && idless && transportWire ? transportWire : wire).feed(Buffer.from(JSON.stringify(v) + '\n'));
}

function feedEvents(events, wire) {
  for (const e of events) {
    if (e.data === undefined || (e.event && e.event !== 'message')) continue;
    wire.feed(Buffer.from(e.data + '\n'));
  }
}

/**
 * One raw HTTP request. Resolves once the head arrived with
 * {status, headers, done}; `done` resolves with the whole body (text,
 * json, events) when the response ends. opts.onEvent(ev) sees SSE events as
 * they arrive; opts.signal aborts; opts.wire records JSON-RPC messages (by
 * default one wire per server for all such one-off requests).
 */
export function request(server, { method = 'POST', path: p = '/mcp', headers = {}, body, wire, onEvent, signal, host } = {}) {
  wire ??= server.requestWire ??= new Wire(`${server.label} (one-off requests)`);
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  if (wire && text !== undefined) wire.noteSent(text);
  const h = { Host: host ?? `127.0.0.1:${server.port}`, ...headers };
  if (text !== undefined) h['Content-Length'] = Buffer.byteLength(text);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method, path: p, headers: h, agent: false, signal, setHost: false }, (res) => {
      const isSse = /^text\/event-stream/.test(res.headers['content-type'] ?? '');
      const parser = new SseParser();
      const events = [];
      let raw = '';
      const done = new Promise((ok, fail) => {
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          raw += chunk;
          if (!isSse) return;
          const evs = parser.feed(chunk);
          events.push(...evs);
          if (wire) feedEvents(evs, wire);
          for (const e of evs) onEvent?.(e);
        });
        res.on('end', () => {
          let json;
          if (!isSse && raw.length && /json/.test(res.headers['content-type'] ?? '')) {
            record(raw, res.statusCode, wire, server.transportWire);
            try { json = JSON.parse(raw); } catch { json = undefined; }
          }
          ok({ text: raw, json, events });
        });
        res.on('error', fail);
        res.on('aborted', () => fail(new Error('response aborted')));
      });
      done.catch(() => {});
      resolve({ status: res.statusCode, headers: res.headers, done, res });
    });
    req.on('error', reject);
    if (text !== undefined) req.write(text);
    req.end();
  });
}

/** request() and wait for the whole body: {status, headers, text, json, events}. */
export async function fetchAll(server, opts) {
  const r = await request(server, opts);
  const b = await r.done;
  return { status: r.status, headers: r.headers, ...b };
}

export const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** The messages of a reply, JSON or SSE: the JSON-RPC objects in order. */
export function messagesOf(reply) {
  if (reply.json !== undefined) return [reply.json];
  return reply.events.filter((e) => e.data !== undefined && (!e.event || e.event === 'message')).map((e) => JSON.parse(e.data));
}

/** A raw 2025 session: initialize (+ initialized) at /mcp. */
export class RawSession {
  constructor(server, version, label) {
    this.server = server;
    this.version = version;
    this.wire = new Wire(label ?? `${server.label} session ${version}`);
    this.nextId = 1;
  }

  static async open(server, version = '2025-11-25', label, capabilities = {}) {
    const s = new RawSession(server, version, label);
    const r = await fetchAll(server, {
      headers: JSON_HEADERS,
      body: { jsonrpc: '2.0', id: s.nextId++, method: 'initialize', params: { protocolVersion: version, capabilities, clientInfo: { name: 'e2e-http', version: '1.0.0' } } },
      wire: s.wire,
    });
    if (r.status !== 200) throw new Error(`initialize: HTTP ${r.status}: ${r.text}`);
    s.initResult = messagesOf(r)[0].result;
    s.id = r.headers['mcp-session-id'];
    const n = await s.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (n.status !== 202) throw new Error(`initialized: HTTP ${n.status}`);
    return s;
  }

  headers(extra = {}) {
    const h = { ...JSON_HEADERS, 'Mcp-Session-Id': this.id };
    if (this.version >= '2025-06-18') h['MCP-Protocol-Version'] = this.version;
    return { ...h, ...extra };
  }

  post(body, { headers, ...opts } = {}) {
    return fetchAll(this.server, { headers: this.headers(headers), body, wire: this.wire, ...opts });
  }

  /** A request; resolves with the whole reply plus its messages. */
  async call(method, params, opts) {
    const r = await this.post({ jsonrpc: '2.0', id: this.nextId++, method, ...(params ? { params } : {}) }, opts);
    return { ...r, messages: messagesOf(r) };
  }

  delete() {
    return fetchAll(this.server, { method: 'DELETE', headers: { 'Mcp-Session-Id': this.id } });
  }
}

/** A 2026-07-28 request with its headers; `wire` records it. */
export async function modernCall(server, wire, method, params = {}, { id = 1, headers = {}, meta = {} } = {}) {
  const h = { ...JSON_HEADERS, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...headers };
  if (params.name !== undefined && (method === 'tools/call' || method === 'prompts/get')) h['Mcp-Name'] ??= params.name;
  if (method === 'resources/read') h['Mcp-Name'] ??= params.uri;
  for (const [k, v] of Object.entries(h)) if (v === null) delete h[k];
  const r = await fetchAll(server, { headers: h, body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta(meta) } }, wire });
  return { ...r, messages: messagesOf(r) };
}

/**
 * A fetch for the SDK transports that records what goes out and what comes
 * back into `wire` (HTTP-level refusals into server.transportWire).
 */
export function recordingFetch(server, wire) {
  return async (url, init = {}) => {
    if (typeof init.body === 'string') wire.noteSent(init.body);
    const res = await fetch(url, init);
    if (!res.body || res.status === 204 || res.status === 304) return res;
    const type = res.headers.get('content-type') ?? '';
    const [mine, theirs] = res.body.tee();
    (async () => {
      const decoder = new TextDecoder();
      const parser = new SseParser();
      let raw = '';
      try {
        for await (const chunk of mine) {
          const t = decoder.decode(chunk, { stream: true });
          if (/^text\/event-stream/.test(type)) feedEvents(parser.feed(t), wire);
          else raw += t;
        }
      } catch { /* aborted by the client */ }
      if (/json/.test(type) && raw.length) record(raw, res.status, wire, server.transportWire);
    })();
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
