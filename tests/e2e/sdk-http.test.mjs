// The execute_code cases of lib/sdk-cases.mjs, the same the stdio SDK client
// runs in sdk-client.test.mjs, over HTTP: the official SDK's
// StreamableHTTPClientTransport (/mcp, a 2025-11-25 session) and
// SSEClientTransport (the legacy /sse transport). One server per transport.
// What differs from stdio is described at the top of sdk-cases.mjs; the
// HTTP-only rules (statuses, sessions, disconnects) are in http-*.test.mjs.
import { describe } from 'node:test';
import { auditSchemas } from './lib/audit.mjs';
import { executeCodeCases } from './lib/sdk-cases.mjs';

describe('Streamable HTTP (StreamableHTTPClientTransport)', () => executeCodeCases('streamable-http'));

describe('legacy HTTP+SSE (SSEClientTransport)', () => executeCodeCases('sse'));

auditSchemas({ minMessages: 60 });
