/* Intl.Collator and String.prototype.localeCompare: an approximation of
 * the Unicode root collation that ICU (and so Node) uses for "en". Three
 * levels: letters compare case- and accent-blind first (punctuation and
 * spaces before digits before letters, in ICU's order for ASCII), then by
 * accents, then lowercase before uppercase; so "apple" < "Banana" <
 * "cherry" and "resume" < "ReSume" < "résumé", where Duktape compared code
 * units. Options: sensitivity, numeric ("item9" < "item10"), caseFirst,
 * ignorePunctuation. Accented Latin letters decompose as NFD does; ß, æ,
 * œ, ø and friends expand to their base letters; other scripts compare by
 * lowercased code point after the Latin letters. */
'use strict';
var O = rt.orig; /* built-ins as the template had them (78_lazy.js) */
var I = rt.intl, Str = rt.String, apply = rt.apply, WHAT = 'Intl.Collator';
var charCodeAt = O.charCodeAt, strLower = O.toLowerCase;
var fromCharCode = O.fromCharCode, reTest = O.reTest;
var requireCoercible = rt.toObject, strIndexOf = O.indexOf, strSlice = O.slice;
function indexOf(s, ch) { return apply(strIndexOf, s, [ch]); }
function slice(s, a, b) { return apply(strSlice, s, [a, b]); }

/* ICU's order of printable ASCII (and tab, newline): letters' case pairs adjacent. */
var ORDER = '\t\n _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz';
var DIGIT0 = 100, LETTER_A = 200, OTHER = 1000;
/* Combining marks in ICU's secondary order (the common accents first). */
var MARKS = '\u034f\u0332\u0313\u0343\u0314\u0301\u0341\u0300\u0340\u0306\u0302\u030c\u030a\u0342\u0308\u0344\u030b' +
            '\u0303\u0307\u0338\u0327\u0328\u0304';
/* Letters that sort as others plus a secondary difference ("strasse" <
 * "straße"); the spaces that sort as a space plus a tertiary one. */
var EXPAND = { '\u00df': 's\u0335s', '\u00e6': 'a\u0335e', '\u0153': 'o\u0335e', '\u00f8': 'o\u0338', '\u0111': 'd\u0335',
               '\u0142': 'l\u0335', '\u0131': 'i\u0335', '\u00f0': 'd\u0335', '\u00fe': 't\u0335h', '\u0127': 'h\u0335' };
function isSpace(c) { return c === 0xa0 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000; }
var PUNCT_LAST = indexOf(ORDER, '$'), FIRST_DIGIT = indexOf(ORDER, '0'), FIRST_LETTER = indexOf(ORDER, 'a');

function isMark(c) { return c >= 0x300 && c <= 0x36f; }
function markWeight(ch) {
    var i = indexOf(MARKS, ch);
    return i >= 0 ? i + 1 : 100 + apply(charCodeAt, ch, [0]);
}

/* Primary weight and class of a lowercased, non-mark character. */
function primary(ch) {
    var c = apply(charCodeAt, ch, [0]), i = c < 128 ? indexOf(ORDER, ch) : -1;
    if (i >= 0) {
        if (i < FIRST_DIGIT) return { p: i + 1, punct: true };
        if (i < FIRST_LETTER) return { p: DIGIT0 + i, punct: false };
        return { p: LETTER_A + i, punct: false };
    }
    /* spaces, dashes, quotes and other punctuation outside ASCII sort with punctuation */
    if (c === 0xa0 || (c >= 0x2000 && c <= 0x206f) || (c >= 0xa1 && c <= 0xbf && c !== 0xaa && c !== 0xb5 && c !== 0xba) ||
        (c >= 0x3000 && c <= 0x303f))
        return { p: PUNCT_LAST + c / 0x10000, punct: true };
    return { p: OTHER + c, punct: false };
}

/* The collation elements of s: {p, sec, upper, punct, num}. */
function elements(s, numeric) {
    var out = [], d = apply(reTest, /[^\u0000-\u007f]/, [s]) ? apply(rt.normalize, s, ['NFD']) : s;
    for (var i = 0; i < d.length; i++) {
        var ch = d[i], c = apply(charCodeAt, ch, [0]);
        if (isMark(c)) {
            if (out.length > 0) out[out.length - 1].sec += fromCharCode(markWeight(ch));
            continue;
        }
        if (c < 32 && c !== 9 && c !== 10) continue;
        if (numeric && c >= 48 && c <= 57) {
            var j = i;
            while (j < d.length && apply(charCodeAt, d, [j]) >= 48 && apply(charCodeAt, d, [j]) <= 57) j++;
            var run = slice(d, i, j), k = 0;
            while (k < run.length - 1 && run[k] === '0') k++;
            out[out.length] = { p: DIGIT0, num: slice(run, k, run.length), sec: '', upper: false, punct: false };
            i = j - 1;
            continue;
        }
        if (isSpace(c)) {
            out[out.length] = { p: primary(' ').p, num: void 0, sec: '', upper: true, punct: true };
            continue;
        }
        var lower = apply(strLower, ch, []), upper = lower !== ch;
        var exp = rt.hasOwn(EXPAND, lower) ? EXPAND[lower] : lower;
        for (var e = 0; e < exp.length; e++) {
            var ec = exp[e];
            if (isMark(apply(charCodeAt, ec, [0]))) { out[out.length - 1].sec += fromCharCode(markWeight(ec)); continue; }
            var w = primary(ec);
            out[out.length] = { p: w.p, num: void 0, sec: '', upper: upper, punct: w.punct };
        }
    }
    return out;
}

