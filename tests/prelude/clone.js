/* structuredClone of JSON-like data, Date, RegExp, Map, Set, errors;
 * cycles and shared references; DataCloneError for what cannot be cloned. */
t('primitives', function () {
    return [structuredClone(1), structuredClone('s'), structuredClone(null), structuredClone(undefined), structuredClone(true),
            structuredClone(NaN), 1 / structuredClone(-0)];
});
t('plainObjectDeep', function () {
    var a = { x: { y: [1, { z: 2 }] }, s: 'str' }, c = structuredClone(a);
    return [c, c !== a, c.x !== a.x, c.x.y !== a.x.y, c.x.y[1] !== a.x.y[1]];
});
t('keyOrder', function () { return Object.keys(structuredClone({ b: 1, 2: 2, a: 3, 1: 4 })); });
t('cycle', function () {
    var a = { name: 'a' };
    a.self = a;
    a.list = [a];
    var c = structuredClone(a);
    return [c.self === c, c.list[0] === c, c !== a, c.name];
});
t('sharedReferences', function () {
    var shared = { n: 1 }, a = { p: shared, q: shared }, c = structuredClone(a);
    return [c.p === c.q, c.p !== shared];
});
t('arrayHolesAndProps', function () {
    var arr = [1, , 3];
    arr.extra = 'x';
    var c = structuredClone(arr);
    return [c, c.length, 1 in c, c.extra, Array.isArray(c)];
});
t('arrayLength', function () { var a = []; a.length = 5; a[1] = 'x'; var c = structuredClone(a); return [c.length, Object.keys(c)]; });
t('date', function () {
    var d = new Date(Date.UTC(2020, 1, 29, 12)), c = structuredClone(d);
    return [c instanceof Date, c.getTime() === d.getTime(), c !== d, c.toISOString()];
});
t('invalidDate', function () { return isNaN(structuredClone(new Date(NaN)).getTime()); });
t('regexp', function () {
    var r = /ab+c/gi;
    r.lastIndex = 3;
    var c = structuredClone(r);
    return [c instanceof RegExp, c.source, c.global, c.ignoreCase, c.multiline, c.lastIndex, c !== r];
});
t('map', function () {
    var k = { key: 1 }, m = new Map([[k, { v: 1 }], ['s', [1, 2]]]), c = structuredClone(m);
    var keys = Array.from(c.keys());
    return [c instanceof Map, c.size, keys[0] !== k, keys[0].key, c.get('s'), c.get(keys[0]).v];
});
t('set', function () {
    var o = { a: 1 }, s = new Set([1, 'x', o]), c = structuredClone(s);
    var vals = Array.from(c);
    return [c instanceof Set, c.size, vals[0], vals[1], vals[2].a, vals[2] !== o, c.has(o)];
});
t('mapWithCycle', function () {
    var m = new Map();
    m.set('me', m);
    var c = structuredClone(m);
    return [c.get('me') === c, c !== m];
});
t('nestedInsideMapAndObject', function () {
    var o = { m: new Map([[1, new Set([2])]]) }, c = structuredClone(o);
    return [c.m.get(1).has(2), c.m instanceof Map];
});
t('boxedPrimitives', function () {
    var c = [structuredClone(new Number(3)), structuredClone(new String('s')), structuredClone(new Boolean(false))];
    return c.map(function (x) { return [typeof x, x.valueOf(), Object.prototype.toString.call(x)]; });
});
t('classInstanceBecomesPlain', function () {
    function P() { this.a = 1; }
    P.prototype.method = function () {};
    var c = structuredClone(new P());
    return [c instanceof P, Object.getPrototypeOf(c) === Object.prototype, c.a, typeof c.method];
});
t('gettersInvokedNonEnumerableDropped', function () {
    var o = { get x() { return 7; } };
    Object.defineProperty(o, 'hidden', { value: 1, enumerable: false });
    var c = structuredClone(o), d = Object.getOwnPropertyDescriptor(c, 'x');
    return [d.value, typeof d.get, 'hidden' in c];
});
t('symbolKeysDropped', function () { var o = { a: 1 }; o[Symbol('s')] = 2; return Object.getOwnPropertySymbols(structuredClone(o)).length; });
t('nullPrototypeObject', function () {
    var o = Object.create(null);
    o.a = 1;
    var c = structuredClone(o);
    return [c.a, Object.getPrototypeOf(c) === Object.prototype];
});
t('errors', function () {
    var e = new TypeError('bad', { cause: { why: 'x' } });
    e.extra = 1;
    var c = structuredClone(e);
    return [c instanceof TypeError, c.name, c.message, c.cause, c.extra, c !== e];
});
t('errorCustomNameBecomesError', function () {
    var e = new RangeError('r');
    e.name = 'Custom';
    var c = structuredClone(e);
    return [c instanceof RangeError, c instanceof Error, c.name, c.message];
});
t('functionThrows', function () { return structuredClone(function () {}); });
t('functionNestedThrows', function () { return structuredClone({ a: [1, { f: function () {} }] }); });
t('symbolThrows', function () { return structuredClone(Symbol('s')); });
t('weakMapThrows', function () { return structuredClone(new WeakMap()); });
t('promiseThrows', function () { return structuredClone(Promise.resolve(1)); });
t('dataCloneErrorShape', function () {
    try { structuredClone({ f: function () {} }); } catch (e) {
        return [e.name, e.code, e instanceof Error, typeof e.message];
    }
});
t('noArgument', function () { return structuredClone(); });
t('typedArrays', function () {
    var u = new Uint8Array([1, 2, 3]), c = structuredClone(u);
    c[0] = 9;
    return [Array.from(c), Array.from(u), c instanceof Uint8Array, c.length];
});
t('jsonEquivalence', function () {
    var data = { users: [{ id: 1, tags: ['a', 'b'], meta: { active: true, score: 1.5, none: null } }], total: 1 };
    return JSON.stringify(structuredClone(data)) === JSON.stringify(data);
});
t('deepNesting', function () {
    var root = {}, cur = root;
    for (var i = 0; i < 200; i++) { cur.next = { i: i }; cur = cur.next; }
    var c = structuredClone(root), n = 0;
    while (c.next) { c = c.next; n++; }
    return [n, c.i];
});
return __out;
