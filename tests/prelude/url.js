/* URL and URLSearchParams (WHATWG): parsing absolute and relative URLs,
 * normalisation (case, default ports, dot segments, percent-encoding),
 * the component getters and setters, searchParams kept in step with the
 * URL, form encoding, invalid input. */
function parts(u) {
    return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash];
}
function tryURL(input, base) {
    try { return parts(base === void 0 ? new URL(input) : new URL(input, base)); } catch (e) { return e.name; }
}

t('absolute', function () {
    var inputs = ['https://example.com', 'HTTPS://Example.COM:443/a/b?x=1#frag', 'http://user:pa%20ss@host.com:8080/p?q#h',
                  'http://example.com:80/', 'https://example.com:8443', 'http://example.com/a/./b/../c', 'http://example.com/a/b/..',
                  'http://example.com/%7Efoo', 'http://example.com/a b?c d#e f', 'http://example.com/ü?ü#ü', 'http://example.com?',
                  'http://example.com#', 'http://example.com/path/', 'ftp://files.example.com/pub/file.txt', 'ws://socket.io:80/chat',
                  'wss://socket.io:443/chat', 'file:///etc/passwd', 'file:///C:/Users/x.txt', 'mailto:someone@example.com',
                  'data:text/plain,hello world', 'javascript:alert(1)', 'urn:isbn:0451450523', 'http://192.168.0.1:3000/api',
                  'http://[::1]:8080/', 'http://localhost', 'https://a.b.c.example.co.uk/x', 'http://example.com/a//b',
                  'http://EXAMPLE.com./', 'https://example.com/?q=a+b&r=%20', "http://example.com/it's", 'http://example.com/"quoted"',
                  'http://example.com/<tag>', 'http://example.com/{x}', 'http://example.com/\\back\\slash', 'HTTP://example.com/%2e%2E/x',
                  '  https://example.com/trim  ', 'https://example.com/\ttab\nnewline', 'http:example.com/path', 'http:/example.com/path',
                  'http:///example.com/path', 'sc://host/path', 'sc:opaque path?q#f', 'https://user@example.com', 'https://:pw@example.com',
                  'https://example.com:/', 'https://münchen.de/', 'https://xn--mnchen-3ya.de/', 'https://EXAMPLE.com/Path?Query#Frag'];
    var out = {};
    for (var i = 0; i < inputs.length; i++) out[inputs[i]] = tryURL(inputs[i]);
    return out;
});
t('relative', function () {
    var base = 'https://example.com/docs/guide/intro.html?x=1#top';
    var inputs = ['other.html', './other.html', '../api/', '../../../../up', '/root', '//cdn.example.net/lib.js', '?y=2', '#section',
                  '', '.', '..', 'sub/dir/', 'https://else.org/x', 'mailto:a@b.c', 'http:relative', '\\\\host\\x', 'a?b#c', ';p', '%2e%2e/x'];
    var out = {};
    for (var i = 0; i < inputs.length; i++) out[inputs[i] === '' ? '(empty)' : inputs[i]] = tryURL(inputs[i], base);
    out.baseObject = tryURL('x', new URL('http://h/a/b'));
    out.fileBase = tryURL('../y', 'file:///a/b/c');
    out.opaqueBase = tryURL('x', 'mailto:a@b');
    out.opaqueFragment = tryURL('#f', 'mailto:a@b');
    return out;
});
t('invalid', function () {
    var inputs = ['', 'not a url', 'example.com', '/path/only', 'http://', 'https://exa mple.com', 'http://example.com:99999',
                  'http://example.com:abc', 'http://[::1', 'http://a<b.com', '://x', 'http://%zz.com', '1http://x'];
    var out = {};
    for (var i = 0; i < inputs.length; i++) out[inputs[i] === '' ? '(empty)' : inputs[i]] = tryURL(inputs[i]);
    out.badBase = tryURL('x', 'not a base');
    out.canParse = [URL.canParse('https://a.b'), URL.canParse('nope'), URL.canParse('x', 'https://a.b/'), URL.canParse('x')];
    try { new URL('nope'); } catch (e) { out.error = [e instanceof TypeError, e.message.indexOf('Invalid URL') >= 0]; }
    return out;
});
t('setters', function () {
    var u = new URL('https://example.com/a?x=1#h'), out = [];
    u.pathname = '/b c/d'; out.push(u.href);
    u.search = 'q=1 2&r'; out.push(u.href);
    u.search = '?s=3'; out.push(u.href);
    u.search = ''; out.push(u.href);
    u.hash = 'frag ment'; out.push(u.href);
    u.hash = ''; out.push(u.href);
    u.hostname = 'Other.ORG'; out.push(u.href);
    u.port = '8443'; out.push(u.href);
    u.port = '443'; out.push(u.href);
    u.port = ''; out.push(u.href);
    u.host = 'h.io:81'; out.push(u.href);
    u.username = 'me@x'; u.password = 'p:w'; out.push(u.href);
    u.protocol = 'http'; out.push(u.href);
    u.protocol = 'mailto'; out.push(u.href);
    u.href = 'https://new.example/?a=1'; out.push(u.href, u.searchParams.get('a'));
    try { u.href = 'bad'; } catch (e) { out.push(e.name); }
    out.push(String(u), u.toJSON(), JSON.stringify({ u: u }));
    return out;
});
t('searchParamsOfUrl', function () {
    var u = new URL('https://example.com/search?q=hello+world&tag=a&tag=b&empty=&flag'), p = u.searchParams, out = [];
    out.push(p.get('q'), p.getAll('tag'), p.get('empty'), p.get('flag'), p.get('missing'), p.has('tag'), p.has('tag', 'c'), p.size);
    p.set('page', 2); out.push(u.href);
    p.append('tag', 'c d'); out.push(u.search);
    p['delete']('tag', 'a'); out.push(u.search);
    p['delete']('tag'); out.push(u.search);
    p.sort(); out.push(u.search);
    u.search = '?z=1&a=2'; out.push(p.toString(), p.get('a'));
    var keys = []; p.forEach(function (v, k) { keys.push(k + '=' + v); }); out.push(keys);
    out.push(u.searchParams === p);
    p['delete']('z'); p['delete']('a'); out.push(u.href);
    return out;
});
t('searchParams', function () {
    var out = [];
    out.push(new URLSearchParams('?a=1&b=2&a=3').getAll('a'), new URLSearchParams({ x: '1', y: 'two words' }).toString(),
             new URLSearchParams([['k', 'v'], ['k', 'w']]).toString(), new URLSearchParams(new Map([['m', '1']])).toString(),
             new URLSearchParams('a=%F0%9F%98%80&b=%zz&c=%C3').toString(), new URLSearchParams('a=%F0%9F%98%80&b=%zz&c=%C3').get('a'),
             new URLSearchParams('a=%zz').get('a'), new URLSearchParams('c=%C3').get('c'),
             new URLSearchParams({ s: "~!*()'-._ &=+/?#%é😀" }).toString(), new URLSearchParams('').toString(),
             new URLSearchParams('=&=x&y').toString(), Array.from(new URLSearchParams('a=1&b=2')),
             Array.from(new URLSearchParams('a=1&b=2').keys()), Array.from(new URLSearchParams('a=1&b=2').values()),
             Object.fromEntries(new URLSearchParams('a=1&b=2')), String(new URLSearchParams('a=1')),
             Object.prototype.toString.call(new URLSearchParams()), new URLSearchParams('b=2&a=1&b=1').size);
    var s = new URLSearchParams('z=1&a=2&z=0&b=3'); s.sort(); out.push(s.toString());
    try { new URLSearchParams([['a']]); } catch (e) { out.push(e.name); }
    try { URLSearchParams('a=1'); } catch (e) { out.push(e.name); }
    return out;
});
return __out;
