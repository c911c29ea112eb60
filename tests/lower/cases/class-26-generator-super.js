class A { *items() { yield 1; yield 2; } }
class B extends A { *items() { yield 0; yield* super.items(); } }
[...new B().items()]
