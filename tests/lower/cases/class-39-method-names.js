// class methods and accessors have a name; an anonymous class's name is ""
const sym = Symbol('it');
class A {
  a() { return typeof a; }
  static s() {}
  get g() { return 1; }
  set g(v) {}
  'str k'() {}
  [sym]() {}
  42() {}
  delete() {}
}
const p = A.prototype, d = Object.getOwnPropertyDescriptor(p, 'g');
const names = [p.a.name, A.s.name, d.get.name, d.set.name, p['str k'].name, p[sym].name, p[42].name, p.delete.name];
console.log(names.join('|'), p.a());
console.log(JSON.stringify((class {}).name), (class { static name() { return 'own'; } }).name(), [class {}][0].name === '');
const K = class {};
console.log(K.name, Object.getOwnPropertyDescriptor(p.a, 'name').writable);
