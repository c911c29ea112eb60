// early errors: each source is a SyntaxError before anything runs; the valid neighbours run
const bad = [
  'let x; let x;', 'function f(a) { let a; }', 'let x; { var x; }', 'for (let x of []) { var x; }',
  'let let = 1;', 'class C { static { var await; } }', 'for (;;) l: function f() {}',
  'while (0) a: b: function f() {}', 'function* g(x = yield) {}', '[...x = 1] = [];', '[...x,] = [];',
  '({...x, y} = {});', '({...{x}} = {});', '`\\8`', '`\\01`', '`\\x4`',
  'class C { static { return; } }', 'class C { m() { with ({}) {} } }',
  'class C extends (function B() { with ({}); return B; }()) {}',
];
const good = [
  'var x; var x;', 'function f(a) { var a; }', '{ let x; } var x;', 'l: function f() {}',
  'class C { static { (function () { var await; }); } }', 'function* g(x = function* () { yield 1; }) {}',
  'function* g() { (yield 1); [yield 2]; }', 'class C { static { (() => { let await; }); } }', '[...x] = [];', '({...x} = {});', 'var t = (s) => s[0]; t`\\8`;', '`\\0`', 'if (1) function h() {}',
  'class C { static { (function () { return 1; }); } }',
];
const out = [];
for (const src of bad) {
  try { new Function(src); out.push('accepted: ' + src); } catch (e) { out.push(e.name); }
}
for (const src of good) {
  try { new Function(src); out.push('ok'); } catch (e) { out.push(src + ': ' + e.name); }
}
out
