let sets = 0;
const o = { _v: 1, get v() { return this._v; }, set v(x) { sets++; this._v = x; } };
o.v ||= 2; o.v &&= 3; o.v ??= 4;
[o._v, sets]
