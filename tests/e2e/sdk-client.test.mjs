// The official TypeScript SDK client (@modelcontextprotocol/sdk Client +
// StdioClientTransport, default protocol version) against the binary over
// stdio: the execute_code cases of lib/sdk-cases.mjs (connect, listTools,
// callTool results and errors, console capture, timeouts, progress, logging
// notifications, concurrency, cancellation). sdk-http.test.mjs runs the same
// cases over Streamable HTTP and legacy SSE. One server for the file.
import { auditSchemas } from './lib/audit.mjs';
import { executeCodeCases } from './lib/sdk-cases.mjs';

executeCodeCases('stdio');

auditSchemas();
