/* Numbers to text and back: ToString and JSON.stringify of short decimals
 * (written without Dragon4, sandbox/duktape/patches/0026) and of the others
 * (Dragon4), the edges of that fast path (1e-6, 2^50, 15-17 digits), and
 * JSON.parse of numbers: short ones read exactly, the rest and the errors by
 * the generic parse. */
var edges = [0.1, 0.2, 0.3, 0.1 + 0.2, 1.5, -2.25, 79.1, 0.000001, 0.0000015, 0.00000999, 9.99e-7, 1e-7,
    123456789012345.6, 1125899906842624, 1125899906842623.5, 1125899906842625, 0.5, 0.25, 1 / 3, 2 / 3, -1 / 3,
    1e15, 1e16, 1e21, 1e22, 123.456, -0.000001, 4.35, 0.07, 1.005, 5e-324, 1.7976931348623157e308, 0.000123,
    100.5, 9007199254740.993, 1.234, 3.14159, 2.718281828459045, 0.1 * 3, 4503599627370495.5, 4294967295.5,
    4294967296.25, -4294967296.5, 1e-6 * 3, 0.3 - 0.1, 12345.678901234, 1234567890.12345, 99999999999999.99,
    0.9999999999999999, 1.0000000000000002, -0, 0, 7e-7, 1.23e-5];
t('toString', function () { return edges.map(String); });
t('templateAndConcat', function () { return edges.map(function (x) { return '' + x + '|' + `${x}`; }); });
t('stringify', function () { return JSON.stringify(edges); });
t('stringifyInObjects', function () {
    return JSON.stringify({ price: 19.99, ratio: -0.125, big: 1e21, tiny: 1e-7, list: [1.1, 2.2, 3.3], nested: { z: 0.1 + 0.7 } });
});
t('stringifyIndented', function () { return JSON.stringify([0.5, { a: 2.75 }], null, 2); });
t('toFixedAndPrecisionUnchanged', function () {
    return [(79.1).toFixed(2), (1.005).toFixed(2), (0.000123).toPrecision(2), (123.456).toExponential(3), (0.1).toString(2), (255.5).toString(16)];
});
t('roundTripGrid', function () {
    var bad = [], sample = [], n = 0;
    for (var i = 0; i < 6000; i++) {
        var xs = [i / 100, i / 8, (i * 7919) / 1000, -i / 3, i / 1000000, (i * 1.1) / 7, i * 1234567.891];
        for (var j = 0; j < xs.length; j++) {
            var s = String(xs[j]);
            if (JSON.parse(JSON.stringify(xs[j])) !== xs[j] || Number(s) !== xs[j]) bad.push(s);
            if (i % 997 === 0) sample.push(s);
            n++;
        }
    }
    return { n: n, bad: bad.slice(0, 10), sample: sample };
});
t('stringsOfAGrid', function () {
    var out = '';
    for (var i = 1; i < 3000; i += 7) out += String(i / 64) + ',' + String(i / 10) + ',' + String(i / 1e5) + ';';
    return out;
});
var texts = ['1.5', '-0', '0', '-0.0', '0.0', '1e5', '1E+5', '1e-5', '1.25e2', '-1.25e+2', '12345678901234567', '123456789012345',
    '1234567890123456', '0.1234567890123456', '0.123456789012345', '1.0e22', '1e22', '1e-22', '1e-23', '123456789012345e-22',
    '123456789012345e22', '5e-324', '1e400', '-1e-400', '0.000000000000000000001', '000', '0.000000000000000000000000123',
    '1.50', '100', '-100', '4294967296', '9007199254740993', '1e0', '1e-0', '1e+0', '0e5', '-0e-5', '1e0001'];
t('parseNumbers', function () {
    return texts.map(function (s) { var v = JSON.parse(s); return [s, v, 1 / v < 0]; });
});
t('parseInStructures', function () {
    return JSON.parse('{"a":[1.5,-2.25,0.1,1e-7,1e21,123456789012345.6],"b":{"c":-0.0,"d":79.1}}');
});
var badTexts = ['00', '01', '1.', '.5', '-', '1e', '1e+', '+1', '0x10', '1..2', '1.2.3', '--1', '1e5e5', '-.5', '1-', 'Infinity', 'NaN'];
t('parseErrors', function () {
    return badTexts.map(function (s) { try { JSON.parse(s); return 'no error'; } catch (e) { return e.name; } });
});
t('parseReviverSeesNumbers', function () {
    return JSON.parse('[0.5,2.75]', function (k, v) { return typeof v === 'number' ? v * 2 : v; });
});
return __out;
