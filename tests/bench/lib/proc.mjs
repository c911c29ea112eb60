// Process-tree memory from /proc (Linux): a root pid's live descendants and
// each one's RSS (VmRSS), PSS and USS (Private_Clean + Private_Dirty) from
// smaps_rollup, and a process's CPU time from schedstat. RSS sums count
// every shared copy-on-write page once per process; PSS divides each shared
// page among its sharers, so a PSS sum is the tree's honest footprint; USS
// is what killing one process would free.
import { readFileSync, readdirSync } from 'node:fs';

function read(path) {
    try {
        return readFileSync(path, 'utf8');
    } catch {
        return null;
    }
}

/** Parses /proc/<pid>/stat: {pid, comm, state, ppid}; null when gone. */
export function stat(pid) {
    const s = read(`/proc/${pid}/stat`);
    if (s === null) return null;
    const close = s.lastIndexOf(')');
    const rest = s.slice(close + 2).split(' ');
    return { pid, comm: s.slice(s.indexOf('(') + 1, close), state: rest[0], ppid: Number(rest[1]) };
}

/** Direct children of pid (all threads), zombies excluded. */
export function children(pid) {
    const tasks = (() => {
        try {
            return readdirSync(`/proc/${pid}/task`);
        } catch {
            return [];
        }
    })();
    const kids = [];
    for (const t of tasks) {
        const c = read(`/proc/${pid}/task/${t}/children`);
        if (c === null) return childrenByScan(pid);
        for (const k of c.trim().split(/\s+/)) if (k) kids.push(Number(k));
    }
    return kids.filter((k) => {
        const st = stat(k);
        return st && st.state !== 'Z';
    });
}

function childrenByScan(pid) {
    const kids = [];
    for (const d of readdirSync('/proc')) {
        if (!/^\d+$/.test(d)) continue;
        const st = stat(Number(d));
        if (st && st.ppid === pid && st.state !== 'Z') kids.push(st.pid);
    }
    return kids;
}

/** pid and its live descendants, each {pid, depth, cmdline}. */
export function tree(pid) {
    const out = [];
    const walk = (p, depth) => {
        const cmd = read(`/proc/${p}/cmdline`);
        if (cmd === null) return;
        out.push({ pid: p, depth, cmdline: cmd.split('\0').filter(Boolean) });
        for (const k of children(p)) walk(k, depth + 1);
    };
    walk(pid, 0);
    return out;
}

function kbField(text, name) {
    const m = text && text.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) : NaN;
}

/** {rssKiB, pssKiB, ussKiB} of one process; null when it is gone. */
export function memory(pid) {
    const status = read(`/proc/${pid}/status`);
    const rollup = read(`/proc/${pid}/smaps_rollup`);
    if (status === null || rollup === null) return null;
    return {
        rssKiB: kbField(status, 'VmRSS'),
        pssKiB: kbField(rollup, 'Pss'),
        ussKiB: kbField(rollup, 'Private_Clean') + kbField(rollup, 'Private_Dirty'),
    };
}

/**
 * CPU time (ms) a process has run so far, from /proc/<pid>/schedstat
 * (nanoseconds, updated at each context switch); null when it is gone.
 */
export function cpuMs(pid) {
    const s = read(`/proc/${pid}/schedstat`);
    return s === null ? null : Number(s.split(' ')[0]) / 1e6;
}

/** Memory of a whole tree: sums and per-process rows (role by depth: 0 root, 1 child, 2 grandchild). */
export function treeMemory(pid) {
    const rows = [];
    for (const p of tree(pid)) {
        const m = memory(p.pid);
        if (m) rows.push({ ...p, ...m });
    }
    const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
    return { procs: rows.length, rssKiB: sum('rssKiB'), pssKiB: sum('pssKiB'), ussKiB: sum('ussKiB'), rows };
}
