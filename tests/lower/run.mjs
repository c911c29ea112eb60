// Differential test of the lowering pass: every tests/lower/cases/NAME.{js,ts}
// is lowered and run in the sandbox engine (build/lower/runjs, built by
// tests/lower/build.sh) and its console lines and outcome are compared with
// NAME.expected (recorded from Node by record.mjs). Error outcomes compare the
// error name, and the message when the message is written in the case itself
// (engine messages for built-in errors differ from V8's).
//   node tests/lower/run.mjs [-v] [BUILD_DIR] [NAME...]
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const casesDir = path.join(here, 'cases');
let args = process.argv.slice(2);
const verbose = args[0] === '-v';
if (verbose) args = args.slice(1);
let build = 'build';
if (args.length && fs.existsSync(path.join(root, args[0], 'lower'))) build = args.shift();
const runjs = path.join(root, build, 'lower', 'runjs');

function normalise(text, source) {
    const lines = text.replace(/\n$/, '').split('\n');
    return lines.map((l) => {
        if (!l.startsWith('RESULT ')) return l;
        const o = JSON.parse(l.slice(7));
        if (o.ok) return 'RESULT ' + JSON.stringify(o);
        const e = { name: o.error.name };
        if (source.includes(o.error.message)) e.message = o.error.message;
        return 'RESULT ' + JSON.stringify({ ok: false, error: e });
    }).join('\n');
}

const files = fs.readdirSync(casesDir).filter((f) => /\.(js|ts)$/.test(f)).sort();
let pass = 0, fail = 0;
const failed = [];
for (const f of files) {
    const name = f.replace(/\.(js|ts)$/, '');
    if (args.length && !args.includes(name)) continue;
    const src = fs.readFileSync(path.join(casesDir, f), 'utf8');
    const expFile = path.join(casesDir, name + '.expected');
    if (!fs.existsSync(expFile)) {
        console.log(`MISSING ${name}.expected (run record.mjs)`);
        fail++;
        continue;
    }
    let got;
    try {
        got = execFileSync(runjs, [path.join(casesDir, f)], { encoding: 'utf8', timeout: 20000 });
    } catch (e) {
        got = (e.stdout || '') + `CRASH ${e.status} ${e.signal || ''}`;
    }
    // line preservation: the lowered text has exactly the source's lines
    const lowered = execFileSync(runjs, ['-l', path.join(casesDir, f)], { encoding: 'utf8' });
    const srcLines = src.split(/\r\n|\r|\n/).length, outLines = lowered.replace(/\n$/, '').split('\n').length;
    if (!lowered.startsWith('RESULT ') && srcLines !== outLines) {
        fail++;
        failed.push(name);
        console.log(`FAIL ${name}: ${outLines} lowered lines for ${srcLines} source lines`);
        continue;
    }
    const want = normalise(fs.readFileSync(expFile, 'utf8'), src);
    const have = normalise(got, src);
    if (want === have) {
        pass++;
        if (verbose) console.log(`ok   ${name}`);
    } else {
        fail++;
        failed.push(name);
        console.log(`FAIL ${name}`);
        if (verbose) console.log(`--- expected\n${want}\n--- got\n${have}`);
    }
}
console.log(`lower cases: ${pass} passed, ${fail} failed`);
if (failed.length) console.log('failed: ' + failed.join(' '));
process.exit(fail ? 1 : 0);
