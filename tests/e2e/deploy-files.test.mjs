// The container image of examples/deploy/Dockerfile cannot be built on a
// machine without a Docker engine, so what can go stale in it is checked
// against the tree instead: its build stage installs every build package
// scripts/setup.sh installs (test-only ones excepted), and its runtime stage
// installs the Debian package of every shared library the binary needs,
// whether linked (DT_NEEDED) or loaded on first use (dlopen of a soname named
// in the sources).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { BIN, REPO_ROOT } from './lib/paths.mjs';

const read = (p) => readFileSync(path.join(REPO_ROOT, p), 'utf8');
const dockerfile = read('examples/deploy/Dockerfile');
const [buildStage, runtimeStage] = dockerfile.split(/^FROM /m).slice(1);
/** The packages of the stage's apt-get install lines. */
const installed = (stage) => new Set(
  [...stage.matchAll(/apt-get install[^\n]*?((?:\\\n|[^\n])*)/g)]
    .flatMap((m) => m[1].replace(/\\\n/g, ' ').split(/\s+/))
    .filter((w) => /^[a-z0-9][a-z0-9.+-]+$/.test(w) && !w.startsWith('-')));
/** The Debian package that ships a library file. */
const packageOf = (file) => execFileSync('dpkg', ['-S', file], { encoding: 'utf8' })
  .split('\n').find((l) => l && !l.includes('-dev'))?.split(':')[0];

test('the build stage installs what scripts/setup.sh installs to build (test packages excepted)', () => {
  const setup = read('scripts/setup.sh');
  const pkgs = /^PKGS="([^"]+)"/m.exec(setup)[1].split(/\s+/).filter((p) => p !== 'libcmocka-dev');
  const have = installed(buildStage);
  assert.deepEqual(pkgs.filter((p) => !have.has(p)), [], 'packages missing from the build stage');
});

test('the runtime stage installs the package of every library the binary links or loads', () => {
  const needed = [...execFileSync('readelf', ['-d', BIN], { encoding: 'utf8' }).matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)]
    // the C library is in every image; a sanitizer build's runtimes are not shipped
    .map((m) => m[1]).filter((l) => !/^(libc|libm|libdl|libpthread|libasan|libubsan|liblsan|libtsan)\.so/.test(l));
  const loaded = ['transport/curl_lib.c', 'tools/state/sqlite_lib.c', 'tools/state/pg_lib.c']
    .map((f) => /#define \w+_SONAME "([^"]+)"/.exec(read(f))[1]);
  assert.ok(loaded.includes('libsqlite3.so.0') && loaded.includes('libcurl.so.4') && loaded.includes('libpq.so.5'),
    `sonames read: ${loaded}`);
  const have = installed(runtimeStage);
  const missing = [...needed, ...loaded].map((lib) => [lib, packageOf(lib)]).filter(([, p]) => !have.has(p));
  assert.deepEqual(missing, [], 'libraries whose package the runtime stage lacks');
});
