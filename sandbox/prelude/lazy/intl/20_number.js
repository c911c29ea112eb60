/* Intl.NumberFormat with the en-US locale's data, and
 * Number.prototype.toLocaleString on top of it. A number is formatted from
 * its shortest decimal form (the digits String(x) shows), so rounding is
 * decimal, as ICU does it: (1.005).toLocaleString('en-US',
 * {maximumFractionDigits: 2}) is "1.01", where toFixed(2) gives "1.00".
 * Styles decimal, percent and currency; notations standard, compact,
 * scientific and engineering; fraction and significant digits with every
 * rounding mode; grouping; sign display; formatToParts. Not here: style
 * "unit" (a RangeError) and formatRange. */
'use strict';
var O = rt.orig; /* built-ins as the template had them (78_lazy.js) */
var I = rt.intl, Str = rt.String, TypeErr = rt.TypeErr, RangeErr = rt.RangeErr, apply = rt.apply;
var stringOption = I.stringOption, numberOption = I.numberOption;
var toExponential = O.toExponential, numberValueOf = O.numberValueOf;
var strSlice = O.slice, strIndexOf = O.indexOf, strUpper = O.toUpperCase;
var reTest = O.reTest, max = O.max, min = O.min, floor = O.floor;
var NBSP = '\u00a0', WHAT = 'Intl.NumberFormat';

function slice(s, a, b) { return apply(strSlice, s, b === void 0 ? [a] : [a, b]); }
function zeros(n) { var s = ''; while (n-- > 0) s += '0'; return s; }

/* ---- currencies ------------------------------------------------------------------------ */

/* en-US symbols (ICU's), narrow symbols where they differ, and names. */
var SYMBOL = {
    USD: '$', EUR: '\u20ac', GBP: '\u00a3', JPY: '\u00a5', CNY: 'CN\u00a5', INR: '\u20b9', KRW: '\u20a9', CAD: 'CA$', AUD: 'A$',
    MXN: 'MX$', BRL: 'R$', HKD: 'HK$', NZD: 'NZ$', TWD: 'NT$', ILS: '\u20aa', VND: '\u20ab', PHP: '\u20b1', XAF: 'FCFA',
    XCD: 'EC$', XPF: 'CFPF'
};
var NARROW = {
    CAD: '$', AUD: '$', MXN: '$', HKD: '$', NZD: '$', TWD: '$', SGD: '$', ARS: '$', CLP: '$', COP: '$', CNY: '\u00a5',
    RUB: '\u20bd', TRY: '\u20ba', UAH: '\u20b4', KZT: '\u20b8', NGN: '\u20a6', PLN: 'z\u0142', THB: '\u0e3f', SEK: 'kr',
    NOK: 'kr', DKK: 'kr', ZAR: 'R', EGP: 'E\u00a3', CZK: 'K\u010d', HUF: 'Ft', IDR: 'Rp', MYR: 'RM'
};
var NAME = {
    USD: ['US dollar', 'US dollars'], EUR: ['euro', 'euros'], GBP: ['British pound', 'British pounds'],
    JPY: ['Japanese yen', 'Japanese yen'], CNY: ['Chinese yuan', 'Chinese yuan'], INR: ['Indian rupee', 'Indian rupees'],
    CAD: ['Canadian dollar', 'Canadian dollars'], AUD: ['Australian dollar', 'Australian dollars'],
    MXN: ['Mexican peso', 'Mexican pesos'], CHF: ['Swiss franc', 'Swiss francs'], BRL: ['Brazilian real', 'Brazilian reals'],
    KRW: ['South Korean won', 'South Korean won'], HKD: ['Hong Kong dollar', 'Hong Kong dollars'],
    NZD: ['New Zealand dollar', 'New Zealand dollars'], SGD: ['Singapore dollar', 'Singapore dollars'],
    SEK: ['Swedish krona', 'Swedish kronor'], NOK: ['Norwegian krone', 'Norwegian kroner'], DKK: ['Danish krone', 'Danish kroner'],
    PLN: ['Polish zloty', 'Polish zlotys'], RUB: ['Russian ruble', 'Russian rubles'], ZAR: ['South African rand', 'South African rand'],
    TRY: ['Turkish lira', 'Turkish Lira'], ILS: ['Israeli new shekel', 'Israeli new shekels']
};
/* ISO 4217 minor units other than 2. */
var DIGITS = {
    BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0, VUV: 0,
    XAF: 0, XOF: 0, XPF: 0, BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3
};
function currencyDigits(c) { return rt.hasOwn(DIGITS, c) ? DIGITS[c] : 2; }

