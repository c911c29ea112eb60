/* Typed arrays: iteration and the Array-like methods Duktape lacks. */
function arr(ta) { return Array.prototype.slice.call(ta); }
t('iteration', function () { return [Array.from(new Int8Array([1, -2])), Array.from(new Uint16Array([7]).entries())]; });
t('genericReadMethods', function () {
    var u = new Uint8Array([5, 1, 4, 1]);
    return [u.indexOf(1), u.lastIndexOf(1), u.includes(4), u.join('-'), u.every(function (x) { return x > 0; }),
            u.some(function (x) { return x > 4; }), u.reduce(function (a, b) { return a + b; }), u.find(function (x) { return x < 5; }),
            u.findIndex(function (x) { return x === 4; }), u.findLast(function (x) { return x === 1; }), u.at(-1), String(u)];
});
t('forEachArgs', function () { var seen = []; new Int16Array([3, 4]).forEach(function (v, i, a) { seen.push(v, i, a.length); }); return seen; });
t('fillReverseCopyWithin', function () {
    return [arr(new Uint8Array(3).fill(7)), arr(new Uint8Array([1, 2, 3]).reverse()), arr(new Uint8Array([1, 2, 3, 4]).copyWithin(0, 2))];
});
t('sortNumericDefault', function () {
    return [arr(new Int32Array([10, 9, 1, -5, 100]).sort()), arr(new Float64Array([3, NaN, -0, 0, -Infinity, 1]).sort()).map(function (x) { return 1 / x === -Infinity ? '-0' : x; })];
});
t('sortComparator', function () { return arr(new Uint8Array([1, 3, 2]).sort(function (a, b) { return b - a; })); });
t('sortReturnsSame', function () { var u = new Uint8Array([2, 1]); return u.sort() === u; });
t('copyingMethods', function () {
    var u = new Uint8Array([3, 1, 2]);
    var s = u.toSorted(), r = u.toReversed(), w = u['with'](0, 9);
    return [arr(s), arr(r), arr(w), arr(u), s instanceof Uint8Array, w instanceof Uint8Array];
});
t('withRange', function () { return new Uint8Array(2)['with'](5, 1); });
t('mapKeepsType', function () {
    var m = new Uint8Array([100, 200]).map(function (x) { return x * 2; });
    return [m instanceof Uint8Array, arr(m)];
});
t('filterAndSlice', function () {
    var f = new Int16Array([1, -2, 3]).filter(function (x) { return x > 0; }), s = new Float32Array([1.5, 2.5, 3.5]).slice(1);
    return [f instanceof Int16Array, arr(f), s instanceof Float32Array, arr(s), arr(new Uint8Array([1, 2, 3]).slice(-2, -1))];
});
t('fromOf', function () {
    var a = Uint8Array.from([1, 2, 300]), b = Int16Array.from('12', function (c) { return c * 10; }), c = Float64Array.of(1.5, 2);
    return [a instanceof Uint8Array, arr(a), arr(b), arr(c), arr(Uint8Array.from(new Set([4, 5])))];
});
t('clamped', function () { return arr(Uint8ClampedArray.from([300, -5, 1.5])); });
return __out;
