// The servers under benchmark: mcp-codemode at a given --pool-size, and the
// Node reference (ref_vm_server.mjs). Each is {name, kind, command, args, env}.
// Also: waiting until a server's tree is idle (its pool full) before measuring.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tree } from './proc.mjs';
import { sleep, nowMs } from './clock.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const BIN = process.env.MCP_CODEMODE_BIN || resolve(here, '../../../build/mcp-codemode');
export const REF = resolve(here, '../ref_vm_server.mjs');

function cleanEnv() {
    const env = { ...process.env };
    delete env.MCP_CODEMODE_CONFIG; // no downstream servers: measure the server itself
    return env;
}

/** mcp-codemode at a pool size; `bin` and `label` name another build (e.g. a baseline). */
export function ours(poolSize, bin = BIN, label = 'ours') {
    return {
        name: `${label === 'ours' ? 'mcp-codemode' : `${label} (${bin})`} --pool-size ${poolSize}`,
        short: `${label} pool ${poolSize}`,
        kind: 'ours',
        poolSize,
        command: bin,
        args: ['--stdio', '--pool-size', String(poolSize)],
        env: cleanEnv(),
    };
}

export function ref() {
    return {
        name: 'reference Node server (SDK McpServer + node:vm)',
        short: 'ref node:vm',
        kind: 'ref',
        command: process.execPath,
        args: [REF],
        env: cleanEnv(),
    };
}

/** Live workers in an mcp-codemode tree (server -> zygote -> workers). */
export function liveWorkers(pid) {
    return tree(pid).filter((p) => p.depth === 2).length;
}

/**
 * Waits until the server is idle: for ours, the zygote holds poolSize live
 * workers for `settleMs`; for the reference, `settleMs` of quiet. Resolves the
 * time waited in ms, or throws after timeoutMs.
 */
export async function waitIdle(target, pid, settleMs = 300, timeoutMs = 10000) {
    const t0 = nowMs();
    if (target.kind !== 'ours') {
        await sleep(settleMs);
        return nowMs() - t0;
    }
    let fullSince = null;
    while (nowMs() - t0 < timeoutMs) {
        const full = liveWorkers(pid) >= target.poolSize;
        if (!full) fullSince = null;
        else if (fullSince === null) fullSince = nowMs();
        else if (nowMs() - fullSince >= settleMs) return nowMs() - t0;
        await sleep(10);
    }
    throw new Error(`${target.name}: the pool did not fill to ${target.poolSize} workers in ${timeoutMs} ms`);
}
