/* Math functions of ES2015 that Duktape 2.7 lacks: fround, log1p, expm1 and
 * the hyperbolic functions (Number.* and the other Math functions are
 * native). log1p and expm1 use Kahan's corrections: within a few ulps of
 * correctly rounded, and exact for small arguments. */
'use strict';
var exp = Math.exp, log = Math.log, sqrt = Math.sqrt, LN2 = Math.LN2;
var f32 = new Float32Array(1);

function log1p(x) {
    x = +x;
    if (x === 0 || x !== x || x === Infinity) return x;
    if (x < -1) return NaN;
    var u = 1 + x;
    if (u === 1) return x;
    return log(u) * x / (u - 1);
}
function expm1(x) {
    x = +x;
    if (x === 0 || x !== x || x === Infinity) return x;
    if (x === -Infinity) return -1;
    var u = exp(x);
    if (u === 1) return x;
    if (u === Infinity) return Infinity;
    var um1 = u - 1;
    if (um1 === -1) return -1;
    return um1 * x / log(u);
}
/* exp(a) / 2 without overflowing before the result does. */
function halfExp(a) {
    if (a < 709) return exp(a) / 2;
    var t = exp(a / 2);
    return t / 2 * t;
}
function signed(x, r) { return x < 0 ? -r : r; }

var methods = {
    fround(x) { f32[0] = x; return f32[0]; },
    log1p(x) { return log1p(x); },
    expm1(x) { return expm1(x); },
    sinh(x) {
        x = +x;
        var a = x < 0 ? -x : x;
        if (x === 0 || x !== x || a === Infinity) return x;
        if (a < 1) {
            var e = expm1(a);
            return signed(x, (e + e / (e + 1)) / 2);
        }
        return signed(x, a > 22 ? halfExp(a) : (exp(a) - exp(-a)) / 2);
    },
    cosh(x) {
        x = +x;
        var a = x < 0 ? -x : x;
        if (x !== x) return x;
        if (a < 1) {
            var e = expm1(a);
            return 1 + e * e / (2 * (1 + e));
        }
        return a > 22 ? halfExp(a) : (exp(a) + exp(-a)) / 2;
    },
    tanh(x) {
        x = +x;
        var a = x < 0 ? -x : x;
        if (x === 0 || x !== x) return x;
        if (a > 22) return signed(x, 1);
        var e = expm1(2 * a);
        return signed(x, e / (e + 2));
    },
    asinh(x) {
        x = +x;
        var a = x < 0 ? -x : x;
        if (x === 0 || x !== x || a === Infinity) return x;
        if (a > 1e8) return signed(x, log(a) + LN2);
        return signed(x, log1p(a + a * a / (1 + sqrt(1 + a * a))));
    },
    acosh(x) {
        x = +x;
        if (!(x >= 1)) return NaN;
        if (x === Infinity) return x;
        if (x > 1e8) return log(x) + LN2;
        var t = x - 1;
        return log1p(t + sqrt(2 * t + t * t));
    },
    atanh(x) {
        x = +x;
        if (x === 0 || x !== x) return x;
        if (x < -1 || x > 1) return NaN;
        var a = x < 0 ? -x : x;
        return signed(x, 0.5 * log1p(2 * a / (1 - a)));
    }
};
var names = rt.keys(methods);
for (var i = 0; i < names.length; i++)
    if (typeof Math[names[i]] !== 'function') rt.lib(Math, names[i], methods[names[i]]);
