/* atob and btoa (sandbox/worker/base64.c) against Node's: round trips of every
 * byte, forgiving input (whitespace, missing padding), what each refuses
 * (by error name), argument conversion. */
t('btoaBasic', function () { return [btoa(''), btoa('f'), btoa('fo'), btoa('foo'), btoa('foobar')]; });
t('atobBasic', function () { return [atob(''), atob('Zg=='), atob('Zm8='), atob('Zm9v'), atob('Zm9vYmFy')]; });
t('allBytes', function () {
    var s = '';
    for (var i = 0; i < 256; i++) s += String.fromCharCode(i);
    var enc = btoa(s), dec = atob(enc), same = dec.length === 256;
    for (i = 0; i < 256 && same; i++) same = dec.charCodeAt(i) === i;
    return [enc, same];
});
t('forgiving', function () { return [atob(' Zm9v\nYmFy\t'), atob('Zg'), atob('Zm8'), atob('Zg = =')]; });
function name(f) { try { f(); return 'ok'; } catch (e) { return e.name; } }
t('atobRefuses', function () {
    return [name(function () { return atob('Zm9v!'); }), name(function () { return atob('Z'); }),
            name(function () { return atob('Zg==Zg=='); }), name(function () { return atob('Zg='); }),
            name(function () { return atob('Zm9-'); })];
});
t('btoaRefuses', function () { return [name(function () { return btoa('\u0100'); }), name(function () { return btoa('\u00ff'); })]; });
t('conversion', function () { return [btoa(123), btoa(null), atob(undefined === 1 ? '' : 'MTIz')]; });
t('missingArgument', function () { return [name(function () { return atob(); }), name(function () { return btoa(); })]; });
return __out;
