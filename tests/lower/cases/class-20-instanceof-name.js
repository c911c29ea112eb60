class Foo {}
const f = new Foo();
[f instanceof Foo, Foo.name, f.constructor === Foo]