/* ---- options (InitializeNumberFormat) ------------------------------------------------------ */

function init(o) {
    var s = {};
    stringOption(o, 'localeMatcher', ['lookup', 'best fit'], 'best fit', WHAT);
    stringOption(o, 'numberingSystem', ['latn'], 'latn', WHAT);
    s.style = stringOption(o, 'style', ['decimal', 'percent', 'currency', 'unit'], 'decimal', WHAT);
    var currency = o.currency;
    if (currency !== void 0) {
        currency = Str(currency);
        if (!apply(reTest, /^[A-Za-z]{3}$/, [currency])) throw new RangeErr('Invalid currency code : ' + currency);
        currency = apply(strUpper, currency, []);
    }
    s.currencyDisplay = stringOption(o, 'currencyDisplay', ['code', 'symbol', 'narrowSymbol', 'name'], 'symbol', WHAT);
    s.currencySign = stringOption(o, 'currencySign', ['standard', 'accounting'], 'standard', WHAT);
    if (o.unit !== void 0 || s.style === 'unit')
        throw new RangeErr('Intl.NumberFormat: style "unit" is not available in the sandbox');
    if (s.style === 'currency') {
        if (currency === void 0) throw new TypeErr('Currency code is required with currency style.');
        s.currency = currency;
    }
    s.notation = stringOption(o, 'notation', ['standard', 'scientific', 'engineering', 'compact'], 'standard', WHAT);
    var cd = s.style === 'currency' ? currencyDigits(s.currency) : 0;
    digitOptions(s, o, cd, s.style === 'currency' ? max(cd, 0) : s.style === 'percent' ? 0 : 3);
    s.compactDisplay = stringOption(o, 'compactDisplay', ['short', 'long'], 'short', WHAT);
    var g = o.useGrouping;
    if (g === void 0 || g === 'true' || g === 'false') g = s.notation === 'compact' ? 'min2' : 'auto';
    else if (g === true) g = 'always';
    else if (!g) g = false;
    else {
        g = Str(g);
        if (g !== 'min2' && g !== 'auto' && g !== 'always')
            throw new RangeErr('Value ' + g + ' out of range for ' + WHAT + ' options property useGrouping');
    }
    s.useGrouping = g;
    s.signDisplay = stringOption(o, 'signDisplay', ['auto', 'never', 'always', 'exceptZero', 'negative'], 'auto', WHAT);
    return s;
}

