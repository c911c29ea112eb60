/* Array.prototype.sort: stable (ES2019), the spec's comparator and
 * undefined/holes handling, default string order. */
function byKey(a, b) { return a.k - b.k; }
function stableCheck(arr) {
    for (var i = 1; i < arr.length; i++)
        if (arr[i - 1].k === arr[i].k && arr[i - 1].i > arr[i].i) return false;
    return true;
}
function seq(n, f) { var a = []; for (var i = 0; i < n; i++) a.push(f(i)); return a; }

t('defaultNumbersAsStrings', function () { return [10, 9, 1, 100, 25, -1, -10].sort(); });
t('defaultStrings', function () { return ['b', 'a', 'C', 'B', 'aa', '', 'A'].sort(); });
t('defaultMixed', function () { return [true, 'true', 2, '10', null, 'null', false, {}, [1, 2], '1,2'].sort(); });
t('defaultUnicodeCodeUnits', function () { return ['\u00e9', 'e', 'z', '\u00c9', 'E'].sort(); });
t('numericComparator', function () { return [10, 9, 1, 100, 25, -1, -10].sort(function (a, b) { return a - b; }); });
t('descending', function () { return [3, 1, 2].sort(function (a, b) { return b - a; }); });
t('returnsSameArray', function () { var a = [2, 1]; return a.sort() === a; });
t('undefinedLast', function () { return [3, undefined, 1, undefined, 2].sort(); });
t('undefinedNotPassedToComparator', function () {
    var seen = [];
    [undefined, 2, 1].sort(function (a, b) { seen.push(typeof a, typeof b); return a - b; });
    return seen.indexOf('undefined');
});
t('holesAfterUndefined', function () {
    var a = [3, , undefined, 1, , 2];
    a.sort();
    return [a, a.length, 4 in a, 5 in a, 3 in a];
});
t('holesWithComparator', function () {
    var a = [, 5, , 1];
    a.sort(function (x, y) { return x - y; });
    return [a, 0 in a, 2 in a];
});
t('stableSmall', function () {
    var a = [{ k: 1, i: 0 }, { k: 0, i: 1 }, { k: 1, i: 2 }, { k: 0, i: 3 }];
    return a.sort(byKey).map(function (x) { return x.i; });
});
t('stableLargeManyEqual', function () {
    var a = seq(1000, function (i) { return { k: (i * 7919) % 5, i: i }; });
    a.sort(byKey);
    return [stableCheck(a), a[0].k, a[999].k];
});
t('stableStringKeys', function () {
    var words = ['pear', 'fig', 'apple', 'kiwi', 'plum', 'date', 'lime', 'bean', 'corn', 'yam', 'nut', 'pea'];
    return words.slice().sort(function (a, b) { return a.length - b.length; });
});
t('stableAlreadySorted', function () {
    var a = seq(300, function (i) { return { k: Math.floor(i / 10), i: i }; });
    a.sort(byKey);
    return stableCheck(a);
});
t('stableReversed', function () {
    var a = seq(300, function (i) { return { k: 30 - Math.floor(i / 10), i: i }; });
    a.sort(byKey);
    return [stableCheck(a), a[0].i, a[299].i];
});
t('comparatorStrings', function () {
    return [3, 1, 2].sort(function (a, b) { return a < b ? '-1' : a > b ? '1' : '0'; });
});
t('comparatorNaNKeepsOrder', function () { return [3, 1, 2].sort(function () { return NaN; }); });
t('comparatorUndefinedKeepsOrder', function () { return [3, 1, 2].sort(function () {}); });
t('comparatorValueOf', function () {
    return [3, 1, 2].sort(function (a, b) { return { valueOf: function () { return a - b; } }; });
});
t('comparatorBooleanConsistent', function () {
    return [3, 1, 2, 5, 4].sort(function (a, b) { return (a > b) - (a < b); });
});
t('comparatorLargeValues', function () {
    return [2, 1, 3].sort(function (a, b) { return (a - b) * 1e300 * 1e10; });
});
t('comparatorThisUndefined', function () {
    var self;
    [2, 1].sort(function (a, b) { 'use strict'; self = this; return a - b; });
    return typeof self;
});
t('comparatorNotFunction', function () { return [2, 1].sort('x'); });
t('comparatorNullThrows', function () { return [2, 1].sort(null); });
t('comparatorThrowsLeavesArray', function () {
    var a = [3, 1, 2];
    try { a.sort(function () { throw new Error('x'); }); } catch (e) { /* expected */ }
    return a;
});
t('symbolDefaultThrows', function () { return [Symbol('a'), Symbol('b')].sort(); });
t('symbolWithComparatorOk', function () {
    var a = Symbol('a'), b = Symbol('b');
    var r = [b, a].sort(function (x, y) { return String(x) < String(y) ? -1 : 1; });
    return [r[0] === a, r[1] === b];
});
t('arrayLike', function () {
    var o = { length: 4, 0: 'd', 1: 'b', 3: 'a' };
    Array.prototype.sort.call(o);
    return [o[0], o[1], o[2], 3 in o, o.length];
});
t('arrayLikeUndefinedAndHoles', function () {
    var o = { length: 4, 0: undefined, 2: 'x' };
    Array.prototype.sort.call(o);
    return [Object.keys(o), o[0], o[1]];
});
t('sortObjectsByName', function () {
    var users = [{ name: 'Carol' }, { name: 'alice' }, { name: 'Bob' }];
    return users.sort(function (a, b) { return a.name < b.name ? -1 : a.name > b.name ? 1 : 0; }).map(function (u) { return u.name; });
});
t('sortDates', function () {
    var ds = [new Date(3000), new Date(1000), new Date(2000)];
    return ds.sort(function (a, b) { return a - b; }).map(function (d) { return d.getTime(); });
});
t('random1000Numeric', function () {
    var x = 12345, a = seq(1000, function () { x = (x * 1103515245 + 12345) % 2147483648; return x % 1000; });
    var s = a.slice().sort(function (p, q) { return p - q; });
    var ok = true;
    for (var i = 1; i < s.length; i++) if (s[i - 1] > s[i]) ok = false;
    return [ok, s.length, s[0], s[999]];
});
t('random1000Default', function () {
    var x = 99, a = seq(1000, function () { x = (x * 1103515245 + 12345) % 2147483648; return x % 5000; });
    var s = a.slice().sort();
    return [s.slice(0, 8), s.slice(-3)];
});
t('sortNegativeZero', function () {
    var r = [0, -0, 0, -0].sort(function (a, b) { return a - b; });
    return r.map(function (z) { return 1 / z; });
});
t('sortNaNs', function () { return [NaN, 1, NaN, 0].sort(); });
t('sortEmptyAndSingle', function () { return [[].sort(), [1].sort(), [undefined].sort()]; });
t('sortFrozenThrows', function () { return Object.freeze([2, 1]).sort(); });
t('sortLengthAndName', function () { return [Array.prototype.sort.length, Array.prototype.sort.name]; });
t('comparatorMutatesArray', function () {
    var a = [3, 2, 1];
    a.sort(function (x, y) { a.length = 0; return x - y; });
    return a;
});
/* The comparator call of the sort in C (fastpaths.inc) over more than one
 * block (2048 elements): what the comparator is and does. */
