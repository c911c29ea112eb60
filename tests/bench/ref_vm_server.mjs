// Reference baseline for the benchmarks: the smallest honest Node code-mode
// MCP server. The pinned SDK's McpServer over stdio, one tool execute_code,
// each program run as the body of an async function in a fresh node:vm
// context (lib/ref_vm_tool.mjs). ref_vm_http_server.mjs serves the same over
// Streamable HTTP.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { registerExecuteCode } from './lib/ref_vm_tool.mjs';

const server = new McpServer({ name: 'ref-vm-server', version: '1.0.0' });
registerExecuteCode(server);
await server.connect(new StdioServerTransport());
