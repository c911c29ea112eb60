// this (or super.x) before super() in a derived constructor is a ReferenceError; a second
// super() runs the parent, then throws
const out = [];
class Base { constructor(v) { this.v = v; out.push('base'); } method() { return 'm'; } }
for (const make of [
  () => new (class extends Base { constructor() { super(this.x); } })(),
  () => new (class extends Base { constructor() { super.method(); super(); } })(),
  () => new (class extends Base { constructor() { const f = () => this; f(); super(); } })(),
]) {
  try { make(); out.push('no error'); } catch (e) { out.push(e.name); }
}
class Twice extends Base { constructor() { super(1); try { super(2); } catch (e) { out.push(e.name, this.v); } } }
new Twice();
class Ok extends Base { constructor(a = 1) { if (a) super(a); else super(0); this.w = this.v + 1; } }
out.push(new Ok().w);
console.log(out.join('|'));
