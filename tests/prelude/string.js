/* String additions: padStart/padEnd, trimStart/trimEnd, replaceAll,
 * matchAll, at, String.raw, fromCodePoint, isWellFormed/toWellFormed. */
function drain(it) { var out = [], s; while (!(s = it.next()).done) out.push(s.value); return out; }
function matches(it) { return drain(it).map(function (m) { return [m[0], m.index, m.input, m.length]; }); }

t('padStart', function () {
    return ['5'.padStart(3, '0'), 'abc'.padStart(10), 'abc'.padStart(6, '123465'), 'abc'.padStart(8, '0'),
            'abc'.padStart(1), 'abc'.padStart(5, ''), 'abc'.padStart(-1, 'x'), 'abc'.padStart(NaN, 'x')];
});
t('padEnd', function () {
    return ['abc'.padEnd(10, 'foo'), 'abc'.padEnd(6, '123456'), 'abc'.padEnd(2), 'x'.padEnd(4), 'x'.padEnd(3, undefined)];
});
t('padLongFill', function () { return ['ab'.padStart(5, 'xyzxyzxyz'), 'ab'.padEnd(7, 'longfiller'), ''.padStart(4, 'ab')]; });
t('padCoercion', function () {
    return [String.prototype.padStart.call(7, 3, 0), 'a'.padEnd('3', 12), 'a'.padStart(3.9, '-'), 'a'.padStart(true, '-')];
});
t('padNullThis', function () { return String.prototype.padStart.call(null, 3); });
t('padLarge', function () { var s = 'x'.padStart(10000, 'ab'); return [s.length, s.slice(0, 4), s.slice(-3)]; });
t('trimStartEnd', function () {
    var s = ' \t\n\u00a0 hi there \r\n\ufeff';
    return [JSON.stringify(s.trimStart()), JSON.stringify(s.trimEnd()), JSON.stringify(s.trim())];
});
t('trimAliases', function () {
    return [String.prototype.trimLeft === String.prototype.trimStart, String.prototype.trimRight === String.prototype.trimEnd,
            String.prototype.trimLeft.name, String.prototype.trimRight.name, '  x '.trimLeft(), ' x  '.trimRight()];
});
t('trimAllWhitespace', function () { return ['   '.trimStart(), '\n\t'.trimEnd(), ''.trimStart()]; });
t('trimRepeatedContent', function () { return ['  ab ab  '.trimStart(), '  ab ab  '.trimEnd(), ' a a '.trimStart()]; });
t('replaceAllString', function () {
    return ['a-b-c'.replaceAll('-', '+'), 'aaa'.replaceAll('a', 'b'), 'aaaa'.replaceAll('aa', 'b'), 'abc'.replaceAll('x', 'y'),
            'abc'.replaceAll('', '_'), ''.replaceAll('', '_'), 'xxx'.replaceAll('xx', 'y')];
});
t('replaceAllDollarPatterns', function () {
    return ['a.b'.replaceAll('.', '$$'), 'a.b'.replaceAll('.', '[$&]'), 'a.b.c'.replaceAll('.', "[$`]"),
            'a.b.c'.replaceAll('.', "[$']"), 'a.b'.replaceAll('.', '$1'), 'a.b'.replaceAll('.', '$<n>'),
            'a.b'.replaceAll('.', '$'), 'a.b'.replaceAll('.', '$$$'), 'ab'.replaceAll('', '$&|')];
});
t('replaceAllFunction', function () {
    var calls = [];
    var r = 'x1x2'.replaceAll('x', function (m, off, str) { calls.push([m, off, str, arguments.length]); return '<' + off + '>'; });
    return [r, calls];
});
t('replaceAllFunctionReturnCoerced', function () { return 'aXa'.replaceAll('a', function () { return 7; }); });
t('replaceAllFunctionNoSubstitution', function () { return 'a.b'.replaceAll('.', function () { return '$&'; }); });
t('replaceAllRegexGlobal', function () {
    return ['aXbxc'.replaceAll(/x/gi, '-'), 'a1b22'.replaceAll(/(\d+)/g, '[$1]'), 'abc'.replaceAll(/(?:)/g, '.'),
            'a1b2'.replaceAll(/\d/g, function (d) { return d * 2; })];
});
t('replaceAllRegexNonGlobal', function () { return 'aaa'.replaceAll(/a/, 'b'); });
t('replaceAllCoercesSearch', function () { return ['1231'.replaceAll(1, 'x'), 'nullnull'.replaceAll(null, 'N'), 'a,b'.replaceAll([','], ';')]; });
t('replaceAllNullThis', function () { return String.prototype.replaceAll.call(undefined, 'a', 'b'); });
t('replaceAllOverlap', function () { return ['aaaa'.replaceAll('aa', '$&-'), 'abab'.replaceAll('aba', 'X')]; });
t('matchAllBasic', function () { return matches('a1b22c333'.matchAll(/\d+/g)); });
t('matchAllGroups', function () {
    return drain('k1=v1;k2=v2'.matchAll(/(\w+)=(\w+)/g)).map(function (m) { return [m[1], m[2], m.index]; });
});
t('matchAllNonGlobalThrows', function () { return 'abc'.matchAll(/b/); });
t('matchAllString', function () { return matches('a.b.c'.matchAll('.')); });
t('matchAllStringSpecialChars', function () { return matches('a+b+'.matchAll('\\+')); });
t('matchAllEmptyMatches', function () { return matches('abc'.matchAll(/(?:)/g)); });
t('matchAllEmptyAndNonEmpty', function () { return matches('aXbX'.matchAll(/X*/g)); });
t('matchAllDoesNotTouchLastIndex', function () {
    var re = /a/g;
    re.lastIndex = 1;
    var it = 'aaa'.matchAll(re);
    var first = it.next().value.index;
    return [first, re.lastIndex, drain(it).length, re.lastIndex];
});
t('matchAllLazy', function () {
    var it = 'a1a2'.matchAll(/a(\d)/g);
    return [Object.prototype.toString.call(it), typeof it[Symbol.iterator], it[Symbol.iterator]() === it, it.next().value[1]];
});
t('matchAllCaseInsensitive', function () { return matches('AbAb'.matchAll(/a/gi)); });
t('matchAllMultiline', function () { return matches('x\ny\nz'.matchAll(/^\w$/gm)); });
t('matchAllArrayFrom', function () {
    return Array.from('2024-01-15 and 2025-12-31'.matchAll(/(\d{4})-(\d{2})-(\d{2})/g), function (m) { return m[1] + m[2] + m[3]; });
});
t('matchAllUndefined', function () { return matches('ab'.matchAll()); });
t('matchAllNullThis', function () { return String.prototype.matchAll.call(null, /a/g); });
t('at', function () {
    var s = 'abc';
    return [s.at(0), s.at(-1), s.at(3), s.at(-4), s.at(), s.at('1'), s.at(1.7), ''.at(0)];
});
t('atSurrogates', function () { return ['\ud83d\ude00'.at(0).charCodeAt(0), '\ud83d\ude00'.at(-1).charCodeAt(0)]; });
t('rawTemplateObject', function () {
    return [String.raw({ raw: ['a', 'b', 'c'] }, 1, 2), String.raw({ raw: 'xyz' }, '-', '+'), String.raw({ raw: ['only'] }, 9),
            String.raw({ raw: ['a', 'b'] }), String.raw({ raw: [] }, 1), String.raw({ raw: { length: 2, 0: 'p', 1: 'q' } }, 0)];
});
t('rawEscapes', function () { return String.raw({ raw: ['C:\\path\\', '\\n'] }, 'dir'); });
t('rawNull', function () { return String.raw(null); });
t('fromCodePoint', function () {
    var s = String.fromCodePoint(65, 0x1F600, 0x10FFFF);
    return [s.length, s.charCodeAt(0), s.codePointAt(1), s.codePointAt(3), String.fromCodePoint()];
});
t('fromCodePointInvalid', function () { return String.fromCodePoint(0x110000); });
t('fromCodePointNonInteger', function () { return String.fromCodePoint(1.5); });
t('codePointAtAndIncludes', function () {
    return ['\ud83d\ude00'.codePointAt(0), 'abc'.includes('b'), 'abc'.startsWith('ab'), 'abc'.endsWith('bc'), 'ab'.repeat(3)];
});
t('wellFormed', function () {
    return ['abc'.isWellFormed(), '\ud83d\ude00'.isWellFormed(), 'a\ud800'.isWellFormed(), '\udc00b'.isWellFormed(),
            'a\ud800b'.toWellFormed().charCodeAt(1), '\ud83d\ude00'.toWellFormed().length, '\udc00\ud800'.toWellFormed().charCodeAt(1)];
});
t('names', function () {
    return [''.padStart.length, ''.padEnd.length, ''.replaceAll.length, ''.matchAll.length, String.raw.length, ''.at.name];
});
t('padSpacesFastPath', function () {
    var big = 'q'.padEnd(200), neg = 'abc'.padStart(-5), zero = ''.padStart(0);
    return ['ab'.padStart(5), 'ab'.padEnd(5), 'abcdef'.padStart(3), 'abc'.padEnd(3), '\u00e9'.padStart(3) + '|',
            '\ud83d\ude00'.padEnd(4) + '|', big.length, big.charAt(199) === ' ', neg, zero, 'x'.padEnd(1.5), 'x'.padStart(1000).length, 'x'.padEnd(70).slice(60) + '|'];
});
t('splitPieces', function () {
    var a = 'severity:high'.split(':'), b = 'a,b,,c,'.split(','), c = 'abc'.split(''), d = 'abc'.split('x');
    a.push('pushed');
    return [a, a.length, b, b.length, c, d, ''.split(','), ''.split(''), 'a1b2c3'.split(/\d/), 'a1b2'.split(/(\d)/),
            'a:b:c:d'.split(':', 2), 'a:b'.split(':', 0), 'x'.split(), 'caf\u00e9,na\u00efve'.split(','), Object.keys('p:q'.split(':'))];
});
t('splitResultIsPlainArray', function () {
    var r = 'a-b-c'.split('-');
    r[5] = 'f';
    return [r.length, Array.isArray(r), r.indexOf('c'), r.join('+'), 3 in r, r.slice(1, 3)];
});
return __out;
