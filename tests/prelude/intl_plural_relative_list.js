/* Intl.PluralRules, Intl.RelativeTimeFormat and Intl.ListFormat with en-US
 * data: plural categories (cardinal, ordinal) of formatted numbers,
 * "3 days ago" / "in 2 hours" / "yesterday" in every style, lists joined
 * with "and", "or" or nothing, option errors. */
function sel(pr, xs) { var out = []; for (var i = 0; i < xs.length; i++) out.push(pr.select(xs[i])); return out; }
t('pluralCardinal', function () {
    var xs = [0, 1, 2, 1.0, 1.5, -1, -2, 11, 21, '1', 0.5, 1e3, NaN, Infinity];
    return [sel(new Intl.PluralRules('en-US'), xs), sel(new Intl.PluralRules('en-US', { minimumFractionDigits: 1 }), [1, 2]),
            sel(new Intl.PluralRules('en-US', { maximumFractionDigits: 0 }), [1.4, 1.6, 0.9]),
            sel(new Intl.PluralRules('en-US', { maximumSignificantDigits: 1 }), [1.2, 14])];
});
t('pluralOrdinal', function () {
    var pr = new Intl.PluralRules('en-US', { type: 'ordinal' });
    var xs = [0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 21, 22, 23, 24, 101, 102, 103, 111, 112, 113, 1.5, -1, -2];
    var suffix = { one: 'st', two: 'nd', few: 'rd', other: 'th' }, out = [];
    for (var i = 0; i < xs.length; i++) out.push(xs[i] + suffix[pr.select(xs[i])]);
    return [sel(pr, xs), out];
});
t('pluralObject', function () {
    var r = new Intl.PluralRules('en-US', { type: 'ordinal' }).resolvedOptions(), c = new Intl.PluralRules('en-US').resolvedOptions();
    return [r.type, r.pluralCategories, c.type, c.pluralCategories, c.minimumFractionDigits, c.maximumFractionDigits,
            Object.prototype.toString.call(new Intl.PluralRules()), Intl.PluralRules.supportedLocalesOf('en-US')];
});
t('relativeAlways', function () {
    var units = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'], styles = ['long', 'short', 'narrow'], out = {};
    for (var s = 0; s < styles.length; s++) {
        var f = new Intl.RelativeTimeFormat('en-US', { style: styles[s] });
        for (var u = 0; u < units.length; u++) {
            var row = [];
            var vals = [-2, -1, -0, 0, 1, 2, 1.5, -1234.5];
            for (var v = 0; v < vals.length; v++) row.push(f.format(vals[v], units[u]));
            out[styles[s] + ' ' + units[u]] = row;
        }
    }
    out.plural = new Intl.RelativeTimeFormat('en-US').format(-3, 'days');
    return out;
});
t('relativeAuto', function () {
    var units = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'], styles = ['long', 'short', 'narrow'], out = {};
    for (var s = 0; s < styles.length; s++) {
        var f = new Intl.RelativeTimeFormat('en-US', { style: styles[s], numeric: 'auto' });
        for (var u = 0; u < units.length; u++) {
            var row = [];
            var vals = [-2, -1, 0, -0, 1, 2, 1.5];
            for (var v = 0; v < vals.length; v++) row.push(f.format(vals[v], units[u]));
            out[styles[s] + ' ' + units[u]] = row;
        }
    }
    return out;
});
t('relativeObject', function () {
    var f = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto', style: 'short' }), r = f.resolvedOptions();
    function err(fn) { try { fn(); return 'no error'; } catch (e) { return e.name; } }
    return [r.style, r.numeric, r.numberingSystem, Object.prototype.toString.call(f),
            err(function () { return f.format(1, 'fortnight'); }), err(function () { return f.format(Infinity, 'day'); }),
            err(function () { return new Intl.RelativeTimeFormat('en-US', { style: 'tiny' }); }),
            err(function () { return Intl.RelativeTimeFormat(); }), f.format('3', 'day')];
});
t('listFormat', function () {
    var types = ['conjunction', 'disjunction', 'unit'], styles = ['long', 'short', 'narrow'], out = {};
    var lists = [[], ['a'], ['a', 'b'], ['a', 'b', 'c'], ['apples', 'pears', 'plums', 'figs']];
    for (var i = 0; i < types.length; i++)
        for (var j = 0; j < styles.length; j++) {
            var f = new Intl.ListFormat('en-US', { type: types[i], style: styles[j] }), row = [];
            for (var k = 0; k < lists.length; k++) row.push(f.format(lists[k]));
            out[types[i] + ' ' + styles[j]] = row;
        }
    out.defaults = new Intl.ListFormat().format(['x', 'y', 'z']);
    out.iterable = new Intl.ListFormat('en-US').format(new Set(['p', 'q']));
    out.resolved = new Intl.ListFormat('en-US', { type: 'unit' }).resolvedOptions().type;
    function err(fn) { try { fn(); return 'no error'; } catch (e) { return e.name; } }
    out.errors = [err(function () { return new Intl.ListFormat('en-US').format(['a', 1]); }),
                  err(function () { return new Intl.ListFormat('en-US', { type: 'and' }); })];
    return out;
});
return __out;