/* SetNumberFormatDigitOptions (ECMA-402 2023, roundingPriority "auto"). */
function digitOptions(s, o, mnfdDefault, mxfdDefault) {
    s.minimumIntegerDigits = numberOption(o.minimumIntegerDigits, 1, 21, 1, 'minimumIntegerDigits');
    var mnfd = o.minimumFractionDigits, mxfd = o.maximumFractionDigits;
    var mnsd = o.minimumSignificantDigits, mxsd = o.maximumSignificantDigits;
    var inc = numberOption(o.roundingIncrement, 1, 5000, 1, 'roundingIncrement');
    if (inc !== 1) throw new RangeErr('Intl.NumberFormat: roundingIncrement other than 1 is not available in the sandbox');
    s.roundingMode = stringOption(o, 'roundingMode', ['ceil', 'floor', 'expand', 'trunc', 'halfCeil', 'halfFloor', 'halfExpand',
                                                        'halfTrunc', 'halfEven'], 'halfExpand', WHAT);
    stringOption(o, 'roundingPriority', ['auto'], 'auto', WHAT);
    s.trailingZeroDisplay = stringOption(o, 'trailingZeroDisplay', ['auto', 'stripIfInteger'], 'auto', WHAT);
    var hasSd = mnsd !== void 0 || mxsd !== void 0, hasFd = mnfd !== void 0 || mxfd !== void 0;
    var needSd = hasSd, needFd = !(hasSd || (!hasFd && s.notation === 'compact'));
    s.rounding = needSd ? 'sd' : needFd ? 'fd' : 'compact';
    if (needSd) {
        s.minimumSignificantDigits = numberOption(mnsd, 1, 21, 1, 'minimumSignificantDigits');
        s.maximumSignificantDigits = numberOption(mxsd, s.minimumSignificantDigits, 21, 21, 'maximumSignificantDigits');
    }
    if (needFd) {
        if (hasFd) {
            mnfd = numberOption(mnfd, 0, 100, void 0, 'minimumFractionDigits');
            mxfd = numberOption(mxfd, 0, 100, void 0, 'maximumFractionDigits');
            if (mnfd === void 0) mnfd = min(mnfdDefault, mxfd);
            else if (mxfd === void 0) mxfd = max(mxfdDefault, mnfd);
            else if (mnfd > mxfd) throw new RangeErr('maximumFractionDigits value is out of range.');
        } else {
            mnfd = mnfdDefault;
            mxfd = mxfdDefault;
        }
        s.minimumFractionDigits = mnfd;
        s.maximumFractionDigits = mxfd;
    }
    if (s.rounding === 'compact') {
        s.minimumFractionDigits = 0;
        s.maximumFractionDigits = 0;
        s.minimumSignificantDigits = 1;
        s.maximumSignificantDigits = 2;
    }
}

/* ---- decimal digits ---------------------------------------------------------------------------- */

/* The shortest decimal form of a finite x > 0 as {d, e}: x = 0.d * 10^e,
 * d without leading or trailing zeros; zero is {d: '', e: 0}. */
function decimal(x) {
    if (x === 0) return { d: '', e: 0 };
    var s = apply(toExponential, x, []), at = apply(strIndexOf, s, ['e']);
    var m = slice(s, 0, at), exp = +slice(s, at + 1);
    var d = m[0] + slice(m, 2);
    return trim({ d: d, e: exp + 1 });
}
function trim(v) {
    var d = v.d, n = d.length;
    while (n > 0 && d[n - 1] === '0') n--;
    var i = 0;
    while (i < n && d[i] === '0') i++;
    return i === n ? { d: '', e: 0 } : { d: slice(d, i, n), e: v.e - i };
}

/* Keeps the first `keep` digits of v (keep may be <= 0 or beyond them),
 * rounding the rest away by mode; neg: the number is negative. */
function roundDigits(v, keep, mode, neg) {
    var d = v.d, e = v.e;
    if (keep >= d.length) return v;
    if (keep < 0) {
        d = zeros(-keep) + d;
        e -= keep;
        keep = 0;
    }
    var first = +d[keep], more = d.length > keep + 1;
    var cmp = first > 5 || (first === 5 && more) ? 1 : first === 5 ? 0 : -1;
    var odd = keep > 0 && (+d[keep - 1]) % 2 === 1, up;
    switch (mode) {
    case 'ceil': up = !neg; break;
    case 'floor': up = neg; break;
    case 'expand': up = true; break;
    case 'trunc': up = false; break;
    case 'halfCeil': up = cmp > 0 || (cmp === 0 && !neg); break;
    case 'halfFloor': up = cmp > 0 || (cmp === 0 && neg); break;
    case 'halfTrunc': up = cmp > 0; break;
    case 'halfEven': up = cmp > 0 || (cmp === 0 && odd); break;
    default: up = cmp >= 0;
    }
    var kept = slice(d, 0, keep);
    if (!up) return trim({ d: kept, e: e });
    var i = kept.length - 1;
    while (i >= 0 && kept[i] === '9') i--;
    if (i < 0) return { d: '1', e: e + 1 };
    return trim({ d: slice(kept, 0, i) + Str(+kept[i] + 1), e: e });
}

