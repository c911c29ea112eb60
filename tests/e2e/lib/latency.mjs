// How long the server takes to answer a ping while something else happens:
// the checks that its loop is never held up. On a shared machine one ping
// can be late for reasons of the machine's own (the scheduler, another
// process); these measures are built so that such a ping does not decide.
import { sleep } from './raw.mjs';

/**
 * The median latency (ms) of 5 pings sent 40 ms apart without waiting for
 * one another (ping() sends one and resolves with its answer): a loop
 * blocked throughout a window delays every one of them (all are sent within
 * 200 ms), while one ping delayed by the shared machine does not decide.
 */
export async function pingMedian(ping) {
  const one = async (delay) => {
    await sleep(delay);
    const t0 = performance.now();
    await ping();
    return performance.now() - t0;
  };
  const all = (await Promise.all([0, 40, 80, 120, 160].map(one))).sort((x, y) => x - y);
  return all[2];
}

/**
 * Pings one after another (2 ms apart) while work() runs: resolves with
 * { value: work()'s value, worst: the longest ping in ms }.
 */
export async function worstPingDuring(ping, work) {
  let done = false;
  let worst = 0;
  const pinger = (async () => {
    while (!done) {
      const t0 = performance.now();
      await ping();
      worst = Math.max(worst, performance.now() - t0);
      await sleep(2);
    }
  })();
  let value;
  try {
    value = await work();
  } finally {
    done = true;
    await pinger; // the ping in flight counts too
  }
  return { value, worst };
}
