/* Property writes, which replace an own writable data property's value in
 * place (sandbox/duktape/patches/0022-plain-property-writes.patch) and take
 * the generic path otherwise: read-only and accessor properties, own or
 * inherited, frozen and sealed objects, arrays, functions, proxies, and values
 * that the old value's release must not disturb. */
function strictErr(f) { 'use strict'; try { f(); return 'no error'; } catch (e) { return e.name; } }
t('ownWritable', function () {
    var o = { a: 1, b: { deep: true } };
    o.a = 2; o.a += 3; o.b = null; o.c = 'new';
    return [o.a, o.b, o.c, Object.keys(o)];
});
t('readOnlyOwn', function () {
    'use strict';
    var o = {};
    Object.defineProperty(o, 'r', { value: 1, writable: false, enumerable: true });
    return [strictErr(function () { o.r = 2; }), o.r];
});
t('setterOwnAndInherited', function () {
    var log = [], proto = { set s(v) { log.push('proto ' + v + ' on ' + this.id); } };
    var o = Object.create(proto);
    o.id = 'o';
    Object.defineProperty(o, 'own', { set: function (v) { log.push('own ' + v); }, get: function () { return 'g'; } });
    o.s = 1; o.own = 2; o.s = 3;
    return [log, o.hasOwnProperty('s'), o.own];
});
t('readOnlyInheritedBlocksCreation', function () {
    var proto = Object.freeze({ x: 'proto' }), o = Object.create(proto);
    var r = strictErr(function () { o.x = 'child'; });
    return [r, o.x, o.hasOwnProperty('x')];
});
t('getterOnlyAccessorWrite', function () {
    var o = { get g() { return 1; } };
    return [strictErr(function () { o.g = 2; }), o.g];
});
t('frozenAndSealed', function () {
    var f = Object.freeze({ a: 1 }), s = Object.seal({ a: 1 }), n = Object.preventExtensions({ a: 1 });
    s.a = 2; n.a = 3;
    return [strictErr(function () { f.a = 9; }), f.a, s.a, n.a, strictErr(function () { n.b = 1; }), n.b];
});
t('arraysAndFunctions', function () {
    var a = [1, 2, 3];
    a.tag = 't'; a.tag = 'u'; a.length = 1;
    function fn() {}
    fn.meta = 1; fn.meta = 2;
    return [a, a.length, a.tag, fn.meta, strictErr(function () { fn.name = 'x'; }), fn.name];
});
t('proxySetTrap', function () {
    var seen = [], p = new Proxy({ v: 1 }, { set: function (t, k, v) { seen.push(k + '=' + v); t[k] = v * 10; return true; } });
    p.v = 2; p.w = 3;
    return [seen, p.v, p.w];
});
t('classFieldsUpdated', function () {
    class Counter { count = 0; total = 0; add(n) { this.count++; this.total += n; return this; } }
    var c = new Counter().add(2).add(5);
    return [c.count, c.total, Object.keys(c)];
});
t('overwriteReleasesOldValue', function () {
    var o = { held: { big: new Array(1000).fill('x') } };
    for (var i = 0; i < 200; i++) o.held = { big: new Array(100).fill(i) };
    return [o.held.big.length, o.held.big[0]];
});
t('globalThisWrites', function () {
    globalThis.zzGlobal = 1;
    globalThis.zzGlobal = 2;
    var r = [zzGlobal, typeof globalThis.zzGlobal];
    delete globalThis.zzGlobal;
    return r;
});
return __out;
