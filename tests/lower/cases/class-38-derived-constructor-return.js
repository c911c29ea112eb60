// a derived constructor may return an object (used), undefined (this), anything else is a TypeError
class Base { constructor() { this.b = 1; } }
const mk = (v) => class extends Base { constructor() { super(); return v; } };
const out = [];
for (const v of [{ o: 1 }, undefined, 0, 'x', null, true]) {
  try { out.push(JSON.stringify(new (mk(v))())); } catch (e) { out.push(e.name); }
}
class NoSuper extends Base { constructor() { return { alt: true }; } }
out.push(JSON.stringify(new NoSuper()));
out
