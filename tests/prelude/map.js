/* Map: SameValueZero keys, insertion order, iteration, live iterators. */
function entries(m) { var out = []; m.forEach(function (v, k) { out.push([k, v]); }); return out; }
function drain(it) { var out = [], s; while (!(s = it.next()).done) out.push(s.value); return out; }

t('basicSetGet', function () {
    var m = new Map();
    m.set('a', 1).set('b', 2);
    return [m.get('a'), m.get('b'), m.get('c'), m.size, m.has('a'), m.has('c')];
});
t('ctorFromEntries', function () { return entries(new Map([['x', 1], ['y', 2], ['x', 3]])); });
t('ctorNullUndefined', function () { return [new Map(null).size, new Map(undefined).size, new Map().size]; });
t('nanKey', function () {
    var m = new Map([[NaN, 'first']]);
    m.set(NaN, 'second');
    return [m.size, m.get(NaN), m.has(NaN), m.get(0 / 0)];
});
t('negativeZeroKey', function () {
    var m = new Map();
    m.set(-0, 'z');
    var k = m.keys().next().value;
    return [m.get(0), m.get(-0), m.has(+0), 1 / k, m.size];
});
t('numberVsString', function () {
    var m = new Map([[1, 'num'], ['1', 'str'], [true, 'bool'], ['true', 'strbool']]);
    return [m.size, m.get(1), m.get('1'), m.get(true), m.get('true')];
});
t('nullUndefinedKeys', function () {
    var m = new Map([[null, 'n'], [undefined, 'u'], ['null', 's'], ['undefined', 'su']]);
    return [m.size, m.get(null), m.get(undefined), m.get('null'), m.get('undefined'), m.get()];
});
t('objectKeysByIdentity', function () {
    var a = {}, b = {}, f = function () {}, arr = [];
    var m = new Map([[a, 1], [b, 2], [f, 3], [arr, 4]]);
    return [m.get(a), m.get(b), m.get(f), m.get(arr), m.get({}), m.get([]), m.size];
});
t('frozenObjectKeys', function () {
    var a = Object.freeze({ x: 1 }), b = Object.seal({}), c = Object.preventExtensions([]);
    var m = new Map([[a, 'a'], [b, 'b'], [c, 'c']]);
    m.set(a, 'a2');
    var r = [m.get(a), m.get(b), m.get(c), m.size, m.has(Object.freeze({}))];
    m['delete'](b);
    r.push(m.has(b), m.size, m.get(c));
    return r;
});
t('symbolKeys', function () {
    var s1 = Symbol('a'), s2 = Symbol('a');
    var m = new Map([[s1, 1], [s2, 2]]);
    return [m.get(s1), m.get(s2), m.size, m.has(Symbol('a'))];
});
t('insertionOrderMixed', function () {
    var o = {};
    var m = new Map();
    m.set('b', 1); m.set(2, 2); m.set(o, 3); m.set('a', 4); m.set(1, 5); m.set(null, 6);
    m.set('b', 7);
    var ks = [];
    m.forEach(function (v, k) { ks.push(k === o ? 'obj' : k); });
    return ks;
});
t('deleteAndReinsertMovesToEnd', function () {
    var m = new Map([['a', 1], ['b', 2], ['c', 3]]);
    var d1 = m['delete']('a'), d2 = m['delete']('zz');
    m.set('a', 9);
    return [d1, d2, entries(m)];
});
t('clear', function () {
    var m = new Map([[1, 1], [2, 2]]);
    var r = m.clear();
    m.set(3, 3);
    return [r, m.size, entries(m)];
});
t('keysValuesEntries', function () {
    var m = new Map([['a', 1], ['b', 2]]);
    return [drain(m.keys()), drain(m.values()), drain(m.entries()), drain(m[Symbol.iterator]())];
});
t('iteratorIdentity', function () {
    return [Map.prototype[Symbol.iterator] === Map.prototype.entries,
            typeof new Map().keys()[Symbol.iterator],
            new Map().keys()[Symbol.iterator]() !== undefined];
});
t('iteratorSeesAddsDuringIteration', function () {
    var m = new Map([[1, 1]]), seen = [], it = m.keys(), s;
    while (!(s = it.next()).done) { seen.push(s.value); if (s.value < 4) m.set(s.value + 1, 0); }
    return seen;
});
t('iteratorSkipsDeletedAhead', function () {
    var m = new Map([[1, 1], [2, 2], [3, 3], [4, 4]]), seen = [], it = m.keys(), s;
    while (!(s = it.next()).done) { seen.push(s.value); if (s.value === 1) m['delete'](3); }
    return seen;
});
t('iteratorSurvivesManyDeletes', function () {
    var m = new Map(), i;
    for (i = 0; i < 100; i++) m.set(i, i);
    var it = m.keys(), seen = [];
    seen.push(it.next().value, it.next().value);
    for (i = 0; i < 90; i++) m['delete'](i);
    var s;
    while (!(s = it.next()).done) seen.push(s.value);
    return [seen, m.size];
});
t('iteratorAfterClear', function () {
    var m = new Map([[1, 1], [2, 2]]), it = m.keys();
    var first = it.next().value;
    m.clear();
    m.set(5, 5);
    return [first, drain(it)];
});
t('finishedIteratorStaysDone', function () {
    var m = new Map([[1, 1]]), it = m.keys();
    it.next(); it.next();
    m.set(2, 2);
    return it.next();
});
t('forEachArgsAndThis', function () {
    var m = new Map([['k', 'v']]), ctx = { tag: 'ctx' }, got;
    m.forEach(function (v, k, map) { got = [v, k, map === m, this.tag]; }, ctx);
    return got;
});
t('forEachDeleteDuring', function () {
    var m = new Map([[1, 'a'], [2, 'b'], [3, 'c']]), seen = [];
    m.forEach(function (v, k) { seen.push(k); if (k === 1) m['delete'](2); });
    return seen;
});
t('churnKeepsOrder', function () {
    var m = new Map(), i;
    for (i = 0; i < 1000; i++) { m.set('k' + i, i); if (i >= 10) m['delete']('k' + (i - 10)); }
    var ks = [];
    m.forEach(function (v, k) { ks.push(k); });
    return [m.size, ks];
});
t('setReturnsMap', function () { var m = new Map(); return m.set(1, 2) === m; });
t('requiresNew', function () { return Map(); });
t('incompatibleReceiver', function () { return Map.prototype.get.call({}, 1); });
t('ctorNonIterable', function () { return new Map(5); });
t('ctorNonEntry', function () { return new Map([1, 2]); });
t('ctorUsesOverriddenSet', function () {
    var orig = Map.prototype.set, calls = [], m;
    Map.prototype.set = function (k, v) { calls.push(k); return orig.call(this, k, v); };
    try { m = new Map([[1, 1], [2, 2]]); } finally { Map.prototype.set = orig; }
    return [calls, m.size];
});
t('sizeGetter', function () {
    var d = Object.getOwnPropertyDescriptor(Map.prototype, 'size');
    return [typeof d.get, d.set, d.enumerable, d.configurable];
});
t('toStringTag', function () {
    return [Object.prototype.toString.call(new Map()), String(new Map()), Object.prototype.toString.call(new Map().entries())];
});
t('jsonOfMap', function () { return JSON.stringify(new Map([[1, 2]])); });
t('noVisibleState', function () {
    var m = new Map([[1, 2]]), k = {};
    m.set(k, 1);
    return [Object.keys(m), Object.getOwnPropertyNames(m), Object.getOwnPropertySymbols(m).length,
            Object.getOwnPropertyNames(k), Object.getOwnPropertySymbols(k).length, JSON.stringify(k)];
});
t('lengthAndName', function () { return [Map.length, Map.name, Map.prototype.set.length, Map.prototype.constructor === Map]; });
t('mapAsKeyOfMap', function () {
    var inner = new Map([[1, 1]]), outer = new Map([[inner, 'x']]);
    inner.set(2, 2);
    return [outer.get(inner), inner.size, outer.size];
});
t('spreadLikeArrayFrom', function () { return Array.from(new Map([[1, 'a'], [2, 'b']]).values()); });
t('largeMap', function () {
    var m = new Map(), i, sum = 0;
    for (i = 0; i < 5000; i++) m.set(i % 2 ? 'k' + i : i, i);
    for (i = 0; i < 5000; i++) sum += m.get(i % 2 ? 'k' + i : i);
    return [m.size, sum];
});
t('proxyKeys', function () {
    var log = [], traps = {};
    ['get', 'set', 'has', 'deleteProperty', 'defineProperty', 'getOwnPropertyDescriptor', 'ownKeys'].forEach(function (n) {
        traps[n] = function (t, k) { log.push(n); return Reflect[n].apply(null, arguments); };
    });
    var target = {}, p = new Proxy(target, traps), other = {}, q = new Proxy(other, traps);
    var m = new Map([[target, 'target'], [p, 'proxy']]);
    m.set(q, 'q'); m.set(other, 'other');
    var wm = new WeakMap([[p, 'wp'], [target, 'wt']]);
    var r = [m.get(p), m.get(target), m.get(q), m.get(other), m.size, wm.get(p), wm.get(target), log.length];
    m['delete'](p);
    r.push(m.has(p), m.get(target), m.size);
    return r;
});
t('prototypePollutionIgnored', function () {
    Object.prototype.id = 5; Object.prototype.w = {}; Object.prototype.type = 'Map'; Object.prototype.o = 1;
    try {
        var a = {}, b = {}, m = new Map([[a, 1], [b, 2]]), wm = new WeakMap([[a, 'wa']]);
        return [m.get(a), m.get(b), m.size, wm.get(a), wm.has(b), Array.from(new Set([a, b, a])).length];
    } finally { delete Object.prototype.id; delete Object.prototype.w; delete Object.prototype.type; delete Object.prototype.o; }
});
t('promiseAsKey', function () {
    var p = Promise.resolve(1), q = new Promise(function () {}), m = new Map([[p, 'p'], [q, 'q']]);
    return [m.get(p), m.get(q), m.size];
});
t('iteratorAsKey', function () {
    var it = [1, 2].values(), m = new Map([[it, 'it']]);
    return [m.get(it), it.next().value, it.next().value];
});
return __out;
