/* String.prototype.localeCompare and Intl.Collator against ICU's root
 * collation as Node applies it for "en": case and accents at the lower
 * levels, punctuation before digits before letters, numeric collation,
 * sensitivity, caseFirst, ignorePunctuation; the bound compare. */
var words = ['banana', 'Apple', 'apple', 'cherry', 'Banana', 'résumé', 'resume', 'Résumé', 'resumes', 're-sume', 're sume', 'ReSume',
             'item10', 'item9', 'item1', 'Item2', 'a', 'A', 'á', 'à', 'â', 'ä', 'ab', 'Aa', 'a_b', 'a.b', 'a1', 'a10', 'a2', '', ' ', '123',
             '_x', '-x', '$x', 'zebra', 'Zebra', 'éclair', 'eclair', 'Eclair', 'naïve', 'naive', 'straße', 'strasse', 'Straße', 'cœur',
             'coeur', 'øre', 'ore', 'über', 'uber', 'Über', 'x y', 'xy', 'x-y', 'x\u2014y', 'x\u00a0y', 'Ωmega', 'omega', 'Яблоко', 'яблоко',
             'абрикос', 'Δ', 'δ', 'alpha', 'ALPHA', 'Alpha'];
function sorted(cmp) { return words.slice().sort(cmp); }
function sign(n) { return n < 0 ? -1 : n > 0 ? 1 : 0; }

t('localeCompareSort', function () { return sorted(function (a, b) { return a.localeCompare(b); }); });
t('collatorSort', function () { return sorted(new Intl.Collator('en').compare); });
t('numeric', function () {
    var c = new Intl.Collator(undefined, { numeric: true });
    return [sorted(c.compare), ['file10.txt', 'file2.txt', 'file1.txt', 'file02.txt', 'file20.txt'].sort(c.compare),
            sign('item10'.localeCompare('item9', undefined, { numeric: true })), sign('007'.localeCompare('7', 'en', { numeric: true }))];
});
t('sensitivity', function () {
    var pairs = [['a', 'A'], ['a', 'á'], ['a', 'b'], ['résumé', 'RESUME'], ['straße', 'strasse'], ['naïve', 'naive'], ['Ab', 'ab']];
    var out = {}, ss = ['base', 'accent', 'case', 'variant'];
    for (var i = 0; i < ss.length; i++) {
        out[ss[i]] = [];
        for (var j = 0; j < pairs.length; j++)
            out[ss[i]].push(sign(pairs[j][0].localeCompare(pairs[j][1], 'en', { sensitivity: ss[i] })));
    }
    return out;
});
t('caseFirst', function () {
    return [sorted(new Intl.Collator('en', { caseFirst: 'upper' }).compare).slice(0, 12),
            sign('a'.localeCompare('A', 'en', { caseFirst: 'upper' })), sign('a'.localeCompare('A', 'en', { caseFirst: 'lower' }))];
});
t('ignorePunctuation', function () {
    var c = new Intl.Collator('en', { ignorePunctuation: true });
    return [sign(c.compare('re-sume', 'resume')), sign(c.compare('a b', 'ab')), sign(c.compare('a.b', 'ab'))];
});
t('pairs', function () {
    var ps = [['a', 'b'], ['b', 'a'], ['a', 'a'], ['', 'a'], ['a', ''], ['A', 'b'], ['a', 'B'], ['10', '9'], ['a', '1'], [' ', '_'],
              ['x', 'X'], ['ä', 'b'], ['Z', 'a'], [null, 'null'], [undefined, 'undefined'], [1, '1']];
    var out = [];
    for (var i = 0; i < ps.length; i++) out.push(sign(String(ps[i][0]).localeCompare(ps[i][1])));
    return out;
});
t('collatorObject', function () {
    var c = new Intl.Collator('en-US', { sensitivity: 'base', numeric: true }), r = c.resolvedOptions(), cmp = c.compare;
    return [r.locale, r.usage, r.sensitivity, r.ignorePunctuation, r.collation, r.numeric, r.caseFirst, cmp('a', 'A'), typeof cmp,
            Object.prototype.toString.call(c), Intl.Collator.supportedLocalesOf('en'), Intl.Collator().compare('a', 'b'),
            ['b', 'a', 'C'].sort(Intl.Collator().compare)];
});
t('errors', function () {
    function err(fn) { try { fn(); return 'no error'; } catch (e) { return e.name; } }
    return [err(function () { return 'a'.localeCompare('b', 'en', { sensitivity: 'high' }); }),
            err(function () { return String.prototype.localeCompare.call(null, 'a'); }),
            err(function () { return 'a'.localeCompare('b', 'not a tag'); })];
});
return __out;
