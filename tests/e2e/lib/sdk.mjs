// The official SDK client (Client + StdioClientTransport) connected to the
// binary, with every byte the server writes on stdout also fed to a Wire, so
// the SDK tests' traffic is schema-validated like the raw tests'.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from './paths.mjs';
import { Wire } from './wire.mjs';

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

/**
 * Connects a Client (default protocol version of the SDK) to a new server
 * process with `args`. Returns {client, transport, wire, pid, stderr(), close()}.
 * `env` and `cwd` go to the transport as they are: without `env` the SDK
 * passes only its safe list (HOME, LOGNAME, PATH, SHELL, TERM, USER).
 */
export async function connectSdk(args = [], { label = 'sdk', capabilities = {}, env, cwd } = {}) {
  const wire = new Wire(label);
  const transport = new RecordingTransport({ command: BIN, args, stderr: 'pipe', env, cwd }, wire);
  let stderr = '';
  transport.stderr.on('data', (b) => { stderr += b.toString('utf8'); });
  const errors = [];
  const client = new Client({ name: 'e2e-sdk', version: '1.0.0' }, { capabilities });
  // Set before connect(), which chains its own handler after this one: any
  // stdout line the SDK could not parse lands here.
  transport.onerror = (e) => { errors.push(e); };
  await client.connect(transport);
  const handle = {
    client,
    transport,
    wire,
    errors,
    pid: transport.pid,
    stderr: () => stderr,
    closed: false,
    async close() {
      if (handle.closed) return;
      handle.closed = true;
      await client.close();
      await transport.exit;
    },
  };
  allSdkClients.push(handle);
  return handle;
}
