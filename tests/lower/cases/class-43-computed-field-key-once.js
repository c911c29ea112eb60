// a computed field key becomes a property key once, when the class is defined
let n = 0;
const key = { toString() { n++; return 'k' + n; } };
class C { [key] = 1; }
const a = new C(), b = new C();
console.log(Object.keys(a).join(), Object.keys(b).join(), n);
const bad = { [Symbol.toPrimitive]() { throw new RangeError('no key'); } };
try { (class { [bad] = 1; }); console.log('defined'); } catch (e) { console.log(e.name, e.message); }
