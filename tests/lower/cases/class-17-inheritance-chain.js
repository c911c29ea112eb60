class A { constructor() { this.tags = ['A']; } who() { return 'A'; } }
class B extends A { constructor() { super(); this.tags.push('B'); } who() { return 'B<' + super.who(); } }
class C extends B { constructor() { super(); this.tags.push('C'); } who() { return 'C<' + super.who(); } }
const c = new C();
[c.tags, c.who(), c.constructor.name]
