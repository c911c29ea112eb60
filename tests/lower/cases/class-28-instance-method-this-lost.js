class A { m() { return this === undefined ? 'undef' : typeof this; } }
const m = new A().m;
m.call(42)
