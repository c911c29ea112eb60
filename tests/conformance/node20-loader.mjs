// The resolve hook registered by node20-hook.mjs (runs on the loader thread).
const SHIM = new URL('./fs-globsync.mjs', import.meta.url).href;
const PACKAGES = ['/node_modules/@modelcontextprotocol/conformance/', '/node_modules/conformance-alpha/'];

export async function resolve(specifier, context, next) {
  const from = context.parentURL ?? '';
  if ((specifier === 'fs' || specifier === 'node:fs') && PACKAGES.some((p) => from.includes(p))) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
