// The official MCP conformance suite as both runners use it (run.mjs against
// our endpoint, auth.mjs against mcp-codemode as an OAuth client): the two
// pinned packages (tests/package.json), and one run of a package's CLI on
// Node 20 through node20-hook.mjs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The tests/ directory (the packages' node_modules are there). */
export const TESTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOOK = path.join(TESTS, 'conformance/node20-hook.mjs');

/** The two pinned packages: where each lives, and the version it must report. */
export const PACKAGES = {
  stable: { dir: 'node_modules/@modelcontextprotocol/conformance', version: '0.1.16' },
  alpha: { dir: 'node_modules/conformance-alpha', version: '0.2.0-alpha.12' },
};

/** Runs the CLI of package pkg; resolves with {code, out} (stdout and stderr together), killed after timeoutMs. */
export function cli(pkg, args, timeoutMs) {
  const main = path.join(TESTS, PACKAGES[pkg].dir, 'dist/index.js');
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', HOOK, main, ...args], {
      cwd: TESTS,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (b) => { out += b; });
    p.stderr.on('data', (b) => { out += b; });
    const timer = setTimeout(() => { out += `\n(killed after ${timeoutMs} ms)`; p.kill('SIGKILL'); }, timeoutMs);
    p.on('close', (code, signal) => { clearTimeout(timer); resolve({ code: code ?? signal, out }); });
  });
}
