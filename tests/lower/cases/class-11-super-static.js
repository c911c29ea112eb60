class A { static create() { return 'A.create'; } static get kind() { return 'A'; } }
class B extends A { static create() { return super.create() + '>B'; } static get kind() { return super.kind + 'B'; } }
[B.create(), B.kind]
