// node:fs plus a small globSync, for the two conformance CLIs on Node 20:
// they import { globSync } from "fs", which only Node 22 has (they use it in
// `tier-check` to find checks.json files). Loaded in place of "fs" for those
// packages only, by the resolve hook in node20-hook.mjs.
import fs from 'node:fs';
import path from 'node:path';

export * from 'node:fs';
export default fs;

/** A glob pattern as an anchored RegExp over '/'-separated relative paths (*, ?, **). */
function globRegExp(pattern) {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Every file and directory under dir, as paths relative to root. */
function walk(root, dir, out) {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    out.push(rel);
    if (e.isDirectory()) walk(root, rel, out);
  }
  return out;
}

/** globSync(pattern | patterns, { cwd }): the matching relative paths (no exclude, no withFileTypes). */
export function globSync(pattern, options = {}) {
  const cwd = options.cwd ? String(options.cwd) : process.cwd();
  const res = (Array.isArray(pattern) ? pattern : [pattern]).map(globRegExp);
  return walk(cwd, '', []).filter((p) => res.some((r) => r.test(p)));
}
