function outer() {
  const inner = () => arguments.length;
  const sum = (...nums) => nums.reduce((a, b) => a + b, 0);
  return { inner: inner(99), first: (() => arguments[0])(), sum: sum(...arguments) };
}
const implicitObject = () => ({ ok: true });
const curried = (a) => (b) => (c) => a + b * c;
return { ...outer(4, 5, 6), implicitObject: implicitObject(), curried: curried(1)(2)(3) };
