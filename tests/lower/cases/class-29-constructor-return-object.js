class A { constructor() { return { custom: true }; } }
class B extends A { constructor() { super(); this.added = 1; } }
[new A(), new B()]
