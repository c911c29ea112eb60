// Arrows, async functions and generators are not constructors (no
// .prototype); function expressions and classes still are.
const tryNew = (F) => { try { new F(); return "constructed"; } catch (e) { return e.constructor.name; } };
const arrow = () => 1;
async function af() { return 1; }
const aexpr = async () => 2;
function* gen() { yield 1; }
const fexpr = function () { this.x = 1; };
class C { m() { return 1; } }
return {
  arrow: [tryNew(arrow), arrow.prototype === undefined, typeof arrow, arrow()],
  async: [tryNew(af), af.prototype === undefined, tryNew(aexpr)],
  gen: tryNew(gen),
  fexpr: [tryNew(fexpr), typeof fexpr.prototype, new fexpr().x],
  cls: [tryNew(C), typeof C.prototype.m],
  many: Array.from({ length: 50 }, (_, i) => () => i).map((f) => f()).reduce((a, b) => a + b, 0),
};
