/* Intl.RelativeTimeFormat with English's phrases: "3 days ago", "in 2 hr.",
 * "in 1.5y" (styles long, short, narrow), and with numeric: "auto" the
 * words ICU gives ("yesterday", "next wk.", "now"). Not here:
 * formatToParts. */
'use strict';
var O = rt.orig; /* built-ins as the template had them (78_lazy.js) */
var I = rt.intl, Str = rt.String, RangeErr = rt.RangeErr, WHAT = 'Intl.RelativeTimeFormat';

var UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
/* unit -> [long one, long other, short one, short other, narrow suffix] */
var NAMES = {
    second: ['second', 'seconds', 'sec.', 'sec.', 's'], minute: ['minute', 'minutes', 'min.', 'min.', 'm'],
    hour: ['hour', 'hours', 'hr.', 'hr.', 'h'], day: ['day', 'days', 'day', 'days', 'd'],
    week: ['week', 'weeks', 'wk.', 'wk.', 'w'], month: ['month', 'months', 'mo.', 'mo.', 'mo'],
    quarter: ['quarter', 'quarters', 'qtr.', 'qtrs.', 'q'], year: ['year', 'years', 'yr.', 'yr.', 'y']
};
/* numeric: "auto": unit -> [-1, 0, +1] by style (long, short and narrow alike but for the unit word) */
function autoWords(unit, style) {
    if (unit === 'second') return [null, 'now', null];
    if (unit === 'minute' || unit === 'hour') return [null, 'this ' + unit, null];
    if (unit === 'day') return ['yesterday', 'today', 'tomorrow'];
    var w = style === 'long' ? unit : NAMES[unit][2];
    return ['last ' + w, 'this ' + w, 'next ' + w];
}

function init(o) {
    I.stringOption(o, 'localeMatcher', ['lookup', 'best fit'], 'best fit', WHAT);
    I.stringOption(o, 'numberingSystem', ['latn'], 'latn', WHAT);
    return {
        style: I.stringOption(o, 'style', ['long', 'short', 'narrow'], 'long', WHAT),
        numeric: I.stringOption(o, 'numeric', ['always', 'auto'], 'always', WHAT),
        number: I.numberSlots(rt.create(null))
    };
}

function singular(unit) {
    unit = Str(unit);
    var u = unit.length > 1 && unit[unit.length - 1] === 's' ? rt.apply(O.slice, unit, [0, -1]) : unit;
    for (var i = 0; i < UNITS.length; i++) if (UNITS[i] === u) return u;
    throw new RangeErr("Invalid unit argument for format() '" + unit + "'");
}

function format(s, value, unit) {
    var x = +value;
    unit = singular(unit);
    if (x !== x || x === Infinity || x === -Infinity) throw new RangeErr('Invalid number value');
    var past = x < 0 || (x === 0 && 1 / x < 0);
    if (s.numeric === 'auto' && (x === 0 || x === 1 || x === -1)) {
        var w = autoWords(unit, s.style)[x === 0 ? 1 : x + 1];
        if (w !== null) return w;
    }
    var text = I.formatNumber(s.number, past ? -x : x), n = NAMES[unit], phrase;
    if (s.style === 'narrow') phrase = text + n[4];
    else phrase = text + ' ' + n[(s.style === 'short' ? 2 : 0) + (I.pluralOf(text) === 'one' ? 0 : 1)];
    return past ? phrase + ' ago' : 'in ' + phrase;
}

var RelativeTimeFormat = I.constructor('RelativeTimeFormat', init, 0, true);
rt.install(RelativeTimeFormat.prototype, {
    format(value, unit) { return format(I.slots(this, 'RelativeTimeFormat', 'format'), value, unit); },
    resolvedOptions() {
        var s = I.slots(this, 'RelativeTimeFormat', 'resolvedOptions');
        return { locale: I.LOCALE, style: s.style, numeric: s.numeric, numberingSystem: 'latn' };
    }
});
