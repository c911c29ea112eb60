/* Intl.NumberFormat and Number.prototype.toLocaleString with en-US data:
 * grouping, fraction and significant digits, rounding of the shortest
 * decimal form, percent, currency (symbols, codes, names, accounting),
 * compact, scientific and engineering notation, sign display, option
 * errors. */
function f(x, o, loc) { return x.toLocaleString(loc === void 0 ? 'en-US' : loc, o); }
function each(xs, o) { var out = []; for (var i = 0; i < xs.length; i++) out.push(f(xs[i], o)); return out; }
var nums = [0, -0, 1, -1, 0.5, 1.005, 12.3456, 999.9995, 1234.5, -1234.5, 1234567.891, 1e21, 0.000001234, 123456789.987654321,
            NaN, Infinity, -Infinity];

t('defaults', function () { return [each(nums), (1234567.891).toLocaleString(), (1234.5).toLocaleString(undefined)]; });
t('localeTags', function () {
    return [f(1234.5, undefined, 'en'), f(1234.5, undefined, ['en-US', 'fr']), f(1234.5, undefined, [])];
});
t('fractionDigits', function () {
    return [each(nums, { maximumFractionDigits: 0 }), each(nums, { minimumFractionDigits: 2 }),
            each(nums, { minimumFractionDigits: 1, maximumFractionDigits: 2 }), each([1.25, 1.35, 2.5, -2.5, 0.125], { maximumFractionDigits: 1 }),
            f(1.5, { maximumFractionDigits: 5, minimumFractionDigits: 4 }), f(1 / 3, { maximumFractionDigits: 20 })];
});
t('significantDigits', function () {
    return [each(nums, { maximumSignificantDigits: 3 }), each([1, 0.1, 123.456], { minimumSignificantDigits: 5 }),
            each([99.96, 0.00012345, 987654], { maximumSignificantDigits: 2 }),
            f(1234.5, { maximumSignificantDigits: 3, maximumFractionDigits: 1 })];
});
t('integerDigits', function () {
    return [each([0, 5, 123, 1.5], { minimumIntegerDigits: 3 }), f(7, { minimumIntegerDigits: 2, useGrouping: false })];
});
t('grouping', function () {
    return [each([1234, 12345, 1234567.5], { useGrouping: false }), each([1234, 12345], { useGrouping: 'min2' }),
            each([1234, 12345], { useGrouping: 'always' }), f(1234, { useGrouping: true })];
});
t('roundingModes', function () {
    var modes = ['ceil', 'floor', 'expand', 'trunc', 'halfCeil', 'halfFloor', 'halfExpand', 'halfTrunc', 'halfEven'], out = {};
    for (var i = 0; i < modes.length; i++)
        out[modes[i]] = each([1.25, -1.25, 1.35, -1.35, 1.21, -1.29, 2.5, 0.05], { maximumFractionDigits: 1, roundingMode: modes[i] });
    return out;
});
t('trailingZeroDisplay', function () {
    return [each([1, 1.5, 2.001], { minimumFractionDigits: 2, trailingZeroDisplay: 'stripIfInteger' })];
});
t('percent', function () {
    return [each([0, 0.256, 0.07, -0.5, 1.23456, 12.3], { style: 'percent' }),
            each([0.256, 0.07], { style: 'percent', minimumFractionDigits: 1 }), f(0.1234, { style: 'percent', maximumSignificantDigits: 2 })];
});
t('currencySymbols', function () {
    var codes = ['USD', 'EUR', 'GBP', 'JPY', 'CNY', 'INR', 'KRW', 'CAD', 'AUD', 'MXN', 'BRL', 'CHF', 'HKD', 'NZD', 'ILS', 'VND', 'PHP',
                 'SEK', 'RUB', 'TRY', 'PLN', 'ZAR', 'SGD', 'KWD', 'CLP', 'usd'];
    var out = {};
    for (var i = 0; i < codes.length; i++) out[codes[i]] = [f(1234.5, { style: 'currency', currency: codes[i] }), f(-0.5, { style: 'currency', currency: codes[i] })];
    return out;
});
t('currencyDisplay', function () {
    var out = {}, displays = ['code', 'narrowSymbol', 'name'], codes = ['USD', 'EUR', 'CAD', 'JPY', 'GBP', 'CHF', 'MXN', 'AUD', 'CNY', 'INR'];
    for (var i = 0; i < displays.length; i++)
        for (var j = 0; j < codes.length; j++) {
            var o = { style: 'currency', currency: codes[j], currencyDisplay: displays[i] };
            out[displays[i] + codes[j]] = [f(1234.5, o), f(1, o), f(-2, o)];
        }
    return out;
});
t('currencyOptions', function () {
    return [f(-5, { style: 'currency', currency: 'USD', currencySign: 'accounting' }),
            f(5, { style: 'currency', currency: 'USD', currencySign: 'accounting' }),
            f(1234.5678, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }),
            f(1234.5678, { style: 'currency', currency: 'USD', minimumFractionDigits: 0 }),
            f(1234, { style: 'currency', currency: 'USD', minimumFractionDigits: 0 }),
            f(0.5, { style: 'currency', currency: 'EUR', signDisplay: 'always' }),
            f(1234.5, { style: 'currency', currency: 'USD', notation: 'compact' })];
});
t('compact', function () {
    var xs = [0, 1, 999, 1000, 1234, 1500, 9999, 12345, 99999, 123456, 999999, 1234567, 15000000, 999999999, 1.2e9, 3.4e12, 5.6e15, -1234, 0.5, 1.5];
    return [each(xs, { notation: 'compact' }), each(xs, { notation: 'compact', compactDisplay: 'long' }),
            each([1234, 1234567], { notation: 'compact', maximumFractionDigits: 2 }),
            each([1234, 1234567], { notation: 'compact', maximumSignificantDigits: 4 })];
});
t('scientific', function () {
    var xs = [0, 1, 1234567, 0.00012345, -42, 1e21];
    return [each(xs, { notation: 'scientific' }), each(xs, { notation: 'engineering' }),
            f(1234567, { notation: 'scientific', maximumFractionDigits: 1 })];
});
t('signDisplay', function () {
    var ds = ['auto', 'never', 'always', 'exceptZero', 'negative'], out = {};
    for (var i = 0; i < ds.length; i++) out[ds[i]] = each([1, -1, 0, -0, 0.0001, -0.0001, NaN], { signDisplay: ds[i] });
    return out;
});
t('numberFormatObject', function () {
    var nf = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    var fmt = nf.format;
    var r = nf.resolvedOptions();
    return [nf.format(1234.5), fmt(99), [1, 2.5].map(nf.format), Intl.NumberFormat().format(1234.5), typeof Intl, String(Intl),
            r.locale, r.style, r.currency, r.minimumFractionDigits, r.maximumFractionDigits, r.useGrouping, r.notation, r.signDisplay,
            Intl.NumberFormat.supportedLocalesOf(['en-US']), nf.format('1234.5'), nf.format(), Object.prototype.toString.call(nf),
            new Intl.NumberFormat().resolvedOptions().maximumFractionDigits];
});
t('optionErrors', function () {
    function err(fn) { try { fn(); return 'no error'; } catch (e) { return e.name; } }
    return [err(function () { return f(1, { maximumFractionDigits: 101 }); }),
            err(function () { return f(1, { minimumFractionDigits: 3, maximumFractionDigits: 1 }); }),
            err(function () { return f(1, { style: 'money' }); }),
            err(function () { return f(1, { style: 'currency' }); }),
            err(function () { return f(1, { style: 'currency', currency: 'US' }); }),
            err(function () { return f(1, undefined, 'en_US'); }),
            err(function () { return f(1, { maximumSignificantDigits: 0 }); }),
            err(function () { return Intl.NumberFormat.prototype.format.call({}, 1); })];
});
return __out;
