// The record of one server's stdout: splits the bytes into lines, checks each
// line (valid UTF-8, exactly one JSON value, no CR), classifies it by the
// protocol revision it belongs to, validates it against that revision's
// schema, and lets tests wait for lines. Both the raw client (raw.mjs) and the
// SDK client (sdk.mjs) feed one of these, so every message the server emits
// anywhere in the suite is validated; audit.mjs checks the totals per file.
//
// Which revision a message belongs to:
//  - a reply to a request that carried _meta["io.modelcontextprotocol/protocolVersion"]
//    (a 2026-07-28 stateless request): 2026-07-28;
//  - the reply to initialize: the version it negotiated (from then on, the
//    session's revision);
//  - any other message: the session's revision, or, before any initialize,
//    "none", validated against 2025-11-25 (the server answers sessionless
//    legacy requests, such as ping before initialize, as 2025-11-25);
//  - notifications/progress: the revision of the request whose progressToken
//    it carries; notifications/message: 2026-07-28 while a modern request that
//    asked for a logLevel is unanswered, else the session's revision.
//
// The one explicit exception: an error reply whose id the server could not
// know (a parse error, an invalid id, a rejected batch, an oversized message
// without a readable id) is written with "id":null in a session older than
// 2025-11-25, as JSON-RPC 2.0 asks; the schemas of those revisions require the
// id to be a string or a number, so such a message cannot validate. It is
// counted in `excluded` instead (checked structurally), and every test that
// provokes one declares it in `expectExcluded`; the audit compares the counts.
import { StringDecoder } from 'node:string_decoder';
import { LATEST_LEGACY, MODERN, validateBatch, validateObject } from './schema.mjs';

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';
const RAW_ID = /^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/;

