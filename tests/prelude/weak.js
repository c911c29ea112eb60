/* WeakMap and WeakSet. */
t('weakMapBasic', function () {
    var k1 = {}, k2 = function () {}, wm = new WeakMap([[k1, 'a']]);
    wm.set(k2, 'b');
    return [wm.get(k1), wm.get(k2), wm.has(k1), wm.has({}), wm.get({})];
});
t('weakMapDelete', function () {
    var k = {}, wm = new WeakMap();
    wm.set(k, 1);
    return [wm['delete'](k), wm['delete'](k), wm.has(k), wm.get(k)];
});
t('weakMapPrimitiveKey', function () { return new WeakMap().set('x', 1); });
t('weakMapPrimitiveLookups', function () {
    var wm = new WeakMap();
    return [wm.get(1), wm.has('x'), wm['delete'](null)];
});
t('weakMapFrozenKey', function () {
    var k = Object.freeze({}), wm = new WeakMap();
    wm.set(k, 5);
    var r = [wm.get(k), wm.has(k)];
    wm.set(k, 6);
    r.push(wm.get(k), wm['delete'](k), wm.has(k));
    return r;
});
t('twoWeakMapsSameKey', function () {
    var k = {}, a = new WeakMap(), b = new WeakMap();
    a.set(k, 'a'); b.set(k, 'b');
    a['delete'](k);
    return [a.has(k), b.get(k)];
});
t('weakMapNoIteration', function () {
    return [typeof WeakMap.prototype.forEach, typeof WeakMap.prototype.size, typeof WeakMap.prototype[Symbol.iterator]];
});
t('weakSetBasic', function () {
    var a = {}, b = [], ws = new WeakSet([a]);
    ws.add(b);
    return [ws.has(a), ws.has(b), ws.has({}), ws['delete'](a), ws.has(a), ws.add(a) === ws];
});
t('weakSetPrimitive', function () { return new WeakSet().add(1); });
t('weakKeyIsAlsoMapKey', function () {
    var k = {}, wm = new WeakMap(), m = new Map();
    wm.set(k, 'w'); m.set(k, 'm');
    return [wm.get(k), m.get(k), Object.getOwnPropertyNames(k).length];
});
t('weakMapValueUndefined', function () {
    var k = {}, wm = new WeakMap();
    wm.set(k, undefined);
    return [wm.has(k), wm.get(k)];
});
t('weakTags', function () {
    return [Object.prototype.toString.call(new WeakMap()), Object.prototype.toString.call(new WeakSet())];
});
t('weakRequiresNew', function () { return WeakMap(); });
t('weakIncompatible', function () { return WeakMap.prototype.get.call(new Map(), {}); });
return __out;
