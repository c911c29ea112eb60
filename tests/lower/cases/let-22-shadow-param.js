function f(x) { { let x = 'inner'; } return x; }
f('param')
