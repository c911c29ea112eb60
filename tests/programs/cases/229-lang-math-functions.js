const r = (x) => Math.round(x * 1e6) / 1e6;
return {
  trunc: [Math.trunc(4.7), Math.trunc(-4.7)],
  sign: [Math.sign(-3), Math.sign(0), Math.sign(2)],
  cbrt: Math.cbrt(27),
  hypot: Math.hypot(5, 12),
  log2: Math.log2(1024),
  log10: Math.log10(0.001),
  expm1: r(Math.expm1(1)),
  clz32: Math.clz32(1),
  fround: Math.fround(5.5),
  imul: Math.imul(3, 4),
  exp: 2 ** 10,
  expAssoc: 2 ** 3 ** 2,
  negExp: (-2) ** 3,
  trig: [r(Math.sin(Math.PI / 6)), r(Math.cos(0)), r(Math.atan2(1, 1) * 4)],
  minMax: [Math.min(3, -1, 2), Math.max(...[4, 9, 2])],
  epsilon: Number.EPSILON > 0 && 0.1 + 0.2 - 0.3 < Number.EPSILON,
};
