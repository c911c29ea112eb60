const calls = [];
const track = (name, v) => (calls.push(name), v);
function f(a = track("a", 1), b = track("b", a + 1), c = track("c", a + b)) {
  return [a, b, c];
}
const r1 = f();
const r2 = f(10);
const r3 = f(undefined, 5);
const r4 = f(null, null);
function g(x, cb = () => x) { x = "changed"; return cb(); }
const arrowDefault = (s = "def", ...rest) => `${s}|${rest.length}`;
return { r1, r2, r3, r4, calls, g: g("orig"), arrowDefault: [arrowDefault(), arrowDefault(undefined, 1, 2)] };
