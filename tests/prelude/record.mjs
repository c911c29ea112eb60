// Records the expected results of tests/prelude/*.js from Node: each program
// (with _harness.js prepended) runs as a function body and its returned
// value is written to <name>.expected.json, which the cmocka test
// tests/unit/test_sandbox_prelude_lib.c compares with the sandbox's result.
// Usage: node tests/prelude/record.mjs [name...]
//
// Node 20 has no Object.groupBy / Map.groupBy: the recorder then re-runs
// itself with --harmony-array-grouping and builds them on V8's own
// experimental Array.prototype.group / groupToMap (same grouping semantics).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The sandbox's clock is UTC: dates are recorded in UTC whatever the machine's zone.
process.env.TZ = 'UTC';

const self = fileURLToPath(import.meta.url);
const dir = path.dirname(self);

if (typeof Object.groupBy !== 'function' && typeof Array.prototype.group !== 'function') {
    const r = spawnSync(process.execPath, ['--harmony-array-grouping', self, ...process.argv.slice(2)],
                        { stdio: 'inherit' });
    process.exit(r.status ?? 1);
}
if (typeof Object.groupBy !== 'function') {
    Object.defineProperty(Object, 'groupBy', {
        value: (items, cb) => Array.prototype.group.call([...items], (v, i) => cb(v, i)),
        writable: true, configurable: true });
    Object.defineProperty(Map, 'groupBy', {
        value: (items, cb) => Array.prototype.groupToMap.call([...items], (v, i) => cb(v, i)),
        writable: true, configurable: true });
}

const harness = fs.readFileSync(path.join(dir, '_harness.js'), 'utf8');
const wanted = process.argv.slice(2);
const files = fs.readdirSync(dir)
    .filter((f) => f.endsWith('.js') && !f.startsWith('_'))
    .filter((f) => wanted.length === 0 || wanted.includes(path.basename(f, '.js')))
    .sort();
let total = 0;
for (const f of files) {
    const code = harness + '\n' + fs.readFileSync(path.join(dir, f), 'utf8');
    const value = new Function(code)();
    const n = Object.keys(value).length;
    total += n;
    fs.writeFileSync(path.join(dir, f.replace(/\.js$/, '.expected.json')), JSON.stringify(value, null, 1) + '\n');
    console.log(`${f}: ${n} cases`);
}
console.log(`${total} cases in ${files.length} programs`);
