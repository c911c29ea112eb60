// Where things are: the repository root, the binary under test
// (MCP_CODEMODE_BIN, relative to the working directory, else
// build/mcp-codemode in the repository) and the
// MCP JSON Schemas vendored under tests/data/mcp-schema.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const BIN = process.env.MCP_CODEMODE_BIN
  ? path.resolve(process.env.MCP_CODEMODE_BIN) // relative to the working directory
  : path.join(REPO_ROOT, 'build/mcp-codemode');

export const SCHEMA_DIR = path.join(REPO_ROOT, 'tests/data/mcp-schema');

if (!existsSync(BIN)) {
  throw new Error(`mcp-codemode binary not found at ${BIN}: run make, or set MCP_CODEMODE_BIN`);
}
