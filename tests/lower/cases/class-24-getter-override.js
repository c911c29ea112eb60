class A { get name() { return 'A'; } describe() { return 'I am ' + this.name; } }
class B extends A { get name() { return 'B'; } }
[new A().describe(), new B().describe()]
