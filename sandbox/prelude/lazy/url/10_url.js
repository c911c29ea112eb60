/* URL and URLSearchParams as the WHATWG URL Standard defines them (the
 * basic URL parser's state machine, host parsing with IPv4, IPv6 and
 * punycode, percent-encode sets, the serializer), so that
 * new URL(link).hostname, relative links resolved against a page and query
 * strings built with searchParams give what Node gives. Not here: IDNA's
 * full mapping table (non-ASCII host labels are lowercased and
 * NFC-normalised, then punycoded), blob: origins, URL.createObjectURL. */
'use strict';
var O = rt.orig; /* built-ins as the template had them (78_lazy.js) */
var apply = rt.apply, Str = rt.String, TypeErr = rt.TypeErr, isObject = rt.isObject;
var charCodeAt = O.charCodeAt, fromCharCode = O.fromCharCode;
var strLower = O.toLowerCase, strSlice = O.slice, reTest = O.reTest;
var encoder = new O.TextEncoder(), decoder = new O.TextDecoder(), encode = O.encode;
var decode = O.decode, floor = O.floor, ITER = Symbol.iterator;
var HEX = '0123456789ABCDEF', S = rt.HIDDEN;

function code(s, i) { return apply(charCodeAt, s, [i]); }
function lower(s) { return apply(strLower, s, []); }
function slice(s, a, b) { return apply(strSlice, s, b === void 0 ? [a] : [a, b]); }
function test(re, s) { return apply(reTest, re, [s]); }
function invalid(input) { return new TypeErr('Invalid URL: ' + input); }
function isAlpha(c) { return (c >= 65 && c <= 90) || (c >= 97 && c <= 122); }
function isDigit(c) { return c >= 48 && c <= 57; }
function isHex(c) { return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102); }

/* ---- percent-encoding ------------------------------------------------------------------------ */

/* Encode sets as predicates on an ASCII code. */
function c0(c) { return c < 0x20 || c > 0x7e; }
function fragmentSet(c) { return c0(c) || c === 32 || c === 34 || c === 60 || c === 62 || c === 96; }
function querySet(c) { return c0(c) || c === 32 || c === 34 || c === 35 || c === 60 || c === 62; }
function specialQuerySet(c) { return querySet(c) || c === 39; }
function pathSet(c) { return querySet(c) || c === 63 || c === 96 || c === 123 || c === 125; }
function userinfoSet(c) {
    return pathSet(c) || c === 47 || c === 58 || c === 59 || c === 61 || c === 64 || (c >= 91 && c <= 94) || c === 124;
}
function formSet(c) {
    return !(isAlpha(c) || isDigit(c) || c === 42 || c === 45 || c === 46 || c === 95);
}

function pct(b) { return '%' + HEX[b >> 4] + HEX[b & 15]; }

/* s with every character in `set` (and every non-ASCII one) as %XX of its
 * UTF-8 bytes (a lone surrogate as U+FFFD's). spacePlus: ' ' as '+'. */
function percentEncode(s, set, spacePlus) {
    var out = '';
    for (var i = 0; i < s.length; i++) {
        var c = code(s, i);
        if (c < 0x80) {
            if (spacePlus && c === 32) out += '+';
            else out += set(c) ? pct(c) : s[i];
            continue;
        }
        var j = i + 1;
        if (c >= 0xd800 && c <= 0xdbff && j < s.length && code(s, j) >= 0xdc00 && code(s, j) <= 0xdfff) j++;
        var bytes = apply(encode, encoder, [slice(s, i, j)]);
        for (var k = 0; k < bytes.length; k++) out += pct(bytes[k]);
        i = j - 1;
    }
    return out;
}

/* Percent-decodes s to bytes and reads them as UTF-8 (U+FFFD for bad
 * sequences); spacePlus: '+' as ' ' (form data). */
function percentDecode(s, spacePlus) {
    if (!test(/[%+\u0080-\uffff]/, s)) return s;
    var bytes = [];
    for (var i = 0; i < s.length; i++) {
        var c = code(s, i);
        if (c === 37 && i + 2 < s.length && isHex(code(s, i + 1)) && isHex(code(s, i + 2))) {
            bytes[bytes.length] = parseInt(slice(s, i + 1, i + 3), 16);
            i += 2;
        } else if (spacePlus && c === 43) {
            bytes[bytes.length] = 32;
        } else if (c < 0x80) {
            bytes[bytes.length] = c;
        } else {
            var j = i + 1;
            if (c >= 0xd800 && c <= 0xdbff && j < s.length) j++;
            var enc = apply(encode, encoder, [slice(s, i, j)]);
            for (var k = 0; k < enc.length; k++) bytes[bytes.length] = enc[k];
            i = j - 1;
        }
    }
    return apply(decode, decoder, [new Uint8Array(bytes)]);
}

