function f() { const g = () => arguments[0] + arguments.length; return g(); }
f(10, 20, 30)
