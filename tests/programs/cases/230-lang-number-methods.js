return {
  isInteger: [Number.isInteger(5), Number.isInteger(5.5), Number.isInteger("5")],
  isSafe: [Number.isSafeInteger(2 ** 53 - 1), Number.isSafeInteger(2 ** 53)],
  isNaN: [Number.isNaN(NaN), Number.isNaN("abc"), isNaN("abc")],
  isFinite: [Number.isFinite(1 / 0), Number.isFinite("12"), isFinite("12")],
  parse: [Number.parseFloat("3.14abc"), Number.parseInt("08", 10), Number.parseInt("0x1F")],
  max: Number.MAX_SAFE_INTEGER,
  min: Number.MIN_SAFE_INTEGER,
  separators: 1_000_000 + 0.000_001,
  binaryOctal: [0b1010, 0o17, 0xff],
  toFixed: [(1.005).toFixed(2), (2.5).toFixed(0), (1234.5678).toFixed(1)],
  toString: [(255).toString(16), (-7.5).toString(2), (0.5).toString(3).slice(0, 6)],
  coercion: [+"", +" 42 ", +"4e2", Number(null), Number(undefined), Number([]), Number([7]), Number(true)],
};
