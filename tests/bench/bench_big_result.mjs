// What a big result costs the host: a program returns an array of small
// numbers whose JSON is BENCH_RESULT_MB MiB (over maxResultBytes, so it
// comes whole and is stashed), while a client pings the server every 2 ms
// over the same stdio. Per round, a fresh server: the server's peak and
// final RSS (VmHWM, VmRSS of /proc/PID/status) and the slowest ping (how
// long the host's loop stood still on one message). Prints the medians over
// the rounds. A benchmark, not a test: the exit status is 1 only when
// something is broken.
//
// Knobs (env): BENCH_ROUNDS (5), BENCH_RESULT_MB (16), MCP_CODEMODE_BIN
// (default build/mcp-codemode).
import { readFileSync } from 'node:fs';
import { RawClient } from './lib/raw_client.mjs';
import { median } from './lib/stats.mjs';
import { BIN } from './lib/targets.mjs';
import { sleep } from './lib/clock.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MB = Number(process.env.BENCH_RESULT_MB ?? 16);

function statusKb(pid, key) {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) : NaN;
}

async function round() {
    const c = new RawClient(BIN, ['--memory-limit-mb', '512', '--pool-size', '1'], process.env);
    await c.initialize();
    await c.execute('return 1', '1');
    const base = statusKb(c.pid, 'VmRSS');
    // "1," per element: MB MiB of JSON
    const code = `return new Array(${(MB * 1048576) / 2}).fill(1)`;
    let done = false;
    let worst = 0;
    const pinger = (async () => {
        while (!done) {
            const r = await c.request('ping', {});
            worst = Math.max(worst, r.ms);
            await sleep(2);
        }
    })();
    const t0 = performance.now();
    const r = await c.request('tools/call', { name: 'execute_code', arguments: { code } });
    const ms = performance.now() - t0;
    done = true;
    await pinger;
    if (r.msg.result?.isError) throw new Error(JSON.stringify(r.msg.result).slice(0, 300));
    const hwm = statusKb(c.pid, 'VmHWM');
    const rss = statusKb(c.pid, 'VmRSS');
    await c.close();
    return { base, hwm, rss, worst, ms };
}

const rows = [];
for (let i = 0; i < ROUNDS; i++) {
    const r = await round();
    rows.push(r);
    console.log(`round ${i + 1}: base ${(r.base / 1024).toFixed(1)} MiB, peak ${(r.hwm / 1024).toFixed(1)} MiB, ` +
        `after ${(r.rss / 1024).toFixed(1)} MiB, slowest ping ${r.worst.toFixed(1)} ms, call ${r.ms.toFixed(0)} ms`);
}
const med = (k) => median(rows.map((r) => r[k]));
console.log(`${MB} MiB result, median of ${ROUNDS}: server RSS before ${(med('base') / 1024).toFixed(1)} MiB, ` +
    `peak ${(med('hwm') / 1024).toFixed(1)} MiB, after ${(med('rss') / 1024).toFixed(1)} MiB; ` +
    `slowest ping ${med('worst').toFixed(1)} ms; call ${med('ms').toFixed(0)} ms`);
