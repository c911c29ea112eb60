// String building, the way models write reports, CSV and Markdown: each
// program builds its text several times and returns the milliseconds its
// building took (performance.now() inside the program) and the text's length.
// The same programs run in node:vm (a fresh context per call, as Node
// vm-based code-mode servers do) and through mcp-codemode's execute_code
// (one server, --pool-size 1); prints per program the median over the rounds
// of both times and their ratio. A benchmark, not a test: the exit status is
// 1 only when something is broken (a failed call, or lengths that differ).
//
// Knobs (env): BENCH_ROUNDS (5; BENCH_QUICK=1: 2), BENCH_FILTER (substring of
// program names), BENCH_OUT=FILE (the medians as JSON), MCP_CODEMODE_BIN
// (default build/mcp-codemode). A build without linear appends takes minutes
// here (seconds per build of the first programs): compare builds with
// BENCH_FILTER and BENCH_ROUNDS=1, one after the other.
import { writeFileSync } from 'node:fs';
import vm from 'node:vm';
import { RawClient } from './lib/raw_client.mjs';
import { median } from './lib/stats.mjs';
import { BIN } from './lib/targets.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (process.env.BENCH_QUICK ? 2 : 5));
const FILTER = process.env.BENCH_FILTER ?? '';

// Each body builds `text` once; the harness around it repeats it REPS times.
const PROGRAMS = [
    {
        name: 'template +=, 20,000 lines (1.5 MB)',
        reps: 5,
        body: `let text = '';
for (let i = 0; i < 20000; i++) {
  text += \`\${i},item-\${i},\${(i * 7) % 1000},a descriptive text for the line number \${i}\\n\`;
}`,
    },
    {
        name: '+= in a forEach callback, 20,000 rows',
        reps: 5,
        body: `let text = '# Report\\n\\n| id | name | value |\\n|---|---|---|\\n';
rows.forEach((r) => { text += \`| \${r.id} | \${r.name} | \${r.value.toFixed(2)} |\\n\`; });`,
    },
    {
        name: 's = s + line, 20,000 lines',
        reps: 5,
        body: `let text = 'id,name,value\\n';
for (const r of rows) { const line = r.id + ',' + r.name + ',' + r.value + '\\n'; text = text + line; }`,
    },
    {
        name: 'map + join, 200,000 rows',
        reps: 3,
        body: `const text = big.map((r) => r.id + ',' + r.name).join('\\n');`,
    },
    {
        name: 'short concatenations, 200,000 keys',
        reps: 5,
        body: `let text = ''; const o = {};
for (let i = 0; i < 200000; i++) { const k = 'key' + (i % 1000) + '_' + (i & 7); o[k] = (o[k] || 0) + 1; }
text = Object.keys(o).join();`,
    },
    {
        // Not linear in mcp-codemode: the chain copies s once per statement.
        name: 's = s + a + b + c (chain), 5,000 lines',
        reps: 5,
        body: `let text = '';
for (let i = 0; i < 5000; i++) { text = text + i + ',' + 'row ' + i + ',' + (i * 3) + '\\n'; }`,
    },
];

function programSource(p) {
    return `const rows = []; for (let i = 0; i < 20000; i++) rows.push({ id: i, name: 'name-' + i, value: i * 1.5 });
const big = []; for (let i = 0; i < 200000; i++) big.push({ id: i, name: 'n' + (i % 977) });
let ms = 0, len = 0;
for (let rep = 0; rep < ${p.reps}; rep++) {
  const t0 = performance.now();
  ${p.body}
  ms += performance.now() - t0;
  len = text.length;
}
return { ms, len };`;
}

async function runNode(code) {
    const context = vm.createContext({ performance });
    const script = new vm.Script(`(async () => {\n${code}\n})()`, { filename: 'program.js' });
    return script.runInContext(context, { timeout: 60000 });
}

async function runOurs(client, code) {
    const r = await client.request('tools/call', { name: 'execute_code', arguments: { code, timeoutMs: 60000 } });
    const res = r.msg.result;
    if (res?.isError) throw new Error(`execute_code failed: ${JSON.stringify(res).slice(0, 400)}`);
    return JSON.parse(res.content[0].text);
}

const client = new RawClient(BIN, ['--stdio', '--pool-size', '1', '--memory-limit-mb', '256',
    '--max-timeout-ms', '60000'], process.env);
await client.initialize();
let broken = false;
const results = [];
console.log(`${BIN}, ${ROUNDS} rounds; times are the building inside the program (median ms per build)`);
for (const p of PROGRAMS) {
    if (FILTER && !p.name.includes(FILTER)) continue;
    const code = programSource(p);
    const node = [];
    const ours = [];
    for (let i = 0; i < ROUNDS; i++) {
        const a = await runNode(code);
        const b = await runOurs(client, code);
        if (a.len !== b.len) {
            console.log(`${p.name}: lengths differ (node ${a.len}, ours ${b.len})`);
            broken = true;
        }
        node.push(a.ms / p.reps);
        ours.push(b.ms / p.reps);
    }
    const n = median(node);
    const o = median(ours);
    results.push({ name: p.name, nodeMs: n, oursMs: o, ratio: o / Math.max(n, 0.1) });
    console.log(`${p.name.padEnd(42)} node:vm ${n.toFixed(1).padStart(7)} ms   mcp-codemode ${o.toFixed(1).padStart(8)} ms   ` +
        `ratio ${(o / Math.max(n, 0.1)).toFixed(1)}x`);
}
await client.close();
if (process.env.BENCH_OUT) writeFileSync(process.env.BENCH_OUT, JSON.stringify({ bin: BIN, rounds: ROUNDS, results }, null, 2));
process.exit(broken ? 1 : 0);
