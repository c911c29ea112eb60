class A { constructor(a, b) { this.sum = a + b; } }
class B extends A {}
new B(2, 3).sum
