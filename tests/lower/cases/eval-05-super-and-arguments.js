// a direct eval in a method or field initialiser may use super.x; in a class field
// initialiser it may not read arguments; elsewhere super in eval code is a SyntaxError
const out = [];
class A { get x() { return 'A.x'; } m() { return 'A.m'; } static s() { return 'A.s'; } }
class B extends A {
  f = eval('super.x');
  static g = eval('super.s()');
  m() { return eval('super.m() + "+" + super.x'); }
  n() { return (() => eval('super.x'))(); }
}
const b = new B();
out.push(b.f, B.g, b.m(), b.n());
const o = { __proto__: { k: 'proto k' }, get() { return super.k + ' ' + eval('super.k'); } };
out.push(o.get());
for (const src of ['super.x', 'arguments']) {
  try { (function () { return eval(src); })(); out.push(src + ' ok'); } catch (e) { out.push(src + ' ' + e.name); }
}
class C { f = (() => { try { return eval('arguments'); } catch (e) { return e.name; } })(); g = eval('typeof function () { return arguments; }'); }
const c = new C();
out.push(c.f, c.g);
try { new Function('return super.x'); out.push('fn ok'); } catch (e) { out.push('fn ' + e.name); }
console.log(out.join('|'));
