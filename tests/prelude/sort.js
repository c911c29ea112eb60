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
return __out;
