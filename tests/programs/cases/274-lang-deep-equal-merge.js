const deepEqual = (a, b) => {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || !a || !b) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
};
const isObj = (x) => x && typeof x === "object" && !Array.isArray(x);
const deepMerge = (t, s) => {
  const out = { ...t };
  for (const [k, v] of Object.entries(s)) out[k] = isObj(v) && isObj(t[k]) ? deepMerge(t[k], v) : v;
  return out;
};
const defaults = { server: { port: 80, host: "0.0.0.0", tls: { on: false } }, log: ["info"] };
const user = { server: { port: 8080, tls: { on: true, cert: "x.pem" } }, log: ["debug"] };
return {
  merged: deepMerge(defaults, user),
  eq: [deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), deepEqual({ a: 1 }, { a: 1, b: undefined }), deepEqual([1, 2], { 0: 1, 1: 2 }), deepEqual(NaN, NaN)],
};
