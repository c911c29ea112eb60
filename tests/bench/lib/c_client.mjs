// Runs the C stdio client (tests/bench/stdio_client.c, built by
// scripts/run-bench.sh into $B/bench/stdio_client) against one server. It
// spawns with posix_spawn, so spawn figures exclude the cost of forking a
// large Node client; it adds almost nothing to call latency; and it reaps
// the server with wait4, so it reports the CPU time of the server's whole
// tree (server, zygote, workers), which the machine's load barely changes.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const C_CLIENT = process.env.BENCH_C_CLIENT || resolve(here, '../../../build/bench/stdio_client');

export const cClientAvailable = () => existsSync(C_CLIENT);

/**
 * Resolves [{initMs, firstResultMs, cpuMs, calls: [ms...]}], one per run of
 * spawn, initialize, one call, `calls` timed calls, EOF; rejects when a run failed.
 */
export function runCClient(target, runs, calls) {
    return new Promise((resolvePromise, reject) => {
        const args = [String(runs), String(calls), '--', target.command, ...target.args];
        execFile(C_CLIENT, args, { env: target.env, timeout: 600000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
            if (err) return reject(new Error(`stdio_client: ${err.message}; ${stderr.slice(-1000)}`));
            const out = [];
            for (const line of stdout.trim().split('\n')) {
                const [kind, ...nums] = line.split(' ');
                if (kind === 'run') {
                    const [initMs, firstResultMs, cpuMs] = nums.map(Number);
                    out.push({ initMs, firstResultMs, cpuMs, calls: [] });
                } else if (kind === 'calls') {
                    out.at(-1).calls = nums.map(Number);
                }
            }
            resolvePromise(out);
        });
    });
}
