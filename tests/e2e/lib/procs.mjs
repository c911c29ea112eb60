// /proc helpers: the process tree below a server (server -> zygote ->
// workers) and which worker is running a program.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { sleep } from './raw.mjs';

function readStat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    const fields = s.slice(close + 2).split(' ');
    // fields[11], fields[12]: utime, stime (clock ticks)
    return { pid, state: fields[0], ppid: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // gone
  }
}

/** Live children of `pid`. */
export function childrenOf(pid) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(Number(name));
    if (st && st.ppid === pid && st.state !== 'Z') out.push(st.pid);
  }
  return out;
}

export function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The zygote of a server process (its child started with __zygote). */
export function zygoteOf(serverPid) {
  const z = childrenOf(serverPid).filter((p) => cmdline(p).includes('__zygote'));
  if (z.length !== 1) throw new Error(`expected one zygote under ${serverPid}, found ${z.length}`);
  return z[0];
}

export function isAlive(pid) {
  const st = readStat(pid);
  return st !== null && st.state !== 'Z';
}

/** Context switches plus CPU ticks: grows while a process does anything. */
function activity(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const v = /\nvoluntary_ctxt_switches:\s+(\d+)/.exec(s);
    const n = /nonvoluntary_ctxt_switches:\s+(\d+)/.exec(s);
    const st = readStat(pid);
    return Number(v[1]) + Number(n[1]) + (st ? st.cpu : 0);
  } catch {
    return -1;
  }
}

/**
 * The workers (grandchildren of the server, via the zygote) that are running
 * a program. Idle workers of the pool sit blocked in one read() and never
 * wake; a running worker either burns CPU (a busy program) or wakes about 200
 * times a second on its 5 ms interrupt ticker (a sleeping one), so it is one
 * whose context switches or CPU time grow. Two consecutive samples must both
 * show it, so a worker the pool is just forking (a short burst of start-up
 * work) is not mistaken for a running one.
 */
export async function runningWorkers(serverPid, sampleMs = 100) {
  const active = async () => {
    const workers = childrenOf(zygoteOf(serverPid));
    const before = new Map(workers.map((p) => [p, activity(p)]));
    await sleep(sampleMs);
    return workers.filter((p) => before.get(p) >= 0 && activity(p) - before.get(p) >= 3);
  };
  const first = await active();
  const second = await active();
  return first.filter((p) => second.includes(p));
}

/**
 * runningWorkers sampled until exactly `want` are running, or `tries` samples
 * passed (the last sample is returned either way, for the caller to assert).
 * A replacement worker the pool is starting is busy for a while (long under
 * the sanitizers or on a loaded machine) and shows up in one sample or two.
 */
export async function settledWorkers(serverPid, want, { tries = 15, sampleMs = 100 } = {}) {
  let workers = await runningWorkers(serverPid, sampleMs);
  for (let i = 1; i < tries && workers.length !== want; i++) workers = await runningWorkers(serverPid, sampleMs);
  return workers;
}

/** The kind of each socket inode of the machine: tcp (with its ports) or unix. */
function socketKinds() {
  const kinds = new Map();
  for (const f of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/net/${f}`, 'utf8').split('\n').slice(1)) {
      const c = line.trim().split(/\s+/);
      if (c.length > 9) kinds.set(c[9], `tcp ${parseInt(c[1].split(':')[1], 16)}->${parseInt(c[2].split(':')[1], 16)}`);
    }
  }
  for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
    const c = line.trim().split(/\s+/);
    if (c.length > 6) kinds.set(c[6], 'unix');
  }
  return kinds;
}
/** Descriptors of a process, for leak checks: all but those of the state
 * database (state.db and its -wal and -shm), which the server opens on first
 * use (state, skills, or the result types it learns, written a second after
 * a call) and keeps open: not something a fault leaves behind. */
export function fdCount(pid) {
  return readdirSync(`/proc/${pid}/fd`).filter((n) => {
    try {
      return !/\/state\.db(-wal|-shm)?$/.test(readlinkSync(`/proc/${pid}/fd/${n}`));
    } catch { return true; }
  }).length;
}

/** What each descriptor is (for the message when the count is off). */
export function fdList(pid) {
  const kinds = socketKinds();
  return readdirSync(`/proc/${pid}/fd`).map((n) => {
    try {
      const l = readlinkSync(`/proc/${pid}/fd/${n}`);
      const inode = /^socket:\[(\d+)\]$/.exec(l)?.[1];
      return `${n}:${l}${inode ? ` (${kinds.get(inode) ?? '?'})` : ''}`;
    } catch { return `${n}:?`; }
  }).join(' ');
}
