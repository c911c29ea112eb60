/* Property reads, which take a direct path through the prototype chain's own
 * entries for plain data properties
 * (sandbox/duktape/patches/0021-plain-property-reads.patch) and the generic
 * one for accessors, proxies, indices, length, and string/arguments/typed-array
 * objects: each kind, at each depth, shadowed or not. */
t('ownAndInherited', function () {
    var base = { a: 1, shared: 'base' }, mid = Object.create(base), top = Object.create(mid);
    mid.b = 2;
    top.c = 3;
    mid.shared = 'mid';
    return [top.a, top.b, top.c, top.shared, top.missing, 'a' in top, top.hasOwnProperty('a')];
});
t('getterOnPrototypeSeesReceiver', function () {
    var proto = { get who() { return this.name; } }, o = Object.create(proto);
    o.name = 'child';
    var calls = 0, p2 = {};
    Object.defineProperty(p2, 'g', { get: function () { calls++; return calls; } });
    var o2 = Object.create(p2);
    return [o.who, o2.g, o2.g, calls];
});
t('accessorShadowsDataFurtherUp', function () {
    var far = { x: 'far data' }, near = Object.create(far), o = Object.create(near);
    Object.defineProperty(near, 'x', { get: function () { return 'near getter'; } });
    var setterOnly = Object.create({ x: 'not this' });
    Object.defineProperty(setterOnly, 'x', { set: function () {} });
    return [o.x, setterOnly.x];
});
t('userGetterOnObjectPrototype', function () {
    Object.defineProperty(Object.prototype, 'zzExtra', { get: function () { return 'from ' + typeof this; }, configurable: true });
    try { return [({}).zzExtra, [].zzExtra, (function () {}).zzExtra, Object.create(null).zzExtra]; }
    finally { delete Object.prototype.zzExtra; }
});
/* A proxy as a prototype: Duktape runs no trap for inherited reads
 * (docs/javascript.md), so only the proxy's own reads are compared. */
t('proxyInChain', function () {
    var p = new Proxy({ t: 'target' }, { get: function (t, k) { return 'trap:' + String(k); } });
    var o = Object.create(p);
    o.own = 'own';
    return [o.own, p.direct, p.t];
});
t('arraysAndIndices', function () {
    var a = [10, 20, 30];
    a.extra = 'x';
    var sub = Object.create(a);
    return [a.length, a[1], a['2'], a.extra, a.map === Array.prototype.map, sub.length, sub[0], sub.extra, a[5], a['01']];
});
t('functionsNameLengthCaller', function () {
    function f(a, b) {}
    f.custom = 1;
    var bound = f.bind(null, 1);
    return [f.name, f.length, f.custom, typeof f.call, bound.name, bound.length, 'prototype' in f, typeof f.prototype.constructor];
});
t('stringsArgumentsTypedArrays', function () {
    var so = new String('abc');
    so.extra = 'e';
    var args = (function () { return arguments; })('p', 'q');
    var u = new Uint8Array([1, 2, 3]);
    return [so.length, so[1], so.extra, args.length, args[0], u.length, u[2], u.byteLength, typeof u.subarray, 'abc'.length, 'abc'.toUpperCase()];
});
t('deletedAndReadded', function () {
    var o = { a: 1, b: 2, c: 3 };
    delete o.b;
    var r1 = o.b;
    Object.getPrototypeOf(o).b = 'proto';
    var r2 = o.b;
    delete Object.prototype.b;
    o.b = 'again';
    return [r1, r2, o.b, Object.keys(o)];
});
t('nullPrototypeAndPrimitives', function () {
    var n = Object.create(null);
    n.k = 'v';
    return [n.k, n.toString, (5).toFixed(1), true.toString(), typeof Symbol('s').description];
});
t('hiddenByNonEnumerableAndFrozen', function () {
    var o = Object.freeze({ a: 1 }), p = Object.create(o);
    Object.defineProperty(p, 'h', { value: 'hidden', enumerable: false });
    return [p.a, p.h, Object.keys(p)];
});
t('classesStaticsAndSuper', function () {
    class A { static s() { return 'A.s'; } m() { return 'A.m'; } get g() { return 'A.g'; } }
    class B extends A { m() { return 'B.m>' + super.m(); } }
    var b = new B();
    return [B.s(), b.m(), b.g, B.name, typeof B.prototype.m, b.constructor === B];
});
t('mapAndSetSize', function () {
    var m = new Map([[1, 2]]), s = new Set([1, 2, 3]);
    return [m.size, s.size, typeof m.get, Object.getPrototypeOf(m) === Map.prototype];
});
t('manyPropertiesHashed', function () {
    var o = {};
    for (var i = 0; i < 40; i++) o['k' + i] = i;
    var c = Object.create(o);
    return [o.k0, o.k39, c.k20, c.k40, o.hasOwnProperty('k7')];
});
return __out;
