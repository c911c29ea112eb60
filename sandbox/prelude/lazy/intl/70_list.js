/* Intl.ListFormat with English's patterns: "a, b, and c", "a, b, & c",
 * "a, b, or c", "a, b, c" (types conjunction, disjunction, unit; styles
 * long, short, narrow). Not here: formatToParts. */
'use strict';
var I = rt.intl, TypeErr = rt.TypeErr, WHAT = 'Intl.ListFormat';

/* type + style -> [the word between two, the word before the last of more] */
var WORDS = {
    'conjunction long': [' and ', ', and '], 'conjunction short': [' & ', ', & '], 'conjunction narrow': [', ', ', '],
    'disjunction long': [' or ', ', or '], 'disjunction short': [' or ', ', or '], 'disjunction narrow': [' or ', ', or '],
    'unit long': [', ', ', '], 'unit short': [', ', ', '], 'unit narrow': [' ', ' ']
};

function init(o) {
    I.stringOption(o, 'localeMatcher', ['lookup', 'best fit'], 'best fit', WHAT);
    return {
        type: I.stringOption(o, 'type', ['conjunction', 'disjunction', 'unit'], 'conjunction', WHAT),
        style: I.stringOption(o, 'style', ['long', 'short', 'narrow'], 'long', WHAT)
    };
}

function format(s, list) {
    var items = [];
    if (list !== void 0)
        rt.iterate(list, function (v) {
            if (typeof v !== 'string') throw new TypeErr('Iterable yielded ' + rt.what(v) + ' which is not a string');
            items[items.length] = v;
        });
    var w = WORDS[s.type + ' ' + s.style], sep = s.type === 'unit' && s.style === 'narrow' ? ' ' : ', ', n = items.length;
    if (n === 0) return '';
    if (n === 1) return items[0];
    if (n === 2) return items[0] + w[0] + items[1];
    var out = items[0];
    for (var i = 1; i < n - 1; i++) out += sep + items[i];
    return out + w[1] + items[n - 1];
}

var ListFormat = I.constructor('ListFormat', init, 0, true);
rt.install(ListFormat.prototype, {
    format(list) { return format(I.slots(this, 'ListFormat', 'format'), list); },
    resolvedOptions() {
        var s = I.slots(this, 'ListFormat', 'resolvedOptions');
        return { locale: I.LOCALE, type: s.type, style: s.style };
    }
});
