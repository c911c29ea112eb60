/* Regular expressions over ASCII and non-ASCII text (the matcher reads
 * ASCII input and one-byte bytecode directly: sandbox/duktape/patches/0027):
 * classes, quantifiers with large counts, backreferences, lookaheads,
 * case-insensitive matching across the ASCII boundary, and mixed text. */
function all(re, s) { var out = [], m; re.lastIndex = 0; while ((m = re.exec(s)) !== null) { out.push([m.index, m[0]]); if (m[0] === '') re.lastIndex++; } return out; }
t('asciiExtraction', function () {
    var text = 'id=12 user=alice@example.com took 300ms\nid=7 user=bob@test.org took 12ms\nERROR id=99';
    return [all(/id=(\d+)/g, text), text.match(/[a-z]+@[a-z]+\.(com|org)/g), text.replace(/took (\d+)ms/g, function (_, d) { return '<' + d + '>'; }),
        /\bERROR\b/.test(text), text.split(/\n/).length, all(/^\w+/gm, text)];
});
t('nonAsciiAndMixed', function () {
    var text = 'café naïve – 中文 😀 résumé Ünïcödé ascii';
    return [all(/[^\x00-\x7f]+/g, text), all(/\w+/g, text), text.match(/é/g).length, text.replace(/[éè]/g, 'e'),
        /\u4e2d\u6587/.test(text), all(/[\u00e0-\u00ff]/g, text).length, /^.$/u.test('😀'), /^.$/.test('😀')];
});
t('caseInsensitive', function () {
    return [/ÉCOLE/i.test('école'), /abc/i.test('ABC'), all(/[a-c]+/gi, 'xAbCyaBc'), /k/i.test('\u212a'), /\u00e9/i.test('\u00c9'), 'ÀÉÎ'.match(/[à-î]/gi)];
});
t('countsAndBackrefs', function () {
    var long = new Array(300).join('ab');
    return [/^(ab){299}$/.test(long + 'ab'), /^(ab){100,}$/.test(long), /(\w)\1/.exec('xyzzy')[0], /(a)|(b)/.exec('b'),
        /(?=(\d{3}))\d/.exec('ab1234')[1], /a(?!b)/.exec('abac').index, all(/\d{2,3}/g, '1 22 333 4444 55555'), /x{0}/.exec('abc')[0]];
});
t('bigInput', function () {
    var parts = [];
    for (var i = 0; i < 5000; i++) parts.push('row ' + i + ': value=' + (i * 7 % 1000) + (i % 10 === 0 ? ' — note é' : ''));
    var text = parts.join('\n');
    var vals = all(/value=(\d+)/g, text);
    return [vals.length, vals[4999], (text.match(/é/g) || []).length, text.replace(/\d/g, '#').length, text.search(/row 4999/)];
});
return __out;
