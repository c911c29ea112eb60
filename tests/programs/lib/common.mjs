// Shared by record.mjs and run.mjs: where the cases are, their pragmas, the
// expected-outcome files, and the names the config gives the personas.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CASES = path.join(ROOT, 'cases');
export const SERVER = path.join(ROOT, 'host', 'server.mjs');

/** Every case as {name, file, isTs}, sorted by name. */
export function listCases(filter = []) {
    const names = fs.readdirSync(CASES);
    const stray = names.filter((f) => !/^\d{3}-[a-z0-9-]+\.(js|ts|expected\.json)$/.test(f));
    if (stray.length) throw new Error(`cases/: names must be NNN-lowercase-words.(js|ts): ${stray.join(', ')}`);
    return names
        .filter((f) => /\.(js|ts)$/.test(f))
        .sort()
        .map((f) => ({ name: f.replace(/\.(js|ts)$/, ''), file: path.join(CASES, f), isTs: f.endsWith('.ts') }))
        .filter((c) => filter.length === 0 || filter.some((s) => c.name.includes(s)));
}

export const expectedPath = (c) => path.join(CASES, c.name + '.expected.json');

/**
 * Pragmas a case may carry in a `// @word` comment line:
 *   @loose-message  the error message is the engine's own wording (a TypeError from
 *                   reading a property of undefined, say): compare the name only
 *   @no-line        do not record the error's line (where Node and our engine may
 *                   reasonably disagree, such as a throw inside a multi-line expression)
 */
export function pragmas(source) {
    const p = {};
    for (const m of source.matchAll(/^\s*\/\/\s*@([a-z-]+)\s*$/gm)) p[m[1]] = true;
    return p;
}
