// computed keys: an object's Symbol.toPrimitive or toString may give a symbol; a name
// may not start with a zero-width joiner
const s1 = Symbol('one'), s2 = Symbol('two');
const err = () => { throw new RangeError('not this'); };
const k1 = { [Symbol.toPrimitive]: () => s1, toString: err };
const k2 = { toString: () => s2, valueOf: err };
const k3 = { toString: undefined, valueOf: () => 'three' };
class C { [k1] = 1; [k2] = 2; static [k3] = 3; }
const c = new C(), o = { [k1]: 'o1', [k3]: 'o3' };
const out = [c[s1], c[s2], C.three, o[s1], o.three];
for (const src of ['var \u200d_x;', 'class D { #\u200c_y; }', 'var a\u200d_b = 1;']) {
  try { new Function(src); out.push('ok'); } catch (e) { out.push(e.name); }
}
out
