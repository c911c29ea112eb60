// private methods are named "#m" (static ones too), and anonymous functions in private fields "#f"
class C { #m() {} get #g() { return 1; } set #g(v) {} static #s() {} t() { return [this.#m.name, C.#s.name]; } }
const methods = new C().t();
class C2 { #f = function () {}; static #g = () => 1; #h = class {}; t() { return [this.#f.name, C2.#g.name, this.#h.name]; } }
const named = new C2().t();
[methods, named]
