// Lets the conformance CLIs (@modelcontextprotocol/conformance 0.1.16 and the
// 0.2.0 alpha, both "engines": node >= 22) run on Node 20: for imports made by
// files of those packages only, "fs" resolves to fs-globsync.mjs (node:fs plus
// a globSync polyfill). Use: node --import ./tests/conformance/node20-hook.mjs ...
import { register } from 'node:module';

register(new URL('./node20-loader.mjs', import.meta.url));
