// private methods, accessors and fields belong to the objects their class built:
// any other object is a TypeError, even through a method borrowed with call
class C {
  #f = 1;
  #m() { return 'm' + this.#f; }
  get #g() { return this.#f * 10; }
  set #s(v) { this.#f = v; }
  static #sm() { return 'static'; }
  run(o) { return [o.#m(), o.#g, (o.#s = 5), o.#f, #m in o, #g in o]; }
  write(o) { o.#m = 1; }
  readSetterOnly(o) { return o.#s; }
  static srun(k) { return k.#sm(); }
}
class D extends C {}
const out = [new C().run(new C()), C.srun(C)];
const tryIt = (f) => { try { return f(); } catch (e) { return e.name; } };
out.push(tryIt(() => C.prototype.run.call({}, {})), tryIt(() => new C().run({})),
  tryIt(() => new C().write(new C())), tryIt(() => new C().readSetterOnly(new C())),
  tryIt(() => C.srun(D)), tryIt(() => new C().run(Object.create(new C()))), new C().run(new D()).length);
class E { y = this.#x; #x = 1; }
out.push(tryIt(() => new E()));
class Base { constructor(o) { return o; } }
class Stamp extends Base { #tag = 'stamped'; static tag(o) { return o.#tag; } }
const plain = {};
new Stamp(plain);
out.push(Stamp.tag(plain), tryIt(() => new Stamp(plain)));
out
