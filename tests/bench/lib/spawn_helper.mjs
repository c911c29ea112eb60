// Runs the C spawn-to-initialize timer (tests/bench/spawn_init.c, built by
// scripts/run-bench.sh into $B/bench/spawn_init) for one server. It spawns
// with posix_spawn, so the figures exclude the cost of forking a large Node
// client, which the Node raw client's figures include.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const SPAWN_INIT = process.env.BENCH_SPAWN_INIT || resolve(here, '../../../build/bench/spawn_init');

export const spawnHelperAvailable = () => existsSync(SPAWN_INIT);

/** Resolves [{initMs, firstResultMs}] for `runs` spawns of target; rejects when a run failed. */
export function spawnInitC(target, runs) {
    return new Promise((resolvePromise, reject) => {
        execFile(SPAWN_INIT, [String(runs), '--', target.command, ...target.args], { env: target.env, timeout: 60000 },
            (err, stdout, stderr) => {
                if (err) return reject(new Error(`spawn_init: ${err.message}; ${stderr.slice(-1000)}`));
                resolvePromise(stdout.trim().split('\n').map((l) => {
                    const [a, b] = l.split(' ').map(Number);
                    return { initMs: a, firstResultMs: b };
                }));
            });
    });
}
