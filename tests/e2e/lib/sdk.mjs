// The official SDK client connected to the binary over one of its three
// transports: stdio (StdioClientTransport; every byte the server writes on
// stdout is also fed to a Wire), Streamable HTTP (StreamableHTTPClientTransport
// at /mcp) or legacy HTTP+SSE (SSEClientTransport at /sse), both against a
// server started with --http 127.0.0.1:0 and with every message recorded by
// http.mjs's recordingFetch. Either way the SDK tests' traffic is
// schema-validated like the raw tests'.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServer, recordingFetch } from './http.mjs';
import { BIN } from './paths.mjs';
import { Wire } from './wire.mjs';

/** The transports connectSdk() knows. */
export const SDK_TRANSPORTS = ['stdio', 'streamable-http', 'sse'];

export const allSdkClients = [];

/**
 * StdioClientTransport that also records stdout. start() resolves on the
 * child's 'spawn' event, before any stdout data can have been read and before
 * the Client writes initialize, so attaching our listener right after
 * super.start() sees every byte. `_process` is the SDK's (private) child
 * handle: if a new SDK version renames it, start() throws and says so.
 */
class RecordingTransport extends StdioClientTransport {
  constructor(params, wire) {
    super(params);
    this.wire = wire;
  }

  async start() {
    await super.start();
    const child = this._process;
    if (!child || !child.stdout) throw new Error('RecordingTransport: the SDK transport has no _process.stdout');
    this.child = child;
    this.exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.stdout.on('data', (b) => this.wire.feed(b));
    child.stdout.on('end', () => this.wire.end());
  }

  async send(message, options) {
    this.wire.noteSent(message);
    return super.send(message, options);
  }
}

/** A server started with --http and an SDK transport to it: {transport, server, stderr(), stop()}. */
async function httpTransport(kind, args, label, wire) {
  const server = await HttpServer.start(args, { label: `${label} (server)` });
  const fetch = recordingFetch(server, wire);
  const transport = kind === 'sse'
    ? new SSEClientTransport(new URL(`${server.url}/sse`), { fetch })
    : new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { fetch });
  return { transport, server, stderr: () => server.stderr, stop: () => server.stop() };
}

/** A server process on stdio and its transport: {transport, stderr(), stop()}. */
function stdioTransport(args, env, cwd, wire) {
  // the SDK's safe list, and the test process's own state directory (paths.mjs)
  env ??= { ...getDefaultEnvironment(), XDG_STATE_HOME: process.env.XDG_STATE_HOME };
  const transport = new RecordingTransport({ command: BIN, args, stderr: 'pipe', env, cwd }, wire);
  let stderr = '';
  transport.stderr.on('data', (b) => { stderr += b.toString('utf8'); });
  return { transport, stderr: () => stderr, stop: () => transport.exit };
}

/**
 * Connects a Client (default protocol version of the SDK) to a new server
 * process with `args`, over `transport` (one of SDK_TRANSPORTS, default
 * stdio). Returns {client, transport, wire, pid, server, stderr(), close()}
 * (`server`: the HttpServer over HTTP, else undefined). `env` and `cwd` go to
 * the stdio transport as they are (without `env`: the SDK's safe list, HOME,
 * LOGNAME, PATH, SHELL, TERM, USER, plus paths.mjs's XDG_STATE_HOME); an
 * HTTP server inherits ours.
 * close() closes the client, then waits for the process to exit (stdio: on
 * EOF; HTTP: SIGTERM, then the drain).
 */
export async function connectSdk(args = [], { label = 'sdk', capabilities = {}, env, cwd, transport: kind = 'stdio' } = {}) {
  if (!SDK_TRANSPORTS.includes(kind)) throw new Error(`connectSdk: unknown transport ${kind}`);
  if (kind !== 'stdio' && (env || cwd)) throw new Error('connectSdk: env and cwd are for stdio servers only');
  const wire = new Wire(label);
  const t = kind === 'stdio' ? stdioTransport(args, env, cwd, wire) : await httpTransport(kind, args, label, wire);
  const { transport } = t;
  const errors = [];
  const client = new Client({ name: 'e2e-sdk', version: '1.0.0' }, { capabilities });
  // Set before connect(), which chains its own handler after this one: any
  // stdout line the SDK could not parse lands here. One exception: SDK 1.32's
  // StreamableHTTPClientTransport reports the abort of its own GET stream by
  // close() as "SSE stream disconnected: AbortError" (after close() returned).
  let handle;
  transport.onerror = (e) => {
    if (!(handle?.closed && kind !== 'stdio' && /AbortError/.test(String(e)))) errors.push(e);
  };
  await client.connect(transport);
  handle = {
    client,
    transport,
    kind,
    wire,
    errors,
    server: t.server,
    pid: t.server ? t.server.pid : transport.pid,
    stderr: t.stderr,
    closed: false,
    async close() {
      if (handle.closed) return;
      handle.closed = true;
      await client.close();
      await t.stop();
    },
  };
  allSdkClients.push(handle);
  return handle;
}
