// new Function and Function() lower their parameters and body
const add = new Function('a', 'b = 10', 'return a + b');
const pick = Function('{ x, y: [first] }', 'return x?.n ?? first');
const f = new Function('return this');
[add(1), add(1, 2), pick({ y: [7] }), pick({ x: { n: 3 }, y: [] }), f() === globalThis,
 f instanceof Function, f.constructor === Function, Function.name, Function.length,
 (() => 1).constructor === Function, pick.length]