/* Rounds v as the options say; returns {v, minFrac, minSig}. */
function round(s, v, neg) {
    /* compact: significant digits when they keep more precision than fraction digits */
    var bySig = s.rounding === 'sd' ||
        (s.rounding === 'compact' && (v.d === '' || v.e - s.maximumSignificantDigits < -s.maximumFractionDigits));
    if (bySig)
        return { v: roundDigits(v, s.maximumSignificantDigits, s.roundingMode, neg), minFrac: 0,
                 minSig: s.minimumSignificantDigits };
    return { v: roundDigits(v, v.e + s.maximumFractionDigits, s.roundingMode, neg),
             minFrac: s.minimumFractionDigits, minSig: 0 };
}

/* The digits of r as integer and fraction strings, padded as asked. */
function digits(s, r) {
    var v = r.v, d = v.d, e = v.e, int, frac;
    if (d === '') { int = '0'; frac = ''; }
    else if (e <= 0) { int = '0'; frac = zeros(-e) + d; }
    else if (e >= d.length) { int = d + zeros(e - d.length); frac = ''; }
    else { int = slice(d, 0, e); frac = slice(d, e); }
    var want = r.minFrac;
    if (r.minSig > 0) want = d === '' ? r.minSig - 1 : max(0, r.minSig - e);
    if (!(s.trailingZeroDisplay === 'stripIfInteger' && frac === ''))
        while (frac.length < want) frac += '0';
    while (int.length < s.minimumIntegerDigits) int = '0' + int;
    return { int: int, frac: frac };
}

/* Appends {type, value} to parts. */
function part(parts, type, value) { parts[parts.length] = { type: type, value: value }; }

/* The integer digits as parts, grouped in threes as en does. */
function groupParts(s, int, parts) {
    var g = s.useGrouping;
    if (g === false || int.length < 4 || (g === 'min2' && int.length < 5)) { part(parts, 'integer', int); return; }
    var first = ((int.length - 1) % 3) + 1;
    part(parts, 'integer', slice(int, 0, first));
    for (var i = first; i < int.length; i += 3) {
        part(parts, 'group', ',');
        part(parts, 'integer', slice(int, i, i + 3));
    }
}

/* ---- formatting ---------------------------------------------------------------------------------- */

var COMPACT_SHORT = ['', 'K', 'M', 'B', 'T'];
var COMPACT_LONG = ['', 'thousand', 'million', 'billion', 'trillion'];

/* {parts, zero, one}: the magnitude of |x| formatted without sign or currency. */
function magnitude(s, x, neg) {
    var parts = [];
    if (x !== x) { part(parts, 'nan', 'NaN'); return { parts: parts, zero: false }; }
    if (x === Infinity) { part(parts, 'infinity', '\u221e'); return { parts: parts, zero: false }; }
    var v = decimal(x), r, k = 0, exp = null;
    if (s.style === 'percent' && v.d !== '') v = { d: v.d, e: v.e + 2 };
    if (s.notation === 'compact') {
        k = v.d === '' || v.e <= 3 ? 0 : min(4, floor((v.e - 1) / 3));
        for (;;) {
            r = round(s, { d: v.d, e: v.e - 3 * k }, neg);
            if (k < 4 && r.v.d !== '' && r.v.e > 3) { k++; continue; }
            break;
        }
    } else if (s.notation === 'scientific' || s.notation === 'engineering') {
        var step = s.notation === 'engineering' ? 3 : 1;
        exp = v.d === '' ? 0 : floor((v.e - 1) / step) * step;
        for (;;) {
            r = round(s, { d: v.d, e: v.e - exp }, neg);
            if (r.v.d !== '' && r.v.e > step) { exp += step; continue; }
            break;
        }
    } else {
        r = round(s, v, neg);
    }
    var p = digits(s, r);
    groupParts(s, p.int, parts);
    if (p.frac !== '') { part(parts, 'decimal', '.'); part(parts, 'fraction', p.frac); }
    if (k > 0 && s.compactDisplay === 'long') { part(parts, 'literal', ' '); part(parts, 'compact', COMPACT_LONG[k]); }
    else if (k > 0) part(parts, 'compact', COMPACT_SHORT[k]);
    if (exp !== null) {
        part(parts, 'exponentSeparator', 'E');
        if (exp < 0) part(parts, 'exponentMinusSign', '-');
        part(parts, 'exponentInteger', Str(exp < 0 ? -exp : exp));
    }
    return { parts: parts, zero: r.v.d === '', one: p.int === '1' && p.frac === '' && k === 0 && exp === null };
}

