// private methods are named "#m" (static ones too)
class C { #m() {} get #g() { return 1; } set #g(v) {} static #s() {} t() { return [this.#m.name, C.#s.name]; } }
new C().t()