/* ---- hosts ------------------------------------------------------------------------------------- */

var SPECIAL = { 'ftp:': 21, 'file:': null, 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };
function isSpecial(scheme) { return rt.hasOwn(SPECIAL, scheme + ':'); }
function defaultPort(scheme) { return isSpecial(scheme) ? SPECIAL[scheme + ':'] : null; }

/* RFC 3492 punycode of one label (code points as numbers). */
function punycode(cps) {
    var n = 128, delta = 0, bias = 72, out = '', h, b, i, m, q, k, t;
    for (i = 0; i < cps.length; i++) if (cps[i] < 128) out += fromCharCode(cps[i]);
    h = b = out.length;
    if (b > 0) out += '-';
    function digit(d) { return fromCharCode(d < 26 ? d + 97 : d + 22); }
    function adapt(d, num, first) {
        d = first ? floor(d / 700) : d >> 1;
        d += floor(d / num);
        for (k = 0; d > 455; k += 36) d = floor(d / 35);
        return k + floor(36 * d / (d + 38));
    }
    while (h < cps.length) {
        m = 0x7fffffff;
        for (i = 0; i < cps.length; i++) if (cps[i] >= n && cps[i] < m) m = cps[i];
        delta += (m - n) * (h + 1);
        n = m;
        for (i = 0; i < cps.length; i++) {
            if (cps[i] < n) delta++;
            if (cps[i] !== n) continue;
            for (q = delta, k = 36; ; k += 36) {
                t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
                if (q < t) break;
                out += digit(t + (q - t) % (36 - t));
                q = floor((q - t) / (36 - t));
            }
            out += digit(q);
            bias = adapt(delta, h + 1, h === b);
            delta = 0;
            h++;
        }
        delta++;
        n++;
    }
    return out;
}

function codePoints(s) {
    var out = [];
    for (var i = 0; i < s.length; i++) {
        var c = code(s, i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
            var d = code(s, i + 1);
            if (d >= 0xdc00 && d <= 0xdfff) { c = (c - 0xd800) * 0x400 + d - 0xdc00 + 0x10000; i++; }
        }
        out[out.length] = c;
    }
    return out;
}

function domainToASCII(domain) {
    domain = lower(domain);
    if (!test(/[^\u0000-\u007f]/, domain)) return domain;
    if (typeof rt.normalize === 'function') domain = apply(rt.normalize, domain, ['NFC']);
    var labels = domain.split('.'), out = '';
    for (var i = 0; i < labels.length; i++) {
        var l = labels[i];
        if (i > 0) out += '.';
        out += test(/[^\u0000-\u007f]/, l) ? 'xn--' + punycode(codePoints(l)) : l;
    }
    return out;
}