function shuffled(n) {
    var x = 7, a = seq(n, function (i) { return { k: i % 97, i: i }; });
    for (var i = n - 1; i > 0; i--) {
        x = (x * 1103515245 + 12345) % 2147483648;
        var j = x % (i + 1), t = a[i]; a[i] = a[j]; a[j] = t;
    }
    return a;
}
function sameMembers(a, n) {
    var seen = [];
    for (var i = 0; i < a.length; i++) seen[a[i].i] = (seen[a[i].i] || 0) + 1;
    for (i = 0; i < n; i++) if (seen[i] !== 1) return false;
    return a.length === n;
}
t('largeThrowingComparatorKeepsEveryElement', function () {
    var a = shuffled(5000), calls = 0, msg;
    try { a.sort(function (x, y) { if (++calls === 30000) throw new RangeError('stop at ' + calls); return x.k - y.k; }); }
    catch (e) { msg = e.name + ': ' + e.message; }
    return [msg, sameMembers(a, 5000)];
});
t('largeComparatorMutatesArray', function () {
    var a = shuffled(5000), n = 0;
    a.sort(function (x, y) { if (n++ < 3) { a.push({ k: -1, i: -1 }); a.length = 10; } return x.k - y.k || x.i - y.i; });
    return [a.length, a[0].k, a[0].i, a[4999].k, stableCheck(a)];
});
t('largeNestedSort', function () {
    var a = shuffled(3000), inner = [5, 3, 9, 1], last;
    a.sort(function (x, y) { last = inner.slice().sort(function (p, q) { return p - q; }).join(); return x.k - y.k; });
    return [last, a[0].k, a[2999].k, stableCheck(a)];
});
t('largeBoundComparator', function () {
    var a = shuffled(3000);
    var cmp = function (dir, x, y) { return dir * (x.k - y.k) || x.i - y.i; }.bind(null, -1);
    a.sort(cmp);
    return [a[0].k, a[0].i, a[2999].k, a[2999].i];
});
t('nativeBoundComparator', function () {
    var cmp = Function.prototype.call.bind(String.prototype.localeCompare);
    var w = shuffled(3000).map(function (o) { return 'w' + o.i; });
    var s = w.slice().sort(cmp), ok = true;
    for (var i = 1; i < s.length; i++) if (s[i - 1].localeCompare(s[i]) > 0) ok = false;
    return [['b', 'c', 'a'].sort(cmp), ok, s[0], s[2999]];
});
t('largeComparatorArguments', function () {
    var a = shuffled(3000), lens = {};
    a.sort(function () { lens[arguments.length] = 1; return arguments[0].k - arguments[1].k; });
    return [Object.keys(lens), a[0].k, a[2999].k, stableCheck(a)];
});
t('largeComparatorThisSloppy', function () {
    var self, a = shuffled(3000);
    a.sort(function (x, y) { self = this; return x.k - y.k; });
    return [self === globalThis, stableCheck(a)];
});
t('largeComparatorNonNumberResults', function () {
    var a = shuffled(3000);
    a.sort(function (x, y) { return x.k < y.k ? '-1' : x.k > y.k ? { valueOf: function () { return 1; } } : null; });
    return [a[0].k, a[2999].k, stableCheck(a)];
});
t('comparatorNonFunctionLarge', function () {
    var r = [];
    [{}, 1, 'f', null, true].forEach(function (c) {
        try { seq(3000, function (i) { return i; }).sort(c); r.push('sorted'); } catch (e) { r.push(e.name); }
    });
    return r;
});
/* Relational comparisons of strings: two primitive strings compare directly. */
t('compareStrings', function () {
    var S = String;
    return ['a' < 'b', 'b' < 'a', 'a' < 'a', 'a' <= 'a', 'ab' > 'a', '' < 'a', '10' < '9', '10' < 9,
            'Z' < 'a', '\u00e9' > 'z', '\ud83d\ude00' > '\uffff', 'a' >= 'b', new S('a') < 'b', 'b' > new S('a'),
            { toString: function () { return 'b'; } } > 'a', 'x' < undefined, 'x' > null, '1' < true];
});
t('compareSymbolThrows', function () {
    var r = [];
    try { r.push(Symbol('a') < 'b'); } catch (e) { r.push(e.name); }
    try { r.push('a' > Symbol('b')); } catch (e) { r.push(e.name); }
    return r;
});
/* `in` and the array methods' HasProperty on arrays: own elements, holes
 * (which look further, to the prototype), indices beyond, non-index numbers. */
