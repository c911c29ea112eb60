class A { get v() { return this._v * 2; } }
class B extends A { constructor() { super(); this._v = 5; } get v() { return super.v + 1; } }
new B().v
