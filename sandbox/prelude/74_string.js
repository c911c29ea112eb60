/* String: padStart, padEnd, trimStart, trimEnd (and the trimLeft/trimRight
 * aliases), replaceAll, matchAll, at, isWellFormed, toWellFormed (ES2017-
 * ES2024) and String.raw. replace, split, join and exec are the versions
 * installed when the prelude ran (60_lang.js adds named groups to them). */
'use strict';
var lib = rt.lib, install = rt.install, def = rt.def, apply = rt.apply, Str = rt.String, TypeErr = rt.TypeErr;
var toObject = rt.toObject, toInteger = rt.toInteger, toLength = rt.toLength;
var SP = String.prototype, objToString = rt.objectToString, ceil = Math.ceil;
var strReplace = SP.replace, strSplit = SP.split, strRepeat = SP.repeat, strTrim = SP.trim;
var strIndexOf = SP.indexOf, join = Array.prototype.join;
var NativeRegExp = RegExp, reExec = RegExp.prototype.exec;
var ownSymbols = Object.getOwnPropertySymbols, getDesc = Object.getOwnPropertyDescriptor;

function thisString(x, method) { return Str(toObject(x, 'String.prototype.' + method)); }
function isRegExp(x) { return rt.isObject(x) && apply(objToString, x, []) === '[object RegExp]'; }

/* ---- padding and trimming ----------------------------------------------------------- */

function pad(s, maxLength, fillString, atStart) {
    var target = toLength(maxLength);
    if (target <= s.length) return s;
    if (typeof fillString === 'symbol') throw new TypeErr('Cannot convert a Symbol value to a string');
    var fill = fillString === void 0 ? ' ' : Str(fillString);
    if (fill === '') return s;
    var need = target - s.length, reps = ceil(need / fill.length);
    var filler = apply(strRepeat, fill, [reps]);
    if (filler.length > need) filler = filler.slice(0, need);
    return atStart ? filler + s : s + filler;
}
/* The common call, a string padded with spaces to a small integer width,
 * without the coercions and the generic repeat (~25,000 -> ~3,000
 * instructions: tables of tool results pad every cell). */
var SPACES = '                                                                ';
function padSpaces(s, n, atStart) {
    var need = n - s.length;
    if (need <= 0) return s;
    var filler = need <= SPACES.length ? SPACES.substring(0, need) : apply(strRepeat, ' ', [need]);
    return atStart ? filler + s : s + filler;
}
install(SP, {
    padStart(maxLength, fillString) {
        if (typeof this === 'string' && fillString === void 0 && maxLength === (maxLength | 0))
            return padSpaces(this, maxLength, true);
        return pad(thisString(this, 'padStart'), maxLength, fillString, true);
    },
    padEnd(maxLength, fillString) {
        if (typeof this === 'string' && fillString === void 0 && maxLength === (maxLength | 0))
            return padSpaces(this, maxLength, false);
        return pad(thisString(this, 'padEnd'), maxLength, fillString, false);
    }
}, { padStart: 1, padEnd: 1 });
rt.useNative(SP, 'padStart', rt.host.stringPadStart);
rt.useNative(SP, 'padEnd', rt.host.stringPadEnd);

/* The native trim decides what white space is; t's first character is not
 * white space, so its first occurrence in s starts right after the leading run. */
var trimStart = install(SP, {
    trimStart() {
        var s = thisString(this, 'trimStart'), t = apply(strTrim, s, []);
        return t === '' ? '' : s.slice(apply(strIndexOf, s, [t]));
    }
}).trimStart;
var trimEnd = install(SP, {
    trimEnd() {
        var s = thisString(this, 'trimEnd'), t = apply(strTrim, s, []);
        return t === '' ? '' : s.slice(0, apply(strIndexOf, s, [t]) + t.length);
    }
}).trimEnd;
def(SP, 'trimLeft', trimStart);
def(SP, 'trimRight', trimEnd);

install(SP, {
    at(index) {
        var s = thisString(this, 'at'), k = toInteger(index);
        if (k < 0) k += s.length;
        return k < 0 || k >= s.length ? undefined : s.charAt(k);
    }
});

/* ---- replaceAll --------------------------------------------------------------------- */

/* GetSubstitution for a string pattern: $$, $&, $` and $'; with no captures
 * $n and $<name> stay as they are. */
function substitute(matched, s, pos, template) {
    var out = '', i = 0, n = template.length;
    for (;;) {
        var j = apply(strIndexOf, template, ['$', i]);
        if (j < 0 || j + 1 >= n) break;
        out += template.slice(i, j);
        var c = template.charAt(j + 1);
        if (c === '$') out += '$';
        else if (c === '&') out += matched;
        else if (c === '`') out += s.slice(0, pos);
        else if (c === "'") out += s.slice(pos + matched.length);
        else { out += '$' + c; }
        i = j + 2;
    }
    return out + template.slice(i);
}

