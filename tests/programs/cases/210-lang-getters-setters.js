const temp = {
  _c: 20,
  get f() { return this._c * 9 / 5 + 32; },
  set f(v) { this._c = Math.round(((v - 32) * 5) / 9 * 10) / 10; },
  get c() { return this._c; },
};
temp.f = 212;
const afterF = temp.c;
temp.f = 50;
class Range {
  #lo; #hi;
  constructor(lo, hi) { this.#lo = lo; this.#hi = hi; }
  get size() { return this.#hi - this.#lo; }
  set size(n) { if (n < 0) throw new RangeError("negative"); this.#hi = this.#lo + n; }
  get bounds() { return [this.#lo, this.#hi]; }
}
const r = new Range(5, 9);
r.size = 10;
const desc = Object.getOwnPropertyDescriptor(temp, "f");
return { afterF, now: temp.c, f: temp.f, size: r.size, bounds: r.bounds, hasGet: typeof desc.get, hasSet: typeof desc.set };
