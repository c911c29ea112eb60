/* Intl.PluralRules with English's rules: cardinal "one" for a number that
 * formats as exactly 1 (so 1.0 with a fraction digit shown is "other"),
 * ordinal one/two/few for 1st, 2nd, 3rd (not 11th-13th). Not here:
 * selectRange. */
'use strict';
var O = rt.orig; /* built-ins as the template had them (78_lazy.js) */
var I = rt.intl, apply = rt.apply, WHAT = 'Intl.PluralRules';
var indexOf = O.indexOf, slice = O.slice, abs = O.abs;

function init(o) {
    var type = I.stringOption(o, 'type', ['cardinal', 'ordinal'], 'cardinal', WHAT);
    var n = rt.create(null), keys = ['minimumIntegerDigits', 'minimumFractionDigits', 'maximumFractionDigits',
                                     'minimumSignificantDigits', 'maximumSignificantDigits', 'roundingMode'];
    for (var i = 0; i < keys.length; i++) if (o[keys[i]] !== void 0) n[keys[i]] = o[keys[i]];
    n.useGrouping = false;
    return { type: type, number: I.numberSlots(n) };
}

function select(s, value) {
    var x = +value;
    if (x !== x || x === Infinity || x === -Infinity) return 'other';
    var text = I.formatNumber(s.number, abs(x)), dot = apply(indexOf, text, ['.']);
    var int = dot < 0 ? text : apply(slice, text, [0, dot]);
    if (s.type === 'cardinal') return dot < 0 && +int === 1 ? 'one' : 'other';
    if (dot >= 0) return 'other';
    var n10 = +int % 10, n100 = +int % 100;
    if (n10 === 1 && n100 !== 11) return 'one';
    if (n10 === 2 && n100 !== 12) return 'two';
    if (n10 === 3 && n100 !== 13) return 'few';
    return 'other';
}

var PluralRules = I.constructor('PluralRules', init, 0, true);
rt.install(PluralRules.prototype, {
    select(value) { return select(I.slots(this, 'PluralRules', 'select'), value); },
    resolvedOptions() {
        var s = I.slots(this, 'PluralRules', 'resolvedOptions'), n = s.number;
        var out = { locale: I.LOCALE, type: s.type, minimumIntegerDigits: n.minimumIntegerDigits };
        if (n.rounding === 'sd') {
            out.minimumSignificantDigits = n.minimumSignificantDigits;
            out.maximumSignificantDigits = n.maximumSignificantDigits;
        } else {
            out.minimumFractionDigits = n.minimumFractionDigits;
            out.maximumFractionDigits = n.maximumFractionDigits;
        }
        out.pluralCategories = s.type === 'cardinal' ? ['one', 'other'] : ['few', 'one', 'two', 'other'];
        out.roundingIncrement = 1;
        out.roundingMode = n.roundingMode;
        out.roundingPriority = 'auto';
        out.trailingZeroDisplay = n.trailingZeroDisplay;
        return out;
    }
});
I.pluralOf = function (text) { return text === '1' ? 'one' : 'other'; };
