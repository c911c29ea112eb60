const sym = Symbol('it');
class C { ['m' + 'x']() { return 'mx'; } [sym]() { return 'sym'; } static ['s']() { return 'st'; } }
const c = new C();
[c.mx(), c[sym](), C.s()]
