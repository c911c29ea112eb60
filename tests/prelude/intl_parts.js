/* formatToParts of Intl.NumberFormat and Intl.DateTimeFormat: the typed
 * pieces whose values join to format()'s string. */
function np(x, o) { return new Intl.NumberFormat('en-US', o).formatToParts(x); }
function dp(o) { return new Intl.DateTimeFormat('en-US', o).formatToParts(new Date(Date.UTC(2024, 2, 5, 14, 7, 9, 45))); }
t('numberParts', function () {
    return [np(1234567.891), np(-0.5), np(NaN), np(-Infinity), np(0.256, { style: 'percent' }),
            np(-1234.5, { style: 'currency', currency: 'USD' }), np(-5, { style: 'currency', currency: 'USD', currencySign: 'accounting' }),
            np(1234.5, { style: 'currency', currency: 'CHF' }), np(2, { style: 'currency', currency: 'EUR', currencyDisplay: 'name' }),
            np(1234567, { notation: 'compact' }), np(1234567, { notation: 'compact', compactDisplay: 'long' }),
            np(0.00012345, { notation: 'scientific' }), np(1234, { signDisplay: 'always' }), np(12345, { useGrouping: false })];
});
t('dateParts', function () {
    return [dp(), dp({ dateStyle: 'full', timeStyle: 'long' }), dp({ dateStyle: 'short', timeStyle: 'short' }),
            dp({ weekday: 'short', month: 'numeric', day: 'numeric' }), dp({ year: 'numeric', month: 'long' }),
            dp({ hour: 'numeric', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 2 }),
            dp({ minute: '2-digit', second: '2-digit' }), dp({ timeZoneName: 'short' }), dp({ era: 'short' }),
            dp({ weekday: 'long', hour: 'numeric' })];
});
t('partsJoin', function () {
    var f = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' }), d = new Date(Date.UTC(1999, 11, 31, 23, 59, 59));
    var get = function (ps, type) { for (var i = 0; i < ps.length; i++) if (ps[i].type === type) return ps[i].value; };
    var ps = f.formatToParts(d), joined = '';
    for (var i = 0; i < ps.length; i++) joined += ps[i].value;
    return [joined === f.format(d), get(ps, 'year') + '-' + get(ps, 'month') + '-' + get(ps, 'day'),
            get(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'GBP' }).formatToParts(1), 'currency')];
});
return __out;
