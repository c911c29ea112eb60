var xs = [3.14159, -2.5, 0.1 + 0.2, 1e21, 255];
console.log(xs[0].toFixed(2), xs[1].toFixed(0), xs[2], xs[3]);
console.log((255).toString(16), (255).toString(2), parseInt('ff', 16), parseFloat('3.5kg'));
console.log(Math.floor(-2.5), Math.ceil(-2.5), Math.round(-2.5), Math.round(2.5));
console.log(Math.max(), Math.min(), isNaN('abc'), isFinite('12'));
console.log((1234.5678).toPrecision(6), (0.000123).toExponential(1), Number('0x1f'));
return {
  hyp: Math.sqrt(3 * 3 + 4 * 4),
  pow: Math.pow(2, 10),
  abs: Math.abs(-7),
  trunc: (7.9 | 0),
  nan: String(0 / 0),
  inf: String(-1 / 0)
};
