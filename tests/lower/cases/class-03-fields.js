class C { a = 1; b = this.a + 1; static s = 'S'; static t = C.s + 'T'; ['x' + 1] = 'computed'; }
const c = new C();
[c.a, c.b, C.s, C.t, c.x1]
