// super() called through an arrow in a derived constructor; a second call throws a
// ReferenceError after the super constructor ran
let count = 0;
class A { constructor(v) { count++; this.v = v; } }
class B extends A {
  constructor() {
    const init = (v) => super(v);
    init(7);
    this.again = () => super(8);
  }
}
const b = new B();
let err;
try { b.again(); } catch (e) { err = e.name; }
class C extends A { constructor() { (() => super(1))(); this.w = this.v + 1; } }
console.log(b.v, count, err, b instanceof A, new C().w);
