class Calc { constructor(f) { this.f = f; } make() { return x => this.f * x; } }
new Calc(3).make()(5)