function formatToParts(s, value) {
    var x = typeof value === 'number' ? value : +value;
    var neg = x < 0 || (x === 0 && 1 / x < 0), m = magnitude(s, neg ? -x : x, neg);
    var sign = '';
    switch (s.signDisplay) {
    case 'never': break;
    case 'always': sign = neg ? '-' : '+'; break;
    case 'exceptZero': sign = m.zero || x !== x ? '' : neg ? '-' : '+'; break;
    case 'negative': sign = neg && !m.zero ? '-' : ''; break;
    default: sign = neg ? '-' : '';
    }
    var out = [], i;
    var accounting = sign === '-' && s.style === 'currency' && s.currencySign === 'accounting';
    if (accounting) part(out, 'literal', '(');
    else if (sign !== '') part(out, sign === '-' ? 'minusSign' : 'plusSign', sign);
    var c = s.currency, disp = s.currencyDisplay;
    if (s.style === 'currency' && disp !== 'name') {
        var sym = c;
        if (disp === 'narrowSymbol' && rt.hasOwn(NARROW, c)) sym = NARROW[c];
        else if (disp !== 'code' && rt.hasOwn(SYMBOL, c)) sym = SYMBOL[c];
        part(out, 'currency', sym);
        if (apply(reTest, /[A-Za-z]$/, [sym])) part(out, 'literal', NBSP);
    }
    for (i = 0; i < m.parts.length; i++) out[out.length] = m.parts[i];
    if (s.style === 'percent') part(out, 'percentSign', '%');
    if (s.style === 'currency' && disp === 'name') {
        var names = rt.hasOwn(NAME, c) ? NAME[c] : [c, c];
        part(out, 'literal', ' ');
        part(out, 'currency', names[m.one ? 0 : 1]);
    }
    if (accounting) part(out, 'literal', ')');
    return out;
}

function join(parts) {
    var out = '';
    for (var i = 0; i < parts.length; i++) out += parts[i].value;
    return out;
}
function format(s, value) { return join(formatToParts(s, value)); }

/* ---- Intl.NumberFormat and Number.prototype.toLocaleString ------------------------------------------ */

var NumberFormat = I.constructor('NumberFormat', init);
I.boundMethod(NumberFormat, 'NumberFormat', 'format', 1, format);
var RESOLVED = ['numberingSystem', 'style', 'currency', 'currencyDisplay', 'currencySign', 'minimumIntegerDigits',
                'minimumFractionDigits', 'maximumFractionDigits', 'minimumSignificantDigits', 'maximumSignificantDigits',
                'useGrouping', 'notation', 'compactDisplay', 'signDisplay', 'roundingMode', 'trailingZeroDisplay'];
rt.install(NumberFormat.prototype, {
    formatToParts(value) { return formatToParts(I.slots(this, 'NumberFormat', 'formatToParts'), value); },
    resolvedOptions() {
        var s = I.slots(this, 'NumberFormat', 'resolvedOptions'), out = { locale: I.LOCALE, numberingSystem: 'latn' };
        for (var i = 1; i < RESOLVED.length; i++) {
            var k = RESOLVED[i];
            if (s[k] === void 0 || (k === 'compactDisplay' && s.notation !== 'compact')) continue;
            if ((k === 'currencyDisplay' || k === 'currencySign') && s.style !== 'currency') continue;
            out[k] = s[k];
        }
        out.roundingIncrement = 1;
        out.roundingPriority = 'auto';
        return out;
    }
});

/* Number.prototype.toLocaleString (installed by 78_lazy.js) */
var DEFAULTS = init(rt.create(null)); /* toLocaleString() with no arguments, the usual call */
rt.lazyMethods.numberToLocaleString = function (locales, options) {
    var x = apply(numberValueOf, this, []);
    if (locales === void 0 && options === void 0) return format(DEFAULTS, x);
    I.checkLocales(locales);
    return format(init(I.optionsObject(options)), x);
};

/* For PluralRules and RelativeTimeFormat: slots from an options object, and
 * the formatter. */
I.numberSlots = init;
I.formatNumber = format;
