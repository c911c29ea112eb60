// The machine's price for a process per execution, measured in the same run
// (tests/bench/machine_probe.c, built by scripts/run-bench.sh into
// $B/bench/machine_probe): a system call, a bare fork + exit + wait, and the
// first touches of pages in a new process. On the earlier stops' hosts
// (hardware virtualisation) a whole worker's fork and exit cost ~0.27 ms; on
// a host that shadows page tables (a PVM guest) a bare fork + exit of a
// 2 MiB process alone costs ~0.8 ms and each page a new process touches
// 3-15 us, so the same build's per-call figures move by 10x with the host,
// not with the code. It also times a pipe round trip between two processes
// on one CPU and on two: where waking the other, idle, vCPU is dear, a
// sequential tool call pays it at each hand-off (docs/benchmarks.md, call
// colocation). Benchmarks print this line first so their ratios can be read.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const PROBE = process.env.BENCH_MACHINE_PROBE || resolve(here, '../../../build/bench/machine_probe');

/** Resolves the probe's figures ({syscallUs, forkExitUs, firstReadUs, ...}), or null without it. */
export function probeMachine(rounds = 5) {
    if (!existsSync(PROBE)) return Promise.resolve(null);
    return new Promise((ok) => {
        execFile(PROBE, [String(rounds)], { timeout: 120000 }, (err, stdout) => {
            if (err) return ok(null);
            try {
                ok(JSON.parse(stdout));
            } catch {
                ok(null);
            }
        });
    });
}

/** One line for a report's header. */
export function describeMachine(m) {
    if (!m) return 'machine probe: not built or it failed (scripts/run-bench.sh builds it; run it alone to see why)';
    return `machine probe (medians of ${m.rounds}): system call ${m.syscallUs.toFixed(2)} us; ` +
        `fork + exit + wait of a 2 MiB process ${(m.forkExitUs / 1000).toFixed(3)} ms; ` +
        `in a new process, per page: first read ${m.firstReadUs.toFixed(1)} us, copy-on-write ${m.firstWriteUs.toFixed(1)} us, ` +
        `fresh page ${m.freshPageUs.toFixed(1)} us` +
        (m.pingSameCpuUs > 0 ? `; pipe round trip between two processes: on one CPU ${m.pingSameCpuUs.toFixed(1)} us` +
            (m.pingTwoCpusUs > 0 ? `, on two CPUs ${m.pingTwoCpusUs.toFixed(1)} us` : '') : '');
}
