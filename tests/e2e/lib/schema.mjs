// Validation of server messages against the official MCP JSON Schema of a
// protocol revision (tests/data/mcp-schema/<rev>/schema.json): draft-07 files
// (2024-11-05 .. 2025-06-18) with ajv's default class, 2020-12 files
// (2025-11-25, 2026-07-28) with ajv/dist/2020. Every message is checked as a
// JSONRPCMessage, then as the specific type: a result against the result
// definition of the request's method, a notification against its definition,
// and (2026-07-28, where the schema defines them) an error against the
// definition of its code.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { SCHEMA_DIR } from './paths.mjs';

export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
export const MODERN = '2026-07-28';
export const LATEST_LEGACY = '2025-11-25';

/** Result definition per request method. */
const RESULT_DEFS = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/read': 'ReadResourceResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'server/discover': 'DiscoverResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

/** Definition of each notification a server may send. */
const NOTIFICATION_DEFS = {
  'notifications/progress': 'ProgressNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  'notifications/cancelled': 'CancelledNotification', // an approval request we gave up on
};

/** 2026-07-28 defines error objects per code (and two whole responses). */
const MODERN_ERROR_OBJECT_DEFS = {
  '-32700': 'ParseError',
  '-32600': 'InvalidRequestError',
  '-32601': 'MethodNotFoundError',
  '-32602': 'InvalidParamsError',
  '-32603': 'InternalError',
};
const MODERN_ERROR_RESPONSE_DEFS = {
  '-32020': 'HeaderMismatchError',
  '-32022': 'UnsupportedProtocolVersionError',
  '-32021': 'MissingRequiredClientCapabilityError',
};

const compiled = new Map();

function revisionSchema(rev) {
  if (!REVISIONS.includes(rev)) throw new Error(`unknown revision ${rev}`);
  let r = compiled.get(rev);
  if (r) return r;
  const schema = JSON.parse(readFileSync(path.join(SCHEMA_DIR, rev, 'schema.json'), 'utf8'));
  const draft07 = rev < '2025-11-25';
  const AjvClass = draft07 ? Ajv : Ajv2020;
  const ajv = new AjvClass({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(schema, 'mcp');
  const defsKey = draft07 ? 'definitions' : '$defs';
  const defs = schema[defsKey];
  const fns = new Map();
  r = {
    has: (name) => Object.hasOwn(defs, name),
    get(name) {
      let f = fns.get(name);
      if (!f) {
        if (!Object.hasOwn(defs, name)) throw new Error(`${rev}: no definition ${name}`);
        f = ajv.getSchema(`mcp#/${defsKey}/${name}`);
        fns.set(name, f);
      }
      return f;
    },
  };
  compiled.set(rev, r);
  return r;
}

function check(rs, name, value, where, errors) {
  const f = rs.get(name);
  if (!f(value)) {
    const detail = f.errors.slice(0, 6).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    errors.push(`${where} is not a valid ${name}: ${detail}`);
  }
}

/**
 * Validates one message (object) the server sent, in revision `rev`.
 * `request` is what we know of the request it answers or belongs to
 * ({method}), or undefined. Returns a list of problems (empty when valid).
 */
export function validateObject(rev, msg, request) {
  const rs = revisionSchema(rev);
  const errors = [];
  check(rs, 'JSONRPCMessage', msg, 'message', errors);
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return errors;
  if ('method' in msg) {
    if ('id' in msg) {
      // the one request we send: approvals of `ask` tools (docs/policy.md)
      if (msg.method === 'elicitation/create' && rs.has('ElicitRequest')) check(rs, 'ElicitRequest', msg, msg.method, errors);
      else errors.push(`the server sent a request (${msg.method}); it never should`);
      return errors;
    }
    const def = NOTIFICATION_DEFS[msg.method];
    if (!def || !rs.has(def)) errors.push(`unexpected notification ${msg.method} in ${rev}`);
    else check(rs, def, msg, msg.method, errors);
    return errors;
  }
  if ('result' in msg) {
    if (request === undefined) {
      errors.push('a result for an id no request of ours had');
      return errors;
    }
    // 2026-07-28: a tools/call may answer input_required (approvals, docs/policy.md)
    const inputRequired = request.method === 'tools/call' && msg.result?.resultType === 'input_required' && rs.has('InputRequiredResult');
    const def = inputRequired ? 'InputRequiredResult' : RESULT_DEFS[request.method];
    if (!def) errors.push(`no result is expected for method ${request.method}`);
    else if (!rs.has(def)) errors.push(`${request.method} has no result type in ${rev}`);
    else check(rs, def, msg.result, `result of ${request.method}`, errors);
    return errors;
  }
  if ('error' in msg && rev === MODERN && msg.error && typeof msg.error === 'object') {
    const code = String(msg.error.code);
    if (MODERN_ERROR_RESPONSE_DEFS[code]) check(rs, MODERN_ERROR_RESPONSE_DEFS[code], msg, `error ${code}`, errors);
    else if (MODERN_ERROR_OBJECT_DEFS[code]) check(rs, MODERN_ERROR_OBJECT_DEFS[code], msg.error, `error ${code}`, errors);
  }
  return errors;
}

/**
 * Validates a batch response (an array; 2025-03-26 only): the array as a
 * JSONRPCMessage, then each element with the request it answers.
 */
export function validateBatch(rev, arr, requestOf) {
  const rs = revisionSchema(rev);
  const errors = [];
  check(rs, 'JSONRPCMessage', arr, 'batch', errors);
  if (!rs.has('JSONRPCBatchResponse')) errors.push(`a batch response in ${rev}, which has no batches`);
  arr.forEach((m, i) => {
    for (const e of validateObject(rev, m, requestOf(m))) errors.push(`[${i}] ${e}`);
  });
  return errors;
}
