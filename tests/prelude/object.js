/* Object.entries, values, fromEntries, hasOwn, getOwnPropertyDescriptors. */
t('entriesOrder', function () { return Object.entries({ b: 1, 2: 'two', a: 2, 1: 'one' }); });
t('valuesOrder', function () { return Object.values({ b: 1, 2: 'two', a: 2, 1: 'one' }); });
t('entriesSkipsNonEnumerableAndInherited', function () {
    var proto = { inherited: 1 }, o = Object.create(proto);
    o.own = 2;
    Object.defineProperty(o, 'hidden', { value: 3, enumerable: false });
    return [Object.entries(o), Object.values(o)];
});
t('entriesSkipsSymbols', function () { var o = { a: 1 }; o[Symbol('s')] = 2; return Object.entries(o); });
t('entriesOfArray', function () { return Object.entries(['x', , 'z']); });
t('entriesOfString', function () { return [Object.entries('ab'), Object.values('ab')]; });
t('entriesOfPrimitives', function () { return [Object.entries(5), Object.values(true)]; });
t('entriesNull', function () { return Object.entries(null); });
t('valuesUndefined', function () { return Object.values(undefined); });
t('entriesGetterCalled', function () {
    var n = 0, o = {};
    Object.defineProperty(o, 'g', { get: function () { n++; return 'got'; }, enumerable: true });
    return [Object.entries(o), n];
});
t('fromEntriesArray', function () { return Object.fromEntries([['a', 1], ['b', 2], ['a', 3]]); });
t('fromEntriesMap', function () { return Object.fromEntries(new Map([['x', 1], ['y', [2]]])); });
t('fromEntriesRoundTrip', function () {
    var o = { a: 1, b: 2 };
    return Object.fromEntries(Object.entries(o).map(function (e) { return [e[0].toUpperCase(), e[1] * 10]; }));
});
t('fromEntriesKeyCoercion', function () {
    var r = Object.fromEntries([[1, 'one'], [null, 'n'], [undefined, 'u'], [{ toString: function () { return 'obj'; } }, 'o']]);
    return [Object.keys(r).sort(), r[1], r['null'], r['undefined'], r.obj];
});
t('fromEntriesSymbolKey', function () {
    var s = Symbol('k'), r = Object.fromEntries([[s, 1]]);
    return [r[s], Object.keys(r).length];
});
t('fromEntriesProtoKey', function () {
    var r = Object.fromEntries([['__proto__', { polluted: true }]]);
    return [Object.keys(r), Object.getPrototypeOf(r) === Object.prototype, r.polluted, ({}).polluted];
});
t('fromEntriesNotEntry', function () { return Object.fromEntries([1]); });
t('fromEntriesNull', function () { return Object.fromEntries(null); });
t('fromEntriesStringEntries', function () { return Object.fromEntries(['ab', 'cd']); });
t('fromEntriesIterableOfIterables', function () {
    var e = {};
    e[Symbol.iterator] = function () { return [['k', 'v']][Symbol.iterator](); };
    return Object.fromEntries(e);
});
t('hasOwn', function () {
    var o = Object.create({ inh: 1 });
    o.own = undefined;
    return [Object.hasOwn(o, 'own'), Object.hasOwn(o, 'inh'), Object.hasOwn(o, 'none'), Object.hasOwn([1], 0),
            Object.hasOwn([1], 'length'), Object.hasOwn('abc', 1), Object.hasOwn(Object.create(null), 'x')];
});
t('hasOwnWithOverriddenHasOwnProperty', function () {
    var o = { hasOwnProperty: function () { return 'fake'; }, a: 1 };
    return [Object.hasOwn(o, 'a'), Object.hasOwn(o, 'b')];
});
t('hasOwnNull', function () { return Object.hasOwn(null, 'a'); });
t('hasOwnSymbol', function () { var s = Symbol(); var o = {}; o[s] = 1; return [Object.hasOwn(o, s), Object.hasOwn({}, s)]; });
t('getOwnPropertyDescriptors', function () {
    var s = Symbol('s'), o = { a: 1 };
    Object.defineProperty(o, 'b', { value: 2, writable: false, enumerable: false, configurable: true });
    Object.defineProperty(o, 'c', { get: function () { return 3; }, enumerable: true, configurable: false });
    o[s] = 4;
    var d = Object.getOwnPropertyDescriptors(o);
    return [Object.keys(d), d.a, d.b, typeof d.c.get, d.c.set, d.c.enumerable, d.c.configurable, d[s].value];
});
t('descriptorsShallowCopy', function () {
    var src = { x: 1 };
    Object.defineProperty(src, 'g', { get: function () { return this.x * 2; }, enumerable: true });
    var copy = Object.create(Object.getPrototypeOf(src), Object.getOwnPropertyDescriptors(src));
    copy.x = 5;
    return [copy.g, src.g];
});
t('descriptorsOfArray', function () {
    var d = Object.getOwnPropertyDescriptors(['a']);
    return [Object.keys(d), d.length.writable, d.length.enumerable];
});
t('names', function () {
    return [Object.entries.name, Object.fromEntries.length, Object.hasOwn.length, Object.values.length];
});
t('methodsNotEnumerable', function () { var r = []; for (var k in Object) r.push(k); return r; });
t('symbolDescription', function () {
    return [Symbol('x').description, Symbol.for('k').description, Symbol.iterator.description, Symbol('a b').description,
            Object(Symbol('w')).description];
});
return __out;
