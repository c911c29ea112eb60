/* JSON.parse, whose strings without escapes are interned straight from the
 * input (sandbox/duktape/patches/0018-json-parse-strings.patch) and others
 * through Duktape's decoder: both kinds, keys and values, non-ASCII text, and
 * the errors. */
function err(f) { try { f(); return 'no error'; } catch (e) { return e.name; } }
t('plainStrings', function () { return JSON.parse('{"a":"x","bb":"hello world","":"","n":["p","q"]}'); });
t('keyOrder', function () { return Object.keys(JSON.parse('{"z":1,"a":"2","m":"3"}')); });
t('escapes', function () {
    return JSON.parse('["a\\\\nb","q\\"uote","tab\\there","\\u00e9\\u4e2d","\\ud83d\\ude00","slash\\/","\\u0000end"]');
});
t('escapesAfterPlainPrefix', function () { return JSON.parse('{"long plain prefix then \\n escape":"v\\\\w"}'); });
t('nonAscii', function () {
    var v = JSON.parse('{"café":"naïve – 中文 😀","k":"ü"}');
    return [Object.keys(v), v['café'], v['café'].length, v.k.charCodeAt(0)];
});
t('stringIdentity', function () {
    var a = JSON.parse('["same","same"]');
    return [a[0] === a[1], a[0] === 'same', a[0].length];
});
t('duplicateKeysLastWins', function () { return JSON.parse('{"a":"1","a":"2"}'); });
t('protoKeyIsOwnData', function () {
    var v = JSON.parse('{"__proto__":"p","x":"y"}');
    return [Object.keys(v), v.__proto__ === 'p' || Object.getOwnPropertyDescriptor(v, '__proto__').value];
});
t('controlCharacterInString', function () { return err(function () { JSON.parse('"a\u0001b"'); }); });
t('rawNewlineInString', function () { return err(function () { JSON.parse('"a\nb"'); }); });
t('unterminatedString', function () { return [err(function () { JSON.parse('"abc'); }), err(function () { JSON.parse('{"k":"v'); })]; });
t('badEscape', function () { return [err(function () { JSON.parse('"\\x41"'); }), err(function () { JSON.parse('"\\u12"'); })]; });
t('reviverSeesStrings', function () {
    return JSON.parse('{"a":"1","b":["2","x"]}', function (k, v) { return typeof v === 'string' && v !== 'x' ? Number(v) : v; });
});
t('largeDocument', function () {
    var parts = [];
    for (var i = 0; i < 300; i++) parts.push('{"id":"item' + i + '","tags":["t' + (i % 7) + '","plain"],"note":"line\\n' + i + '"}');
    var v = JSON.parse('[' + parts.join(',') + ']');
    return [v.length, v[299].id, v[123].tags, v[5].note];
});
t('whitespaceAround', function () { return JSON.parse(' \t\n{ "a" : "b" , "c" :\n"d" } '); });
return __out;
