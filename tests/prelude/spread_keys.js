/* Object spread and Object.keys, which take a native fast path for plain
 * objects (sandbox/duktape/fastpaths.inc) and the generic one otherwise: key
 * order, overrides, accessors, symbols, holes left by delete, index keys,
 * hash-sized objects, and every kind of source that must not take the fast
 * path. Keys are returned as arrays so that their order is compared. */
function keysAndValues(o) { return [Object.keys(o), Object.keys(o).map(function (k) { return o[k]; })]; }
t('spreadOrder', function () { return keysAndValues({ ...{ b: 1, a: 2 }, c: 3 }); });
t('spreadOverridesEarlier', function () { return keysAndValues({ a: 0, z: 0, ...{ a: 1, b: 2 } }); });
t('laterOverridesSpread', function () { return keysAndValues({ ...{ a: 1, b: 2 }, a: 9 }); });
t('twoSpreads', function () { return keysAndValues({ ...{ a: 1, b: 2 }, ...{ b: 3, c: 4 } }); });
t('spreadIndexKeys', function () { return keysAndValues({ ...{ b: 1, 2: 'x', 1: 'y', a: 0 } }); });
t('spreadGetterCalledOnce', function () {
    var n = 0, src = { a: 1 };
    Object.defineProperty(src, 'g', { get: function () { n++; return 'got' + n; }, enumerable: true });
    var r = { ...src };
    return [keysAndValues(r), n, typeof Object.getOwnPropertyDescriptor(r, 'g').get];
});
t('spreadSkipsNonEnumerableAndInherited', function () {
    var src = Object.create({ inherited: 1 });
    src.own = 2;
    Object.defineProperty(src, 'hidden', { value: 3, enumerable: false });
    return keysAndValues({ ...src });
});
t('spreadSymbols', function () {
    var s = Symbol('s'), h = Symbol('h'), src = { a: 1 };
    src[s] = 2;
    Object.defineProperty(src, h, { value: 3, enumerable: false });
    var r = { ...src };
    return [Object.keys(r), r[s], h in r, Object.getOwnPropertySymbols(r).length];
});
t('spreadPrimitivesAndNull', function () {
    return [{ ...null }, { ...undefined }, { ...5 }, { ...true }, keysAndValues({ ...'ab' })];
});
t('spreadArray', function () { return keysAndValues({ ...['x', 'y'], n: 1 }); });
t('spreadOwnProtoKey', function () {
    var src = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    var r = { ...src };
    return [Object.keys(r), Object.getPrototypeOf(r) === Object.prototype, r.polluted === undefined,
            ({}).polluted === undefined];
});
t('spreadReplacesLiteralAccessor', function () {
    var r = { get a() { return 'getter'; }, ...{ a: 2 } };
    var d = Object.getOwnPropertyDescriptor(r, 'a');
    return [d.value, d.writable, d.enumerable, d.configurable, typeof d.get];
});
t('spreadAfterDelete', function () {
    var o = { a: 1, b: 2, c: 3 };
    delete o.b;
    o.d = 4;
    o.b = 5;
    return [keysAndValues(o), keysAndValues({ ...o })];
});
t('spreadFrozenIsWritable', function () {
    var r = { ...Object.freeze({ a: 1 }) };
    r.a = 2;
    return [r.a, Object.isFrozen(r), Object.getOwnPropertyDescriptor(r, 'a').writable];
});
t('spreadClassInstance', function () {
    class P { constructor() { this.x = 1; this.y = 2; } get sum() { return this.x + this.y; } }
    var r = { ...new P() };
    return [keysAndValues(r), 'sum' in r];
});
t('spreadMapAndProxy', function () {
    var m = new Map([['a', 1]]);
    var p = new Proxy({ a: 1, b: 2 }, { get: function (t, k) { return k === 'a' ? 'trapped' : t[k]; } });
    return [keysAndValues({ ...m }), keysAndValues({ ...p })];
});
t('spreadLarge', function () {
    var src = {};
    for (var i = 0; i < 40; i++) src['k' + i] = i;
    var r = { first: true, ...src, last: true };
    return [Object.keys(r).length, Object.keys(r)[0], Object.keys(r)[1], Object.keys(r)[41], r.k39];
});
t('spreadNullPrototype', function () {
    var src = Object.create(null);
    src.b = 1;
    src.a = 2;
    return keysAndValues({ ...src });
});
t('spreadIntoSpreadResultIsIndependent', function () {
    var src = { a: { deep: 1 } }, r = { ...src };
    r.a.deep = 2;
    r.b = 3;
    return [src.a.deep, 'b' in src];
});
t('keysOrder', function () { return Object.keys({ b: 1, 2: 'two', a: 2, 1: 'one', c: 0 }); });
t('keysAfterDeleteAndReAdd', function () {
    var o = { a: 1, b: 2, c: 3 };
    delete o.a;
    o.a = 4;
    return Object.keys(o);
});
t('keysSkipsNonEnumerableSymbolsInherited', function () {
    var o = Object.create({ inherited: 1 });
    o.x = 1;
    o[Symbol('s')] = 2;
    Object.defineProperty(o, 'hidden', { value: 3, enumerable: false });
    Object.defineProperty(o, 'acc', { get: function () { throw new Error('must not be called'); }, enumerable: true });
    return Object.keys(o);
});
t('keysHashSized', function () {
    var o = {};
    for (var i = 0; i < 30; i++) o['p' + (29 - i)] = i;
    delete o.p10;
    var k = Object.keys(o);
    return [k.length, k[0], k[19], k[28]];
});
t('keysOfArrayStringArgumentsFunction', function () {
    var args = (function () { return arguments; })('a', 'b');
    function f(a, b) {}
    f.extra = 1;
    return [Object.keys(['x', , 'z']), Object.keys('hi'), Object.keys(args), Object.keys(f)];
});
t('keysResultIsFreshArray', function () {
    var o = { a: 1, b: 2 }, k1 = Object.keys(o), k2 = Object.keys(o);
    k1.push('c');
    return [k1 !== k2, k2.length, Array.isArray(k2), Object.keys({}).length];
});
t('keysNonObjects', function () {
    var r = [Object.keys(5), Object.keys(true)];
    try { Object.keys(null); r.push('no throw'); } catch (e) { r.push(e.name); }
    return r;
});
return __out;
