// Where things are: the repository root, the binary under test
// (MCP_CODEMODE_BIN, relative to the working directory, else
// build/mcp-codemode in the repository) and the
// MCP JSON Schemas vendored under tests/data/mcp-schema. Also gives every
// test process its own XDG_STATE_HOME (removed at exit), so that servers
// without a codemode.state.path keep their state, skills and learned result
// types there, never in the user's ~/.local/state nor shared between test
// files running at once.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
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

if (!process.env.MCP_CODEMODE_E2E_STATE_HOME) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'codemode-e2e-state-'));
  process.env.MCP_CODEMODE_E2E_STATE_HOME = dir; // set once per test process
  process.env.XDG_STATE_HOME = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}
