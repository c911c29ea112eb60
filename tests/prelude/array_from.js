/* Array.from and Array.of. */
t('fromArray', function () { var a = [1, 2]; var b = Array.from(a); return [b, a !== b]; });
t('fromHoles', function () { return Array.from([1, , 3]); });
t('fromArrayLike', function () { return Array.from({ length: 3, 0: 'a', 2: 'c' }); });
t('fromLengthOnly', function () { return Array.from({ length: 4 }, function (_, i) { return i * i; }); });
t('fromLengthCoercion', function () {
    return [Array.from({ length: '2' }).length, Array.from({ length: -1 }).length, Array.from({ length: 2.7 }).length,
            Array.from({ length: NaN }).length, Array.from({}).length];
});
t('fromString', function () { return Array.from('abc'); });
t('fromStringMapFn', function () { return Array.from('abc', function (c, i) { return c + i; }); });
t('fromSet', function () { return Array.from(new Set(['x', 'y', 'x'])); });
t('fromMap', function () { return Array.from(new Map([[1, 'a'], [2, 'b']])); });
t('fromMapKeys', function () { return Array.from(new Map([[1, 'a'], [2, 'b']]).keys()); });
t('fromNumberAndBool', function () { return [Array.from(5), Array.from(true)]; });
t('fromNull', function () { return Array.from(null); });
t('fromUndefined', function () { return Array.from(); });
t('mapFnNotCallable', function () { return Array.from([1], 'nope'); });
t('mapFnUndefinedIsOk', function () { return Array.from([1, 2], undefined); });
t('mapFnThisArg', function () {
    return Array.from([1, 2], function (x) { return x * this.k; }, { k: 10 });
});
t('mapFnArgs', function () {
    var seen = [];
    Array.from(['a', 'b'], function () { seen.push(arguments.length, arguments[0], arguments[1]); });
    return seen;
});
t('mapFnOnArrayLikeHoles', function () {
    return Array.from({ length: 2 }, function (x) { return typeof x; });
});
t('iterableDoneEarly', function () {
    var it = {};
    it[Symbol.iterator] = function () {
        var i = 0;
        return { next: function () { i++; return i === 3 ? { done: true, value: 'ignored' } : { done: false, value: i }; } };
    };
    return Array.from(it);
});
t('iterableWinsOverLength', function () {
    var it = { length: 10 };
    it[Symbol.iterator] = function () { return [7, 8][Symbol.iterator](); };
    return Array.from(it);
});
t('iteratorNullFallsBackToArrayLike', function () {
    var o = { length: 1, 0: 'z' };
    o[Symbol.iterator] = null;
    return Array.from(o);
});
t('fromArguments', function () { return (function () { return Array.from(arguments, function (x) { return x + 1; }); })(1, 2); });
t('fromTypedArray', function () { return Array.from(new Int16Array([-1, 2])); });
t('fromGeneratorLike', function () {
    var n = 0, it = { next: function () { n++; return { value: n, done: n > 3 }; } };
    it[Symbol.iterator] = function () { return this; };
    return Array.from(it);
});
t('fromOnSubclassCtor', function () {
    function C() { this.made = true; }
    var r = Array.from.call(C, [1, 2]);
    return [r.made, r.length, r[0], r[1], Array.isArray(r)];
});
t('fromOnSubclassCtorArrayLike', function () {
    function C(n) { this.n = n; }
    var r = Array.from.call(C, { length: 2, 0: 'a', 1: 'b' });
    return [r.n, r.length, r[0], r[1]];
});
t('fromUnbound', function () { var f = Array.from; return f([1, 2]); });
t('fromNested', function () { return Array.from([[1, 2], [3]], function (a) { return Array.from(a).length; }); });
t('ofBasic', function () { return [Array.of(7), Array.of(1, 2, 3), Array.of(), Array.of(undefined)]; });
t('ofVsArrayCtor', function () { return [Array.of(3).length, new Array(3).length]; });
t('ofOnCtor', function () {
    function C(n) { this.n = n; }
    var r = Array.of.call(C, 'a', 'b');
    return [r.n, r.length, r[1]];
});
t('fromLengthAndName', function () { return [Array.from.name, Array.of.name]; });
t('fromBigArrayLike', function () {
    var a = Array.from({ length: 10000 }, function (_, i) { return i; });
    return [a.length, a[9999], a.reduce(function (s, x) { return s + x; }, 0)];
});
return __out;