/* An IPv4 number part ("0x" hex, leading-0 octal), or NaN. */
function ipv4Number(s) {
    var radix = 10;
    if (s.length >= 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X')) { s = slice(s, 2); radix = 16; }
    else if (s.length >= 2 && s[0] === '0') { s = slice(s, 1); radix = 8; }
    if (s === '') return 0;
    var re = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
    return test(re, s) ? parseInt(s, radix) : NaN;
}
function endsInNumber(host) {
    var parts = host.split('.');
    if (parts[parts.length - 1] === '') {
        if (parts.length === 1) return false;
        parts.length--;
    }
    var last = parts[parts.length - 1];
    return (last !== '' && test(/^[0-9]+$/, last)) || ipv4Number(last) === ipv4Number(last);
}
function parseIPv4(host) {
    var parts = host.split('.');
    if (parts[parts.length - 1] === '' && parts.length > 1) parts.length--;
    if (parts.length > 4) return null;
    var nums = [];
    for (var i = 0; i < parts.length; i++) {
        var n = ipv4Number(parts[i]);
        if (parts[i] === '' || n !== n) return null;
        nums[i] = n;
    }
    for (i = 0; i < nums.length - 1; i++) if (nums[i] > 255) return null;
    if (nums[nums.length - 1] >= O.pow(256, 5 - nums.length)) return null;
    var ipv4 = nums[nums.length - 1];
    for (i = 0; i < nums.length - 1; i++) ipv4 += nums[i] * O.pow(256, 3 - i);
    var out = '';
    for (i = 0; i < 4; i++) {
        out = Str(ipv4 % 256) + (i ? '.' : '') + out;
        ipv4 = floor(ipv4 / 256);
    }
    return out;
}

function parseIPv6(s) {
    var a = [0, 0, 0, 0, 0, 0, 0, 0], piece = 0, compress = null, p = 0, len = s.length, v, n;
    if (s[0] === ':') {
        if (s[1] !== ':') return null;
        p = 2;
        compress = ++piece;
    }
    while (p < len) {
        if (piece === 8) return null;
        if (s[p] === ':') {
            if (compress !== null) return null;
            p++;
            compress = ++piece;
            continue;
        }
        v = n = 0;
        while (n < 4 && p < len && isHex(code(s, p))) { v = v * 16 + parseInt(s[p], 16); p++; n++; }
        if (s[p] === '.') {
            if (n === 0 || piece > 6) return null;
            p -= n;
            var seen = 0;
            while (p < len) {
                var part = null;
                if (seen > 0) { if (s[p] === '.' && seen < 4) p++; else return null; }
                if (!isDigit(code(s, p))) return null;
                while (p < len && isDigit(code(s, p))) {
                    var d = code(s, p) - 48;
                    if (part === null) part = d; else if (part === 0) return null; else part = part * 10 + d;
                    if (part > 255) return null;
                    p++;
                }
                a[piece] = a[piece] * 256 + part;
                seen++;
                if (seen === 2 || seen === 4) piece++;
            }
            if (seen !== 4) return null;
            break;
        } else if (s[p] === ':') {
            p++;
            if (p >= len) return null;
        } else if (p < len) {
            return null;
        }
        a[piece++] = v;
    }
    if (compress !== null) {
        var swaps = piece - compress;
        piece = 7;
        while (piece !== 0 && swaps > 0) {
            var tmp = a[compress + swaps - 1];
            a[compress + swaps - 1] = a[piece];
            a[piece] = tmp;
            piece--;
            swaps--;
        }
    } else if (piece !== 8) {
        return null;
    }
    /* serialise: the longest run of two or more zero pieces compressed */
    var best = -1, bestLen = 1, i, j;
    for (i = 0; i < 8; i = j + 1) {
        j = i;
        while (j < 8 && a[j] === 0) j++;
        if (j - i > bestLen) { best = i; bestLen = j - i; }
    }
    var out = '[', skip = false;
    for (i = 0; i < 8; i++) {
        if (skip && a[i] === 0) continue;
        skip = false;
        if (best === i) { out += i === 0 ? '::' : ':'; skip = true; continue; }
        out += a[i].toString(16);
        if (i !== 7) out += ':';
    }
    return out + ']';
}

var FORBIDDEN_HOST = /[\u0000\t\n\r #/:<>?@[\\\]^|]/;
var FORBIDDEN_DOMAIN = /[\u0000-\u001f\t\n\r #/:<>?@[\\\]^|%\u007f]/;

/* The host parser: the serialised host, or null on failure. */
function parseHost(input, special) {
    if (input[0] === '[') return input[input.length - 1] === ']' ? parseIPv6(slice(input, 1, input.length - 1)) : null;
    if (!special) return test(FORBIDDEN_HOST, input) ? null : percentEncode(input, c0);
    var ascii = domainToASCII(percentDecode(input, false));
    if (ascii === '' || test(FORBIDDEN_DOMAIN, ascii)) return null;
    return endsInNumber(ascii) ? parseIPv4(ascii) : ascii;
}

/* ---- the basic URL parser ------------------------------------------------------------------------- */

function newRecord() {
    return { scheme: '', username: '', password: '', host: null, port: null, path: [], opaque: false, query: null, fragment: null };
}
function copy(a) {
    var out = [];
    for (var i = 0; i < a.length; i++) out[i] = a[i];
    return out;
}
/* The credentials, host and port of `from`, into `to`. */
function takeAuthority(to, from) {
    to.username = from.username; to.password = from.password; to.host = from.host; to.port = from.port;
}
function copyRecord(r) {
    var c = newRecord();
    c.scheme = r.scheme;
    takeAuthority(c, r);
    c.path = r.opaque ? r.path : copy(r.path); c.opaque = r.opaque; c.query = r.query;
    return c;
}
function isWindowsDrive(s, normalizedOnly) {
    return s.length === 2 && isAlpha(code(s, 0)) && (s[1] === ':' || (!normalizedOnly && s[1] === '|'));
}
function startsWithDrive(s, p) {
    var rest = s.length - p;
    return rest >= 2 && isWindowsDrive(slice(s, p, p + 2), false) &&
        (rest === 2 || s[p + 2] === '/' || s[p + 2] === '\\' || s[p + 2] === '?' || s[p + 2] === '#');
}
function shortenPath(r) {
    if (r.scheme === 'file' && r.path.length === 1 && isWindowsDrive(r.path[0], true)) return;
    if (r.path.length) r.path.length--;
}
function isDot(seg) { seg = lower(seg); return seg === '.' || seg === '%2e'; }
function isDoubleDot(seg) { seg = lower(seg); return seg === '..' || seg === '.%2e' || seg === '%2e.' || seg === '%2e%2e'; }

/* Parses input against base (a record or null); returns a record or null.
 * `state` and `url` give a state override (the setters). */
function parse(input, base, url, state) {
    var r = url || newRecord(), override = state !== void 0;
    if (!override) input = input.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
    input = input.replace(/[\t\n\r]/g, '');
    state = state || 'schemeStart';
    var buf = '', atSign = false, inBrackets = false, passwordSeen = false, p = 0, len = input.length;
    for (; ; p++) {
        var ch = p < len ? input[p] : void 0, c = p < len ? code(input, p) : -1;
        switch (state) {
        case 'schemeStart':
            if (c >= 0 && isAlpha(c)) { buf += lower(ch); state = 'scheme'; }
            else if (!override) { state = 'noScheme'; p--; }
            else return null;
            break;
        case 'scheme':
            if (c >= 0 && (isAlpha(c) || isDigit(c) || ch === '+' || ch === '-' || ch === '.')) { buf += lower(ch); break; }
            if (ch === ':') {
                if (override) {
                    if (isSpecial(r.scheme) !== isSpecial(buf)) return r;
                    if ((r.username !== '' || r.password !== '' || r.port !== null) && buf === 'file') return r;
                    if (r.scheme === 'file' && r.host === '') return r;
                }
                r.scheme = buf;
                if (override) {
                    if (r.port === defaultPort(r.scheme)) r.port = null;
                    return r;
                }
                buf = '';
                if (r.scheme === 'file') state = 'file';
                else if (isSpecial(r.scheme) && base && base.scheme === r.scheme) state = 'specialRelativeOrAuthority';
                else if (isSpecial(r.scheme)) state = 'specialAuthoritySlashes';
                else if (input[p + 1] === '/') { state = 'pathOrAuthority'; p++; }
                else { r.opaque = true; r.path = ''; state = 'opaquePath'; }
            } else if (!override) { buf = ''; state = 'noScheme'; p = -1; }
            else return null;
            break;
        case 'noScheme':
            if (!base || (base.opaque && ch !== '#')) return null;
            if (base.opaque && ch === '#') {
                r.scheme = base.scheme; r.path = base.path; r.opaque = true; r.query = base.query; r.fragment = '';
                state = 'fragment';
            } else if (base.scheme !== 'file') { state = 'relative'; p--; }
            else { state = 'file'; p--; }
            break;
        case 'specialRelativeOrAuthority':
            if (ch === '/' && input[p + 1] === '/') { state = 'specialAuthorityIgnoreSlashes'; p++; }
            else { state = 'relative'; p--; }
            break;
        case 'pathOrAuthority':
            if (ch === '/') state = 'authority';
            else { state = 'path'; p--; }
            break;
        case 'relative':
            r.scheme = base.scheme;
            if (ch === '/') state = 'relativeSlash';
            else if (isSpecial(r.scheme) && ch === '\\') state = 'relativeSlash';
            else {
                takeAuthority(r, base);
                r.path = copy(base.path); r.query = base.query;
                if (ch === '?') { r.query = ''; state = 'query'; }
                else if (ch === '#') { r.fragment = ''; state = 'fragment'; }
                else if (c >= 0) { r.query = null; shortenPath(r); state = 'path'; p--; }
            }
            break;
        case 'relativeSlash':
            if (isSpecial(r.scheme) && (ch === '/' || ch === '\\')) state = 'specialAuthorityIgnoreSlashes';
            else if (ch === '/') state = 'authority';
            else {
                takeAuthority(r, base);
                state = 'path';
                p--;
            }
            break;
        case 'specialAuthoritySlashes':
            if (ch === '/' && input[p + 1] === '/') { state = 'specialAuthorityIgnoreSlashes'; p++; }
            else { state = 'specialAuthorityIgnoreSlashes'; p--; }
            break;
        case 'specialAuthorityIgnoreSlashes':
            if (ch !== '/' && ch !== '\\') { state = 'authority'; p--; }
            break;
        case 'authority':
            if (ch === '@') {
                if (atSign) buf = '%40' + buf;
                atSign = true;
                for (var i = 0; i < buf.length; i++) {
                    if (buf[i] === ':' && !passwordSeen) { passwordSeen = true; continue; }
                    var enc = percentEncode(buf[i], userinfoSet);
                    if (passwordSeen) r.password += enc; else r.username += enc;
                }
                buf = '';
            } else if (c < 0 || ch === '/' || ch === '?' || ch === '#' || (isSpecial(r.scheme) && ch === '\\')) {
                if (atSign && buf === '') return null;
                p -= buf.length + 1;
                buf = '';
                state = 'host';
            } else {
                buf += ch;
            }
            break;
        case 'host':
            if (override && r.scheme === 'file') { p--; state = 'fileHost'; }
            else if (ch === ':' && !inBrackets) {
                if (buf === '') return null;
                if (override === 'hostname') return null;
                var h = parseHost(buf, isSpecial(r.scheme));
                if (h === null) return null;
                r.host = h; buf = ''; state = 'port';
            } else if (c < 0 || ch === '/' || ch === '?' || ch === '#' || (isSpecial(r.scheme) && ch === '\\')) {
                p--;
                if (isSpecial(r.scheme) && buf === '') return null;
                if (override && buf === '' && (r.username !== '' || r.password !== '' || r.port !== null)) return r;
                var h2 = parseHost(buf, isSpecial(r.scheme));
                if (h2 === null) return null;
                r.host = h2; buf = ''; state = 'pathStart';
                if (override) return r;
            } else {
                if (ch === '[') inBrackets = true;
                if (ch === ']') inBrackets = false;
                buf += ch;
            }
            break;
        case 'port':
            if (c >= 0 && isDigit(c)) buf += ch;
            else if (c < 0 || ch === '/' || ch === '?' || ch === '#' || (isSpecial(r.scheme) && ch === '\\') || override) {
                if (buf !== '') {
                    var port = parseInt(buf, 10);
                    if (port > 65535) return null;
                    r.port = port === defaultPort(r.scheme) ? null : port;
                    buf = '';
                } else if (override) {
                    return r;
                }
                if (override) return r;
                state = 'pathStart';
                p--;
            } else {
                return null;
            }
            break;
        case 'file':
            r.scheme = 'file';
            r.host = '';
            if (ch === '/' || ch === '\\') state = 'fileSlash';
            else if (base && base.scheme === 'file') {
                r.host = base.host; r.path = copy(base.path); r.query = base.query;
                if (ch === '?') { r.query = ''; state = 'query'; }
                else if (ch === '#') { r.fragment = ''; state = 'fragment'; }
                else if (c >= 0) {
                    r.query = null;
                    if (!startsWithDrive(input, p)) shortenPath(r); else r.path = [];
                    state = 'path';
                    p--;
                }
            } else { state = 'path'; p--; }
            break;
        case 'fileSlash':
            if (ch === '/' || ch === '\\') state = 'fileHost';
            else {
                if (base && base.scheme === 'file') {
                    r.host = base.host;
                    if (!startsWithDrive(input, p) && base.path.length && isWindowsDrive(base.path[0], true)) r.path[r.path.length] = base.path[0];
                }
                state = 'path';
                p--;
            }
            break;
        case 'fileHost':
            if (c < 0 || ch === '/' || ch === '\\' || ch === '?' || ch === '#') {
                p--;
                if (!override && isWindowsDrive(buf, false)) state = 'path';
                else if (buf === '') {
                    r.host = '';
                    if (override) return r;
                    state = 'pathStart';
                } else {
                    var fh = parseHost(buf, true);
                    if (fh === null) return null;
                    r.host = fh === 'localhost' ? '' : fh;
                    if (override) return r;
                    buf = '';
                    state = 'pathStart';
                }
            } else {
                buf += ch;
            }
            break;
        case 'pathStart':
            if (isSpecial(r.scheme)) { state = 'path'; if (ch !== '/' && ch !== '\\') p--; }
            else if (!override && ch === '?') { r.query = ''; state = 'query'; }
            else if (!override && ch === '#') { r.fragment = ''; state = 'fragment'; }
            else if (c >= 0) { state = 'path'; if (ch !== '/') p--; }
            else if (override && r.host === null) r.path[r.path.length] = '';
            break;
        case 'path':
            if (c < 0 || ch === '/' || (isSpecial(r.scheme) && ch === '\\') || (!override && (ch === '?' || ch === '#'))) {
                var slashEnd = ch === '/' || (isSpecial(r.scheme) && ch === '\\');
                if (isDoubleDot(buf)) {
                    shortenPath(r);
                    if (!slashEnd) r.path[r.path.length] = '';
                } else if (isDot(buf) && !slashEnd) {
                    r.path[r.path.length] = '';
                } else if (!isDot(buf)) {
                    if (r.scheme === 'file' && r.path.length === 0 && isWindowsDrive(buf, false)) buf = buf[0] + ':';
                    r.path[r.path.length] = buf;
                }
                buf = '';
                if (ch === '?') { r.query = ''; state = 'query'; }
                if (ch === '#') { r.fragment = ''; state = 'fragment'; }
            } else {
                buf += percentEncode(ch === void 0 ? '' : ch, pathSet);
            }
            break;
        case 'opaquePath':
            if (ch === '?') { r.query = ''; state = 'query'; }
            else if (ch === '#') { r.fragment = ''; state = 'fragment'; }
            else if (c >= 0) r.path += percentEncode(ch, c0);
            break;
        case 'query':
            if ((!override && ch === '#') || c < 0) {
                r.query += percentEncode(buf, isSpecial(r.scheme) ? specialQuerySet : querySet);
                buf = '';
                if (ch === '#') { r.fragment = ''; state = 'fragment'; }
            } else {
                buf += ch;
            }
            break;
        case 'fragment':
            if (c >= 0) r.fragment += percentEncode(ch, fragmentSet);
            break;
        }
        if (p >= len) break;
    }
    return r;
}

function serialize(r, noFragment) {
    var out = r.scheme + ':';
    if (r.host !== null) {
        out += '//';
        if (r.username !== '' || r.password !== '') out += r.username + (r.password !== '' ? ':' + r.password : '') + '@';
        out += r.host;
        if (r.port !== null) out += ':' + r.port;
    }
    if (r.opaque) out += r.path;
    else {
        if (r.host === null && r.path.length > 1 && r.path[0] === '') out += '/.';
        for (var i = 0; i < r.path.length; i++) out += '/' + r.path[i];
    }
    if (r.query !== null) out += '?' + r.query;
    if (!noFragment && r.fragment !== null) out += '#' + r.fragment;
    return out;
}

/* ---- URLSearchParams ---------------------------------------------------------------------------------- */

function parseForm(s) {
    var list = [], pairs = s.split('&');
    for (var i = 0; i < pairs.length; i++) {
        if (pairs[i] === '') continue;
        var eq = pairs[i].indexOf('='), name = eq < 0 ? pairs[i] : slice(pairs[i], 0, eq), value = eq < 0 ? '' : slice(pairs[i], eq + 1);
        list[list.length] = [percentDecode(name, true), percentDecode(value, true)];
    }
    return list;
}
function serializeForm(list) {
    var out = '';
    for (var i = 0; i < list.length; i++)
        out += (i ? '&' : '') + percentEncode(list[i][0], formSet, true) + '=' + percentEncode(list[i][1], formSet, true);
    return out;
}

function params(self, method) {
    var st = isObject(self) ? self[S] : void 0;
    if (st === void 0 || st.kind !== 'params') throw new TypeErr('URLSearchParams.prototype.' + method + ' called on incompatible receiver');
    return st;
}
/* The URL's query follows the list (the "update steps"). */
function update(st) {
    if (st.url === null) return;
    var q = serializeForm(st.list);
    st.url.query = q === '' ? null : q;
}
function toUSVString(v) { return Str(v); }

function URLSearchParams(init) {
    if (!(this instanceof URLSearchParams)) throw new TypeErr("Class constructor URLSearchParams cannot be invoked without 'new'");
    var list = [];
    if (init !== void 0 && init !== null && typeof init === 'object' || typeof init === 'function') {
        if (typeof init[ITER] === 'function') {
            rt.iterate(init, function (pair) {
                if (!isObject(pair) && typeof pair !== 'string') throw new TypeErr('Each query pair must be an iterable [name, value] tuple');
                var kv = [];
                rt.iterate(pair, function (v) { kv[kv.length] = v; });
                if (kv.length !== 2) throw new TypeErr('Each query pair must be an iterable [name, value] tuple');
                list[list.length] = [toUSVString(kv[0]), toUSVString(kv[1])];
            });
        } else {
            var ks = rt.keys(init);
            for (var i = 0; i < ks.length; i++) list[list.length] = [ks[i], toUSVString(init[ks[i]])];
        }
    } else if (init !== void 0) {
        var s = toUSVString(init);
        list = parseForm(s[0] === '?' ? slice(s, 1) : s);
    }
    rt.defineProperty(this, S, { value: { kind: 'params', list: list, url: null } });
}
rt.tag(URLSearchParams.prototype, 'URLSearchParams');
rt.install(URLSearchParams.prototype, {
    append(name, value) {
        var st = params(this, 'append');
        st.list[st.list.length] = [toUSVString(name), toUSVString(value)];
        update(st);
    },
    'delete'(name, value) {
        var st = params(this, 'delete'), out = [];
        name = toUSVString(name);
        if (value !== void 0) value = toUSVString(value);
        for (var i = 0; i < st.list.length; i++)
            if (!(st.list[i][0] === name && (value === void 0 || st.list[i][1] === value))) out[out.length] = st.list[i];
        st.list = out;
        update(st);
    },
    'get'(name) {
        var st = params(this, 'get');
        name = toUSVString(name);
        for (var i = 0; i < st.list.length; i++) if (st.list[i][0] === name) return st.list[i][1];
        return null;
    },
    getAll(name) {
        var st = params(this, 'getAll'), out = [];
        name = toUSVString(name);
        for (var i = 0; i < st.list.length; i++) if (st.list[i][0] === name) out[out.length] = st.list[i][1];
        return out;
    },
    has(name, value) {
        var st = params(this, 'has');
        name = toUSVString(name);
        if (value !== void 0) value = toUSVString(value);
        for (var i = 0; i < st.list.length; i++)
            if (st.list[i][0] === name && (value === void 0 || st.list[i][1] === value)) return true;
        return false;
    },
    'set'(name, value) {
        var st = params(this, 'set'), out = [], done = false;
        name = toUSVString(name);
        value = toUSVString(value);
        for (var i = 0; i < st.list.length; i++) {
            if (st.list[i][0] !== name) { out[out.length] = st.list[i]; continue; }
            if (!done) { out[out.length] = [name, value]; done = true; }
        }
        if (!done) out[out.length] = [name, value];
        st.list = out;
        update(st);
    },
    sort() {
        var st = params(this, 'sort'), a = st.list;
        for (var i = 1; i < a.length; i++) {
            var x = a[i], j = i - 1;
            while (j >= 0 && a[j][0] > x[0]) { a[j + 1] = a[j]; j--; }
            a[j + 1] = x;
        }
        update(st);
    },
    forEach(fn, thisArg) {
        var st = params(this, 'forEach');
        rt.requireFn(fn, 'URLSearchParams.prototype.forEach');
        for (var i = 0; i < st.list.length; i++) apply(fn, thisArg, [st.list[i][1], st.list[i][0], this]);
    },
    toString() { return serializeForm(params(this, 'toString').list); },
    get size() { return params(this, 'size').list.length; },
    keys() { return iter(this, 'keys', 0); },
    values() { return iter(this, 'values', 1); },
    entries() { return iter(this, 'entries', 2); }
});
rt.def(URLSearchParams.prototype, ITER, URLSearchParams.prototype.entries);

var ParamsIterProto = rt.create(rt.IteratorPrototype);
rt.tag(ParamsIterProto, 'URLSearchParams Iterator');
rt.install(ParamsIterProto, {
    next() {
        var st = rt.iterState(this, 'usp');
        if (st.i >= st.p.list.length) return { value: void 0, done: true };
        var e = st.p.list[st.i++];
        return { value: st.what === 0 ? e[0] : st.what === 1 ? e[1] : [e[0], e[1]], done: false };
    }
});
function iter(self, method, what) {
    return rt.makeIter(ParamsIterProto, { tag: 'usp', p: params(self, method), i: 0, what: what });
}

/* ---- URL ------------------------------------------------------------------------------------------------ */

function record(self, what) {
    var st = isObject(self) ? self[S] : void 0;
    if (st === void 0 || st.kind !== 'url') throw new TypeErr('Cannot read ' + what + ' of an object that is not a URL');
    return st;
}

function parseWithBase(url, base) {
    var b = null;
    if (base !== void 0) {
        b = parse(Str(base), null);
        if (b === null) throw invalid(Str(base));
    }
    var r = parse(Str(url), b);
    if (r === null) throw invalid(Str(url));
    return r;
}

function URL(url, base) {
    if (!(this instanceof URL)) throw new TypeErr("Class constructor URL cannot be invoked without 'new'");
    if (arguments.length === 0) throw new TypeErr('The "url" argument must be specified');
    var r = parseWithBase(url, base);
    var sp = new URLSearchParams(r.query === null ? '' : r.query);
    var st = { kind: 'url', r: r, params: sp };
    sp[S].url = r;
    rt.defineProperty(this, S, { value: st });
}
rt.tag(URL.prototype, 'URL');

function setQueryList(st) {
    st.params[S].list = st.r.query === null ? [] : parseForm(st.r.query);
    st.params[S].url = st.r;
}

function accessor(name, get, set) {
    rt.defineProperty(URL.prototype, name, {
        get: function () { return get(record(this, name).r); },
        set: set === void 0 ? void 0 : function (v) { var st = record(this, name); set(st, Str(v)); },
        enumerable: true, configurable: true
    });
}
function hostOf(r) { return r.host === null ? '' : r.port === null ? r.host : r.host + ':' + r.port; }
function cannotHaveUserinfo(r) { return r.host === null || r.host === '' || r.scheme === 'file'; }

accessor('href', function (r) { return serialize(r); }, function (st, v) {
    var r = parse(v, null);
    if (r === null) throw invalid(v);
    st.r = r;
    setQueryList(st);
});
accessor('origin', function (r) {
    if (r.scheme === 'blob') {
        var inner = parse(r.opaque ? r.path : '', null);
        return inner && (inner.scheme === 'http' || inner.scheme === 'https') ? serialize(inner).replace(/^([^:]+:\/\/[^/?#]*).*$/, '$1') : 'null';
    }
    if (!isSpecial(r.scheme) || r.scheme === 'file') return 'null';
    return r.scheme + '://' + hostOf(r);
});
accessor('protocol', function (r) { return r.scheme + ':'; }, function (st, v) { parse(v + ':', null, st.r, 'schemeStart'); });
accessor('username', function (r) { return r.username; }, function (st, v) {
    if (!cannotHaveUserinfo(st.r)) st.r.username = percentEncode(v, userinfoSet);
});
accessor('password', function (r) { return r.password; }, function (st, v) {
    if (!cannotHaveUserinfo(st.r)) st.r.password = percentEncode(v, userinfoSet);
});
accessor('host', hostOf, function (st, v) {
    if (!st.r.opaque) parseInto(st.r, v, 'host');
});
accessor('hostname', function (r) { return r.host === null ? '' : r.host; }, function (st, v) {
    if (!st.r.opaque) parseInto(st.r, v, 'hostname');
});
accessor('port', function (r) { return r.port === null ? '' : Str(r.port); }, function (st, v) {
    if (cannotHaveUserinfo(st.r)) return;
    if (v === '') st.r.port = null;
    else parseInto(st.r, v, 'port');
});
accessor('pathname', function (r) {
    if (r.opaque) return r.path;
    var out = '';
    for (var i = 0; i < r.path.length; i++) out += '/' + r.path[i];
    return out;
}, function (st, v) {
    if (st.r.opaque) return;
    st.r.path = [];
    parse(v, null, st.r, 'pathStart');
});
accessor('search', function (r) { return r.query === null || r.query === '' ? '' : '?' + r.query; }, function (st, v) {
    if (v === '') { st.r.query = null; st.params[S].list = []; return; }
    st.r.query = '';
    parse(v[0] === '?' ? slice(v, 1) : v, null, st.r, 'query');
    setQueryList(st);
});
accessor('hash', function (r) { return r.fragment === null || r.fragment === '' ? '' : '#' + r.fragment; }, function (st, v) {
    if (v === '') { st.r.fragment = null; return; }
    st.r.fragment = '';
    parse(v[0] === '#' ? slice(v, 1) : v, null, st.r, 'fragment');
});
rt.defineProperty(URL.prototype, 'searchParams', {
    get: function () { return record(this, 'searchParams').params; }, enumerable: true, configurable: true
});

/* A setter's parse on a copy: the URL changes only if it succeeds. */
function parseInto(r, v, state) {
    var c = copyRecord(r);
    c.fragment = r.fragment;
    var out = parse(v, null, c, state === 'hostname' || state === 'host' ? 'host' : state);
    if (out === null) return;
    if (state === 'hostname' && c.port !== r.port) c.port = r.port;
    r.host = c.host;
    r.port = c.port;
}

rt.install(URL.prototype, {
    toString() { return serialize(record(this, 'href').r); },
    toJSON() { return serialize(record(this, 'href').r); }
});
rt.install(URL, {
    canParse(url, base) {
        try { parseWithBase(url, base); return true; } catch (e) { return false; }
    }
}, { canParse: 1 });

rt.def(G, 'URL', URL);
rt.def(G, 'URLSearchParams', URLSearchParams);