install(SP, {
    replaceAll(searchValue, replaceValue) {
        var self = this;
        toObject(self, 'String.prototype.replaceAll');
        if (isRegExp(searchValue)) {
            if (apply(strIndexOf, flagsOf(searchValue), ['g']) < 0)
                throw new TypeErr('String.prototype.replaceAll called with a non-global RegExp argument');
            return apply(strReplace, self, [searchValue, replaceValue]);
        }
        var s = Str(self), search = Str(searchValue), fn = typeof replaceValue === 'function';
        var template = fn ? '' : Str(replaceValue), slen = search.length;
        if (!fn && slen > 0 && apply(strIndexOf, template, ['$']) < 0)
            return apply(join, apply(strSplit, s, [search]), [template]);
        var positions = [], p = apply(strIndexOf, s, [search, 0]), adv = slen > 0 ? slen : 1;
        while (p >= 0) {
            positions[positions.length] = p;
            p = p + adv > s.length ? -1 : apply(strIndexOf, s, [search, p + adv]);
        }
        var out = '', end = 0;
        for (var i = 0; i < positions.length; i++) {
            p = positions[i];
            out += s.slice(end, p) + (fn ? Str(replaceValue(search, p, s)) : substitute(search, s, p, template));
            end = p + slen;
        }
        return out + s.slice(end);
    }
});

/* ---- matchAll ------------------------------------------------------------------------ */

function flagsOf(re) {
    var f = re.flags;
    if (typeof f === 'string') return f;
    return (re.global ? 'g' : '') + (re.ignoreCase ? 'i' : '') + (re.multiline ? 'm' : '');
}

/* A copy of re with its own symbol-keyed properties (named groups of 60_lang.js). */
function cloneRegExp(re, flags) {
    var c = new NativeRegExp(re, flags), syms = ownSymbols(re);
    for (var i = 0; i < syms.length; i++) rt.defineProperty(c, syms[i], getDesc(re, syms[i]));
    c.lastIndex = toLength(re.lastIndex);
    return c;
}

var MatchIterProto = rt.create(rt.IteratorPrototype);
rt.tag(MatchIterProto, 'RegExp String Iterator');
/* exec is the C one of fastpaths.inc from here on; its rt.HIDDEN is the
 * prelude's version (named groups), which it calls for what it does not take. */
var EXEC = rt.useNative(RegExp.prototype, 'exec', rt.host.regexpExec), execOn = rt.host.regexpExecOn;
execOn[rt.HIDDEN] = EXEC[rt.HIDDEN];

/* The iterator's next match, or null when it is done (RegExpExec: re.exec
 * read once, called if callable). */
function rsiMatch(it) {
    var st = rt.iterState(it, 'rsi');
    if (st.done) return null;
    var re = st.re, exec = re.exec, m;
    if (exec === EXEC) m = execOn(re, st.s);
    else m = typeof exec === 'function' ? apply(exec, re, [st.s]) : apply(reExec, re, [st.s]);
    if (m === null) {
        st.done = true;
        return null;
    }
    if (!st.global) st.done = true;
    else if (Str(m[0]) === '') re.lastIndex = toLength(re.lastIndex) + 1;
    return m;
}
install(MatchIterProto, {
    next() {
        var m = rsiMatch(this);
        return m === null ? { value: void 0, done: true } : { value: m, done: false };
    }
});
/* for-of (60_lang.js) takes the match into r[0] without a result object:
 * rt.host.rsiStep in C, which calls this for what it does not take. */
rt.rsi.next = MatchIterProto.next;
rt.rsi.step = rt.host.rsiStep;
rt.host.rsiStep[rt.HIDDEN] = function (it, r) {
    var m = rsiMatch(it);
    if (m === null) return false;
    r[0] = m;
    return true;
};

install(SP, {
    matchAll(regexp) {
        var self = this, re;
        toObject(self, 'String.prototype.matchAll');
        if (isRegExp(regexp)) {
            var flags = flagsOf(regexp);
            if (apply(strIndexOf, flags, ['g']) < 0)
                throw new TypeErr('String.prototype.matchAll called with a non-global RegExp argument');
            re = cloneRegExp(regexp, flags);
        } else {
            re = new NativeRegExp(regexp === void 0 ? '(?:)' : regexp, 'g');
        }
        return rt.makeIter(MatchIterProto, { tag: 'rsi', re: re, s: Str(self), global: true, done: false });
    }
});

/* ---- well-formedness (lone surrogates) ---------------------------------------------- */

/* The index of the first lone surrogate of s, or -1. */
function loneSurrogate(s) {
    for (var i = 0; i < s.length; i++) {
        var c = s.charCodeAt(i);
        if (c < 0xd800 || c > 0xdfff) continue;
        if (c <= 0xdbff && i + 1 < s.length) {
            var d = s.charCodeAt(i + 1);
            if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
        }
        return i;
    }
    return -1;
}
install(SP, {
    isWellFormed() {
        return loneSurrogate(thisString(this, 'isWellFormed')) < 0;
    }
});
install(SP, {
    toWellFormed() {
        var s = thisString(this, 'toWellFormed'), i, out = '';
        while ((i = loneSurrogate(s)) >= 0) {
            out += s.slice(0, i) + '\ufffd';
            s = s.slice(i + 1);
        }
        return out + s;
    }
});

/* ---- String.raw ------------------------------------------------------------------------ */

install(String, {
    raw(template) {
        var cooked = toObject(template, 'String.raw'), r = toObject(cooked.raw, 'String.raw');
        var len = toLength(r.length), out = '';
        for (var i = 0; i < len; i++) {
            out += Str(r[i]);
            if (i + 1 < len && i + 1 < arguments.length) out += Str(arguments[i + 1]);
        }
        return out;
    }
});
