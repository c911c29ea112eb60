// a default that reads its own parameter or a later one throws a ReferenceError; earlier ones are fine
const out = [];
const tryIt = (f) => { try { return f(); } catch (e) { return e.name; } };
var y = 'outer';
out.push(tryIt(() => ((x = y, y) => x)()), tryIt(() => ((x = x) => x)()), tryIt(() => (function (a, b = a) { return b; })(3)));
out.push(tryIt(() => (function (a = () => b, b = 2) { return a(); })()), tryIt(() => (function ({ p } = { p: q }, q) { return p; })()));
out.push(tryIt(() => ((x = y, y) => x)(1)), tryIt(() => (async function (a = b, b) {})().catch((e) => e.name) && 'async'));
out