function withoutPunctuation(es) {
    var out = [];
    for (var i = 0; i < es.length; i++) if (!es[i].punct) out[out.length] = es[i];
    return out;
}

function cmpPrimary(a, b) {
    if (a.num !== void 0 && b.num !== void 0) {
        if (a.num.length !== b.num.length) return a.num.length < b.num.length ? -1 : 1;
        return a.num < b.num ? -1 : a.num > b.num ? 1 : 0;
    }
    return a.p < b.p ? -1 : a.p > b.p ? 1 : 0;
}

/* ASCII characters (but ignorable controls): 2 * primary + 1 if uppercase. */
var ASCII = rt.create(null);
for (var ci = 9; ci < 128; ci++) {
    if (ci > 10 && ci < 32) continue;
    var cs = fromCharCode(ci), cl = apply(strLower, cs, []);
    ASCII[cs] = 2 * primary(cl).p + (cl !== cs ? 1 : 0);
}

/* compare() for the common case without allocating: x and y ASCII, no
 * numeric or ignorePunctuation. Returns undefined when the general path
 * must decide. */
function compareAscii(s, x, y) {
    var n = x.length < y.length ? x.length : y.length, tert = 0, i, a, b;
    for (i = 0; i < n; i++) {
        var cx = x[i], cy = y[i];
        if (cx === cy) {
            if (ASCII[cx] === void 0) return void 0;
            continue;
        }
        a = ASCII[cx];
        b = ASCII[cy];
        if (a === void 0 || b === void 0) return void 0;
        if (a >> 1 !== b >> 1) return a >> 1 < b >> 1 ? -1 : 1;
        if (tert === 0) tert = (a & 1) - (b & 1);
    }
    var rest = x.length > n ? x : y;
    for (i = n; i < rest.length; i++) if (ASCII[rest[i]] === void 0) return void 0;
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
    if (s.sensitivity === 'base' || s.sensitivity === 'accent') return 0;
    return s.caseFirst === 'upper' ? -tert : tert;
}

function compare(s, x, y) {
    x = Str(x);
    y = Str(y);
    if (x === y) return 0;
    if (!s.numeric && !s.ignorePunctuation) {
        var r0 = compareAscii(s, x, y);
        if (r0 !== void 0) return r0;
    }
    var a = elements(x, s.numeric), b = elements(y, s.numeric), i, r;
    if (s.ignorePunctuation) {
        a = withoutPunctuation(a);
        b = withoutPunctuation(b);
    }
    var n = a.length < b.length ? a.length : b.length;
    for (i = 0; i < n; i++) if ((r = cmpPrimary(a[i], b[i])) !== 0) return r;
    if (a.length !== b.length) return a.length < b.length ? -1 : 1;
    if (s.sensitivity === 'accent' || s.sensitivity === 'variant')
        for (i = 0; i < n; i++) if (a[i].sec !== b[i].sec) return a[i].sec < b[i].sec ? -1 : 1;
    if (s.sensitivity === 'case' || s.sensitivity === 'variant')
        for (i = 0; i < n; i++)
            if (a[i].upper !== b[i].upper) return (a[i].upper ? 1 : -1) * (s.caseFirst === 'upper' ? -1 : 1);
    return 0;
}

function init(o) {
    var s = {};
    s.usage = I.stringOption(o, 'usage', ['sort', 'search'], 'sort', WHAT);
    I.stringOption(o, 'localeMatcher', ['lookup', 'best fit'], 'best fit', WHAT);
    I.stringOption(o, 'collation', ['default', 'standard', 'search', 'emoji', 'eor'], 'default', WHAT);
    s.numeric = I.booleanOption(o, 'numeric', false);
    s.caseFirst = I.stringOption(o, 'caseFirst', ['upper', 'lower', 'false'], 'false', WHAT);
    s.sensitivity = I.stringOption(o, 'sensitivity', ['base', 'accent', 'case', 'variant'], 'variant', WHAT);
    s.ignorePunctuation = I.booleanOption(o, 'ignorePunctuation', false);
    return s;
}

var DEFAULTS = init(rt.create(null));
var Collator = I.constructor('Collator', init);
I.boundMethod(Collator, 'Collator', 'compare', 2, compare);
rt.install(Collator.prototype, {
    resolvedOptions() {
        var s = I.slots(this, 'Collator', 'resolvedOptions');
        return { locale: I.LOCALE, usage: s.usage, sensitivity: s.sensitivity, ignorePunctuation: s.ignorePunctuation,
                 collation: 'default', numeric: s.numeric, caseFirst: s.caseFirst };
    }
});

/* String.prototype.localeCompare (installed by 78_lazy.js) */
rt.lazyMethods.stringLocaleCompare = function (that, locales, options) {
    var x = Str(requireCoercible(this, 'String.prototype.localeCompare'));
    if (locales === void 0 && options === void 0) return compare(DEFAULTS, x, that);
    I.checkLocales(locales);
    return compare(init(I.optionsObject(options)), x, that);
};