/** The exact text of a message's id when it leads the line, else its JSON. */
export function rawIdOf(line, parsed) {
  const m = RAW_ID.exec(line);
  if (m) return m[1];
  return parsed && (typeof parsed.id === 'string' || typeof parsed.id === 'number') ? JSON.stringify(parsed.id) : undefined;
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

export const allWires = [];

export class Wire {
  /** `register: false` keeps a wire out of the file's audit (self-tests). */
  constructor(label, { register = true } = {}) {
    this.label = label;
    this.session = null;       // negotiated legacy revision
    this.pending = new Map();  // raw id text -> {method, modern, token, logLevel, answered}
    this.sent = [];            // requests in the order sent: {raw, method}
    this.lines = [];           // {raw, msg, rev, t, request}
    this.problems = [];        // anything wrong with the output
    this.excluded = [];        // null-id errors of pre-2025-11-25 sessions (see above)
    this.expectExcluded = 0;
    this.validated = 0;
    this.partial = Buffer.alloc(0);
    this.ended = false;
    this.waiters = new Set();
    if (register) allWires.push(this);
  }

  /** Registers what we sent: requests are remembered by raw id text. */
  noteSent(text) {
    let v;
    try {
      v = typeof text === 'string' ? JSON.parse(text) : text;
    } catch {
      return;
    }
    const items = Array.isArray(v) ? v : [v];
    for (const m of items) {
      if (!m || typeof m !== 'object' || typeof m.method !== 'string') continue;
      if (typeof m.id !== 'string' && typeof m.id !== 'number') continue;
      const raw = items.length === 1 && typeof text === 'string' ? rawIdOf(text, m) : JSON.stringify(m.id);
      const meta = m.params && typeof m.params === 'object' ? m.params._meta : undefined;
      const modern = !!meta && typeof meta === 'object' && PROTOCOL_VERSION_KEY in meta;
      const token = meta && meta.progressToken !== undefined ? JSON.stringify(meta.progressToken) : undefined;
      this.sent.push({ raw, method: m.method });
      this.pending.set(raw, { method: m.method, modern, token, logLevel: modern && meta[LOG_LEVEL_KEY] !== undefined, answered: false });
    }
  }

  feed(chunk) {
    let data = this.partial.length ? Buffer.concat([this.partial, chunk]) : chunk;
    let nl;
    while ((nl = data.indexOf(0x0a)) >= 0) {
      this.onLine(data.subarray(0, nl));
      data = data.subarray(nl + 1);
    }
    this.partial = Buffer.from(data);
  }

  end() {
    if (this.partial.length) this.problem(`stdout ended inside a line: ${this.partial.toString('utf8').slice(0, 200)}`);
    this.partial = Buffer.alloc(0);
    this.ended = true;
    for (const w of this.waiters) w.check();
  }

  problem(text) {
    this.problems.push(text);
  }

  onLine(bytes) {
    let raw;
    try {
      raw = fatalDecoder.decode(bytes);
    } catch {
      raw = new StringDecoder('utf8').end(bytes);
      this.problem(`a stdout line is not valid UTF-8: ${raw.slice(0, 200)}`);
    }
    if (raw.endsWith('\r')) this.problem('a stdout line ends with CR');
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch {
      this.problem(`a stdout line is not JSON: ${JSON.stringify(raw.slice(0, 200))}`);
    }
    const entry = { raw, msg, rev: undefined, t: Date.now(), request: undefined };
    if (msg !== undefined) this.classify(entry);
    this.lines.push(entry);
    for (const w of this.waiters) w.check();
  }

  effective(rev) {
    return rev === 'none' ? LATEST_LEGACY : rev;
  }

  classify(e) {
    const msg = e.msg;
    if (Array.isArray(msg)) {
      e.rev = this.session ?? 'none';
      const requestOf = (m) => this.answer(m && typeof m === 'object' ? JSON.stringify(m.id) : undefined);
      this.report(e, validateBatch(this.effective(e.rev), msg, requestOf));
      return;
    }
    if (msg === null || typeof msg !== 'object') {
      this.problem(`a stdout line is JSON but not an object: ${e.raw.slice(0, 200)}`);
      return;
    }
    if (typeof msg.method === 'string') {
      this.classifyNotification(e);
    } else {
      this.classifyResponse(e);
    }
    if ('error' in msg && msg.id === null && this.effective(e.rev) < '2025-11-25') {
      this.excluded.push(e);
      if (typeof msg.error?.code !== 'number' || typeof msg.error?.message !== 'string' || msg.jsonrpc !== '2.0')
        this.problem(`a null-id error is malformed: ${e.raw}`);
      return;
    }
    this.report(e, validateObject(this.effective(e.rev), msg, e.request));
  }

  /** Marks the request answered by id `raw` (once) and returns it. */
  answer(raw) {
    const req = raw === undefined ? undefined : this.pending.get(raw);
    if (req) {
      if (req.answered) this.problem(`a second response for id ${raw}`);
      req.answered = true;
    }
    return req;
  }

  classifyResponse(e) {
    const req = this.answer(rawIdOf(e.raw, e.msg));
    e.request = req;
    if (req && req.method === 'initialize' && e.msg.result && typeof e.msg.result.protocolVersion === 'string' && !req.modern) {
      this.session = e.msg.result.protocolVersion;
    }
    e.rev = req && req.modern ? MODERN : this.session ?? 'none';
  }

  classifyNotification(e) {
    const msg = e.msg;
    if (msg.method === 'notifications/progress') {
      const token = msg.params ? JSON.stringify(msg.params.progressToken) : undefined;
      const req = [...this.pending.values()].find((r) => r.token !== undefined && r.token === token);
      if (!req) this.problem(`progress for an unknown token ${token}`);
      else if (req.answered) this.problem(`progress for token ${token} after its response`);
      e.request = req;
      e.rev = req && req.modern ? MODERN : this.session ?? 'none';
      return;
    }
    if (msg.method === 'notifications/message') {
      const modern = [...this.pending.values()].some((r) => r.modern && r.logLevel && !r.answered);
      e.rev = modern ? MODERN : this.session ?? 'none';
      return;
    }
    e.rev = this.session ?? 'none';
  }

  report(e, errors) {
    this.validated++;
    for (const err of errors) this.problem(`[${e.rev}] ${err}\n    line: ${e.raw.slice(0, 400)}`);
  }

  /**
   * Resolves with the first line (from index `from`) that satisfies `pred`;
   * rejects after `timeout` ms or when stdout ends first.
   */
  waitFor(pred, { from = 0, timeout = 10000, what = 'a matching line' } = {}) {
    return new Promise((resolve, reject) => {
      const w = {
        check: () => {
          for (let i = from; i < this.lines.length; i++) {
            if (pred(this.lines[i])) {
              done();
              resolve(this.lines[i]);
              return;
            }
          }
          if (this.ended) {
            done();
            reject(new Error(`${this.label}: stdout ended before ${what}`));
          }
        },
      };
      const timer = setTimeout(() => {
        done();
        const tail = this.lines.slice(-5).map((l) => l.raw.slice(0, 300)).join('\n  ');
        reject(new Error(`${this.label}: no ${what} within ${timeout} ms; last lines:\n  ${tail}`));
      }, timeout);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(w);
      };
      this.waiters.add(w);
      w.check();
    });
  }

  /** The response line to the request with raw id `raw`. */
  response(raw, opts = {}) {
    return this.waitFor((l) => l.msg && typeof l.msg === 'object' && !Array.isArray(l.msg) && !('method' in l.msg) && rawIdOf(l.raw, l.msg) === raw,
      { what: `the response to id ${raw}`, ...opts });
  }
}
