/* String.prototype.normalize: canonical and compatibility forms over Latin,
 * Greek, Cyrillic, Hangul, ligatures and fullwidth letters; mark ordering;
 * the accent-stripping idiom; errors. */
var text = 'Crème brûlée, Ångström, ﬁne, Ｆｕｌｌ, 한국어, Ελληνικά, Ёлка, Việt Nam';
function codes(s) { var out = []; for (var i = 0; i < s.length; i++) out.push(s.charCodeAt(i).toString(16)); return out.join(' '); }

t('forms', function () { return ['NFC', 'NFD', 'NFKC', 'NFKD'].map(function (f) { return [f, codes(text.normalize(f))]; }); });
t('defaultIsNFC', function () { return [text.normalize() === text.normalize('NFC'), 'e\u0301'.normalize() === '\u00e9']; });
t('stripAccents', function () { return text.normalize('NFD').replace(/[\u0300-\u036f]/g, ''); });
t('markOrder', function () {
    /* dot below (220) must come before acute (230) whatever the input order */
    return [codes('q\u0301\u0323'.normalize('NFD')), codes('q\u0323\u0301'.normalize('NFD')), codes('\u1e69'.normalize('NFD')),
            codes('s\u0307\u0323'.normalize('NFC'))];
});
t('composeAcrossMarks', function () { return [codes('a\u0308\u0301'.normalize('NFC')), codes('A\u030a'.normalize('NFC'))]; });
t('hangul', function () { return [codes('\ud55c'.normalize('NFD')), codes('\u1112\u1161\u11ab'.normalize('NFC'))]; });
t('asciiUnchanged', function () { return ['plain ascii 123'.normalize('NFKD'), ''.normalize()]; });
t('badForm', function () { 'x'.normalize('NFX'); });
t('nullThis', function () { return String.prototype.normalize.call(null); });
t('coercion', function () { return [String.prototype.normalize.call(12), 'x'.normalize(undefined)]; });
return __out;
