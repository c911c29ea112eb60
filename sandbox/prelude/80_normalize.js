/* String.prototype.normalize (Duktape has none): NFC, NFD, NFKC and NFKD by
 * the Unicode algorithm (decompose, order combining marks, compose), with the
 * data of 79_normalize_data.js: Latin, Greek and Cyrillic letters, Hangul
 * (algorithmically), and common compatibility characters. Characters outside
 * that data are left as they are; most text in other scripts is already NFC.
 * The maps are built on first use, so the template heap stays small. */
var data = rt.normalizeData, fromCharCode = String.fromCharCode, floor = Math.floor;
var decomp = null, kdecomp = null, compose = null, ccc = null, noCompose = null;
var SBase = 0xAC00, LBase = 0x1100, VBase = 0x1161, TBase = 0x11A7, TCount = 28, NCount = 588, SCount = 11172;

function parsePairs(text, into) {
    var items = text.split('|');
    for (var i = 0; i < items.length; i++) if (items[i]) into[items[i].charAt(0)] = items[i].substring(1);
}

function init() {
    decomp = {};
    kdecomp = {};
    compose = {};
    ccc = {};
    noCompose = {};
    parsePairs(data.canon, decomp);
    parsePairs(data.compat, kdecomp);
    var parts = data.ccc.split(' ');
    for (var i = 0; i < parts.length; i++) {
        var kv = parts[i].split(':');
        ccc[fromCharCode(parseInt(kv[0], 16))] = +kv[1];
    }
    for (var j = 0; j < data.noCompose.length; j++) noCompose[data.noCompose.charAt(j)] = true;
    for (var c in decomp) {
        var d = decomp[c];
        if (d.length === 2 && !noCompose[c]) compose[d] = c;
    }
}

function classOf(ch) {
    return ccc[ch] || 0;
}

function decomposeChar(ch, compat, out) {
    var code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= SBase && code < SBase + SCount) {
        var s = code - SBase;
        out[out.length] = fromCharCode(LBase + floor(s / NCount));
        out[out.length] = fromCharCode(VBase + floor((s % NCount) / TCount));
        if (s % TCount) out[out.length] = fromCharCode(TBase + s % TCount);
        return;
    }
    var d = decomp[ch];
    if (d === void 0 && compat) d = kdecomp[ch];
    if (d === void 0) { out[out.length] = ch; return; }
    for (var i = 0; i < d.length; i++) decomposeChar(d.charAt(i), compat, out);
}

/* Splits into code points (surrogate pairs kept together), decomposes, then
 * orders each run of combining marks by class (stable). */
function decompose(str, compat) {
    var out = [];
    for (var i = 0; i < str.length; i++) {
        var c = str.charAt(i), code = str.charCodeAt(i);
        if (code >= 0xD800 && code <= 0xDBFF && i + 1 < str.length) { c += str.charAt(++i); }
        decomposeChar(c, compat, out);
    }
    for (var j = 1; j < out.length; j++) {
        var k = j, cls = classOf(out[k]);
        while (cls && k > 0 && classOf(out[k - 1]) > cls) {
            var t = out[k]; out[k] = out[k - 1]; out[k - 1] = t;
            k--;
        }
    }
    return out;
}

function composeHangul(a, b) {
    var ac = a.charCodeAt(0), bc = b.charCodeAt(0);
    if (ac >= LBase && ac < LBase + 19 && bc >= VBase && bc < VBase + 21)
        return fromCharCode(SBase + ((ac - LBase) * 21 + (bc - VBase)) * TCount);
    if (ac >= SBase && ac < SBase + SCount && (ac - SBase) % TCount === 0 && bc > TBase && bc < TBase + TCount)
        return fromCharCode(ac + (bc - TBase));
    return void 0;
}

function recompose(chars) {
    var out = [], starter = -1, lastClass = 0;
    for (var i = 0; i < chars.length; i++) {
        var c = chars[i], cls = classOf(c);
        if (starter >= 0 && (lastClass < cls || (lastClass === 0 && out.length - 1 === starter))) {
            var pair = out[starter] + c, comp = compose[pair] || composeHangul(out[starter], c);
            if (comp !== void 0 && (cls !== 0 || out.length - 1 === starter)) {
                out[starter] = comp;
                continue;
            }
        }
        if (cls === 0) { starter = out.length; lastClass = 0; } else lastClass = cls;
        out[out.length] = c;
    }
    return concat(out);
}

/* The strings of list joined (Array.prototype.join may be a program's). */
function concat(list) {
    var s = '';
    for (var i = 0; i < list.length; i++) s += list[i];
    return s;
}

rt.def(String.prototype, 'normalize', function normalize(form) {
    'use strict';
    if (this === null || this === void 0) throw new TypeError('String.prototype.normalize called on null or undefined');
    var str = String(this);
    var f = form === void 0 ? 'NFC' : String(form);
    if (f !== 'NFC' && f !== 'NFD' && f !== 'NFKC' && f !== 'NFKD')
        throw new RangeError('The normalization form should be one of NFC, NFD, NFKC, NFKD.');
    if (!/[^\u0000-\u007f]/.test(str)) return str;
    if (decomp === null) init();
    var chars = decompose(str, f === 'NFKC' || f === 'NFKD');
    return f === 'NFD' || f === 'NFKD' ? concat(chars) : recompose(chars);
});
rt.normalize = String.prototype.normalize; /* for 78_intl_collator.js, loaded before */