t('inArrayIndices', function () {
    var a = [0, , 2, undefined], r = [0 in a, 1 in a, 2 in a, 3 in a, 4 in a, -0 in a, 1.5 in a, -1 in a, '2' in a, 4294967295 in a, NaN in a];
    Array.prototype[1] = 'p';
    try { r.push(1 in a, a[1], a.indexOf('p'), a.reduce(function (s, v) { return s + String(v); }, '')); }
    finally { delete Array.prototype[1]; }
    r.push(1 in a);
    return r;
});
t('reduceSkipsHolesAndSeesDeletes', function () {
    var a = [1, , 3, 4, 5], seen = [];
    var sum = a.reduce(function (s, v, i, arr) { seen.push(i); if (i === 2) delete arr[3]; return s + v; }, 0);
    var b = [1, 2, 3, 4];
    var sum2 = b.reduce(function (s, v, i, arr) { if (i === 0) arr.length = 2; return s + v; }, 0);
    var mapped = [1, , 3].map(function (v) { return v * 2; });
    return [sum, seen, sum2, mapped.length, 1 in mapped, mapped[2]];
});
t('inProxyOfArray', function () {
    var log = [], p = new Proxy([1, 2], { has: function (t, k) { log.push(String(k)); return k in t; } });
    return [0 in p, 5 in p, log];
});
return __out;
