class A { static base = 10; static plus = this.base + 1; static get twice() { return this.base * 2; } }
class B extends A { static base = 20; }
[A.plus, A.twice, B.twice, B.plus]
