class A { greet() { return 'hi'; } }
class B extends A { greet() { const f = () => super.greet() + '!'; return f(); } }
new B().greet()
