class A { }
class B extends A { set(v) { super.val = v; return this.val; } }
new B().set(9)
