// super.m?.() and (super.m)?.() call with this
class A { m() { return this.v; } }
class B extends A { constructor() { super(); this.v = 7; } t() { return [super.m?.(), super.nope?.(), (super.m)?.()]; } static s() { return super.toString?.() === undefined; } }
const r = new B().t(); r.push(typeof B.s()); r
