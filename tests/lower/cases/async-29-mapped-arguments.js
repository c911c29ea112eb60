// an async function's or generator's arguments are the function's own (mapped to
// the parameters in sloppy code)
async function foo(a) {
  arguments[0] = 2;
  const first = a;
  a = 3;
  await null;
  return [first, arguments[0], arguments.length];
}
function* gen(a, b) {
  arguments[1] = 'B';
  yield b;
  yield arguments.length;
}
const obj = { async m(x) { return arguments[0] + x; } };
console.log((await foo(1)).join(), [...gen(1, 2, 3)].join(), await obj.m(4));
// with a default (not simple parameters) arguments is not mapped
async function unmapped(a = 42) {
  arguments[0] = 2;
  const first = a;
  a = 3;
  return [first, arguments[0]];
}
console.log((await unmapped(1)).join());
