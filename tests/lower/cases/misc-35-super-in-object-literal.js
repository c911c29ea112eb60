// super in object-literal methods and accessors reads (and sets) through the
// prototype of the object the method was defined in
const base = { greet() { return 'hi ' + this.n; }, get kind() { return 'base ' + this.n; }, set v(x) { this._v = x * 2; } };
const o = {
  __proto__: base,
  n: 'o',
  greet() { return super.greet() + '!'; },
  get kind() { return super.kind + ' (o)'; },
  set v(x) { super.v = x + 1; },
  arrow() { return (() => super.greet())(); },
  ['comp' + 'uted']() { return super.greet ? 'has' : 'none'; },
  method() { return super.toString === Object.prototype.toString; },
};
o.v = 3;
console.log(o.greet(), o.kind, o._v, o.arrow(), o.computed(), o.method(), o.greet.name, Object.getOwnPropertyDescriptor(o, 'kind').get.name);
const make = (n) => ({ __proto__: base, n, greet() { return super.greet() + '?'; } });
const a = make('a'), b = make('b');
console.log(a.greet(), b.greet(), a.greet === b.greet);
const plain = { m() { return super.hasOwnProperty('m'); } };
console.log(plain.m());
// super.x = v in a class: the parent's setter runs on this; with none, this gets an own x
class P { set x(v) { this._x = v; } }
class Q extends P {
  set x(v) { super.x = v * 2; }
  put() { super.y = 5; return Object.getOwnPropertyDescriptor(this, 'y').enumerable; }
}
const q = new Q();
q.x = 4;
console.log(q._x, q.put(), q.y);
