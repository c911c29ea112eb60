/* Number statics and the ES2015 Math functions. */
function p(x) { return typeof x === 'number' && isFinite(x) && x !== 0 ? +x.toPrecision(14) : x; }
function all(f, xs) { return xs.map(function (x) { return p(f(x)); }); }

t('numberConstants', function () {
    return [Number.EPSILON === Math.pow(2, -52), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER,
            Number.MAX_SAFE_INTEGER + 2 === Number.MAX_SAFE_INTEGER + 1];
});
t('isInteger', function () { return [5, 5.0, 5.5, -0, NaN, Infinity, '5', 1e300, null].map(Number.isInteger); });
t('isSafeInteger', function () {
    return [Math.pow(2, 53) - 1, Math.pow(2, 53), -(Math.pow(2, 53) - 1), 3.1, '1', -0].map(Number.isSafeInteger);
});
t('isFiniteNoCoercion', function () { return [Number.isFinite('5'), isFinite('5'), Number.isFinite(5), Number.isFinite(Infinity), Number.isFinite(null)]; });
t('isNaNNoCoercion', function () { return [Number.isNaN('abc'), isNaN('abc'), Number.isNaN(NaN), Number.isNaN(undefined)]; });
t('parseAliases', function () {
    return [Number.parseFloat === parseFloat, Number.parseInt === parseInt, Number.parseFloat('3.5kg'), Number.parseInt('0x1f'), Number.parseInt('08', 10)];
});
t('trunc', function () { return [4.7, -4.7, 0.5, -0.5, NaN, Infinity, '3.9'].map(Math.trunc); });
t('sign', function () { return [3, -3, 0, -0, NaN, '-2', Infinity].map(Math.sign); });
t('cbrt', function () { return [27, -8, 0, -0, 2, Infinity].map(Math.cbrt).map(p); });
t('log2log10', function () { return [Math.log2(8), Math.log2(1024), Math.log10(1000), Math.log10(0.001), Math.log2(0), Math.log10(-1)]; });
t('hypot', function () { return [Math.hypot(3, 4), Math.hypot(), Math.hypot(NaN, Infinity), Math.hypot(-3), Math.hypot(1, 1, 1, 1), Math.hypot(1e200, 1e200) > 1e200]; });
t('clz32imul', function () {
    return [Math.clz32(1), Math.clz32(0), Math.clz32(-1), Math.clz32(0.5), Math.imul(3, 4), Math.imul(0xffffffff, 5), Math.imul(0x7fffffff, 2)];
});
t('fround', function () {
    return [Math.fround(5.5), Math.fround(5.05), Math.fround(1e40), Math.fround(-0), Math.fround(NaN), Math.fround(1.337), Math.fround(2 ** 24 + 1)];
});
t('log1p', function () {
    return [Math.log1p(0), Math.log1p(-0), Math.log1p(-1), Math.log1p(-2), Math.log1p(1e-10), Math.log1p(1e-300), p(Math.log1p(1)),
            p(Math.log1p(1e-5)), Math.log1p(Infinity), p(Math.log1p(-0.5))];
});
t('expm1', function () {
    return [Math.expm1(0), Math.expm1(-0), Math.expm1(1e-10), Math.expm1(1e-300), p(Math.expm1(1)), p(Math.expm1(-1)),
            Math.expm1(-Infinity), Math.expm1(Infinity), Math.expm1(1000), p(Math.expm1(1e-5)), Math.expm1(-50)];
});
t('sinhCoshTanh', function () {
    return [all(Math.sinh, [0, -0, 1, -1, 0.001, 20, 800, -Infinity]), all(Math.cosh, [0, 1, -1, 0.001, 20, 800, -Infinity]),
            all(Math.tanh, [0, -0, 0.5, -0.5, 1e-8, 30, -Infinity])];
});
t('inverseHyperbolic', function () {
    return [all(Math.asinh, [0, -0, 1, -1, 1e-9, 1e10, Infinity]), all(Math.acosh, [1, 2, 0.5, 1e10, 1 + 1e-10, Infinity]),
            all(Math.atanh, [0, -0, 0.5, -0.5, 1, -1, 2, 1e-9])];
});
t('mathNaNs', function () {
    return [Math.fround('x'), Math.log1p(NaN), Math.expm1(NaN), Math.sinh(NaN), Math.cosh(NaN), Math.tanh(NaN), Math.asinh(NaN), Math.acosh(NaN), Math.atanh(NaN)];
});
t('mathCoercion', function () { return [Math.fround('2.5'), Math.log1p('0'), p(Math.sinh('1')), Math.cosh(null)]; });
t('mathNames', function () { return [Math.fround.name, Math.log1p.length, Math.expm1.name, Object.keys(Math).length]; });
t('exponentOperator', function () { return [2 ** 10, (-2) ** 3, 2 ** -1, 4 ** 0.5]; });
return __out;
