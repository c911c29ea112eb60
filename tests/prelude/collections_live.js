/* Map and Set: live iterators across deletes, additions, clear() and the
 * table's compactions; key identity (NaN, -0, objects, symbols, frozen and
 * proxy keys); large tables; receivers and errors. */
function drain(it) { var out = [], s; while (!(s = it.next()).done) out.push(s.value); return out; }
function range(n, f) { var out = []; for (var i = 0; i < n; i++) out.push(f(i)); return out; }

t('deleteAheadAndBehind', function () {
    var m = new Map(range(10, function (i) { return [i, 'v' + i]; })), out = [];
    m.forEach(function (v, k) { out.push(k); if (k === 2) { m.delete(1); m.delete(5); m.delete(2); } });
    return [out, m.size];
});
t('addDuringIteration', function () {
    var s = new Set([1, 2, 3]), it = s.values(), out = [], v;
    while (!(v = it.next()).done) { out.push(v.value); if (v.value < 6) s.add(v.value + 3); }
    return out;
});
t('readdDeletedGoesLast', function () {
    var m = new Map([['a', 1], ['b', 2], ['c', 3]]), it = m.keys();
    var first = it.next().value;
    m.delete('a'); m.set('a', 9);
    return [first, drain(it), Array.from(m)];
});
t('clearDuringIteration', function () {
    var m = new Map([[1, 1], [2, 2], [3, 3]]), it = m.entries(), a = it.next().value;
    m.clear(); m.set('x', 'y');
    return [a, drain(it), m.size];
});
t('clearThenEmptyStaysDone', function () {
    var s = new Set([1]), it = s.values();
    s.clear();
    var r1 = it.next();
    s.add(2);
    return [r1.done, it.next().done, s.size];
});
t('compactionUnderIterators', function () {
    var m = new Map(), its = [], out = [];
    for (var i = 0; i < 400; i++) m.set('k' + i, i);
    for (var j = 0; j < 8; j++) { var it = m.values(); for (var n = 0; n < j * 37; n++) it.next(); its.push(it); }
    for (i = 0; i < 400; i += 1) if (i % 5 !== 0) m.delete('k' + i);
    for (i = 0; i < 50; i++) m.set('n' + i, 1000 + i);
    for (i = 0; i < 400; i += 10) m.delete('k' + i);
    for (j = 0; j < its.length; j++) out.push(drain(its[j]).join());
    return [out, m.size];
});
t('compactionInForEach', function () {
    var s = new Set(range(300, function (i) { return i; })), out = [];
    s.forEach(function (v) {
        out.push(v);
        if (v === 10) for (var i = 11; i < 290; i++) s.delete(i);
        if (v === 295) s.add(1000);
    });
    return out;
});
t('queueUse', function () {
    var s = new Set(), sum = 0;
    for (var i = 0; i < 5000; i++) {
        s.add(i);
        if (i >= 10) { var it = s.values(), v = it.next().value; s.delete(v); sum += v; }
    }
    return [s.size, sum, Array.from(s)];
});
t('keyIdentity', function () {
    var o = {}, f = Object.freeze({}), sym = Symbol('s'), p = new Proxy({}, {}), fn = function () {};
    var m = new Map([[NaN, 'nan'], [-0, 'zero'], [o, 'o'], [f, 'frozen'], [sym, 'sym'], [p, 'proxy'], [fn, 'fn'],
        ['', 'empty'], [false, 'false'], [null, 'null'], [undefined, 'undef'], [1e21, 'big'], [0.1 + 0.2, 'float']]);
    return [m.size, m.get(0 / 0), m.get(0), m.get(-0), 1 / Array.from(m.keys())[1], m.get(o), m.get({}), m.get(f),
        m.get(sym), m.get(Symbol('s')), m.get(p), m.get(fn), m.get(''), m.get(0 === 1), m.get(null), m.get(),
        m.get(1e21), m.get(0.30000000000000004), m.get('1e+21'), m.has('NaN'), m.has('0')];
});
t('stringsByContent', function () {
    var s = new Set(['ab', 'a' + 'b', ['a', 'b'].join(''), String.fromCharCode(97, 98)]);
    var m = new Map([['x'.repeat(3), 1]]);
    return [s.size, m.get('xxx'), m.has('xx' + 'x')];
});
t('largeMap', function () {
    var m = new Map();
    for (var i = 0; i < 100000; i++) m.set('k' + i, i);
    for (i = 0; i < 100000; i += 2) m.delete('k' + i);
    var sum = 0, n = 0, ordered = true, prev = -1;
    m.forEach(function (v) { sum += v; n++; if (v <= prev) ordered = false; prev = v; });
    var s = new Set();
    for (i = 0; i < 100000; i++) s.add(i % 70000);
    return [m.size, n, sum, ordered, m.get('k99999'), m.get('k99998'), s.size, s.has(69999), s.has(70000)];
});
t('valuesEntriesKeys', function () {
    var s = new Set(['a', 'b']), m = new Map([[1, 'x']]);
    return [drain(s.entries()), drain(s.keys()), s.keys === s.values, s[Symbol.iterator] === s.values,
        m[Symbol.iterator] === m.entries, drain(m.keys()), drain(m.values()), drain(m.entries())];
});
t('iteratorObjects', function () {
    var m = new Map([[1, 2]]), it = m[Symbol.iterator](), proto = Object.getPrototypeOf(it);
    var r = it.next();
    return [Object.prototype.toString.call(it), it[Symbol.iterator]() === it, Object.keys(r), r.value,
        Object.getOwnPropertyNames(proto), proto.next.length, proto.next.name,
        Object.getPrototypeOf(new Set().values()) === proto,
        Object.prototype.toString.call(new Set().values())];
});
t('receiverErrors', function () {
    function err(f) { try { f(); return 'no error'; } catch (e) { return e.name; } }
    var m = new Map([[1, 2]]), s = new Set([1]);
    return [
        err(function () { Map.prototype.get.call(s, 1); }),
        err(function () { Set.prototype.add.call(m, 1); }),
        err(function () { Map.prototype.has.call(Object.create(m), 1); }),
        err(function () { Map.prototype.set.call(new Proxy(m, {}), 1, 2); }),
        err(function () { return Object.getOwnPropertyDescriptor(Map.prototype, 'size').get.call({}); }),
        err(function () { m.keys().next.call(s.values()); }),
        err(function () { m.keys().next.call({}); }),
        err(function () { s.forEach(null); }),
        err(function () { new Map([1]); }),
        err(function () { Map(); }),
        err(function () { WeakMap.prototype.get.call(m, {}); })
    ];
});
t('methodShapes', function () {
    var out = [];
    ['get', 'set', 'has', 'delete', 'clear', 'forEach', 'keys', 'values', 'entries'].forEach(function (k) {
        out.push(k + ':' + Map.prototype[k].name + '/' + Map.prototype[k].length);
    });
    ['add', 'has', 'delete', 'clear', 'forEach', 'values', 'entries'].forEach(function (k) {
        out.push(k + ':' + Set.prototype[k].name + '/' + Set.prototype[k].length);
    });
    var d = Object.getOwnPropertyDescriptor(Set.prototype, 'size');
    return [out, d.get.name, d.enumerable, d.configurable, d.set, Map.length, Set.length,
        Object.keys(Map.prototype), String(new Map()), String(new Set())];
});
t('frozenCollection', function () {
    var m = Object.freeze(new Map());
    m.set('a', 1);
    for (var i = 0; i < 100; i++) m.set(i, i);
    for (i = 0; i < 100; i++) m.delete(i);
    m.clear();
    m.set('b', 2);
    return [m.size, m.get('b'), Object.isFrozen(m)];
});
t('subclass', function () {
    class Counter extends Map {
        constructor(it) { super(it); this.made = true; }
        set(k, v) { return super.set(k, v * 10); }
    }
    var c = new Counter([['a', 1]]);
    c.set('b', 2);
    return [c instanceof Map, c instanceof Counter, c.get('a'), c.get('b'), c.size, c.made,
        Object.prototype.toString.call(c), Array.from(c.keys())];
});
t('entryGettersMutate', function () {
    var m, e = {};
    Object.defineProperty(e, 0, { get: function () { m.clear(); return 'k'; } });
    e[1] = 'v';
    m = new Map([['a', 1], e, ['b', 2]]);
    return Array.from(m);
});
t('ctorReadsArrayLength', function () {
    var arr = [1, 2, 3];
    Object.defineProperty(arr, 1, { get: function () { arr.push(9); return 2; } });
    return Array.from(new Set(arr));
});
t('forOfBreakResume', function () {
    var m = new Map([[1, 'a'], [2, 'b'], [3, 'c']]), it = m.keys(), out = [];
    for (var k of it) { out.push(k); if (k === 1) break; }
    for (var k2 of it) out.push(k2);
    return out;
});
t('forOfMutations', function () {
    var m = new Map([[1, 1], [2, 2], [3, 3], [4, 4]]), out = [];
    for (var e of m) {
        out.push(e[0]);
        if (e[0] === 1) { m.delete(2); m.set(5, 5); }
        if (e[0] === 4) m.clear();
    }
    return [out, m.size];
});
t('groupByAndClone', function () {
    var g = Map.groupBy([1, 2, 3, 4, 5], function (x) { return x % 2 ? 'odd' : 'even'; });
    var c = structuredClone(new Map([[1, new Set([NaN, -0])]]));
    return [Array.from(g), Array.from(c.get(1)), 1 / Array.from(c.get(1))[1]];
});
t('spreadAndFrom', function () {
    var s = new Set([1, 2, 3]), it = s.values(), seen = [];
    it.next();
    var fromLive = Array.from(s, function (x) { if (x === 1) s.delete(2); seen.push(x); return x * 2; });
    return [[].concat(Array.from(it)), fromLive, seen, Array.from(new Map([[1, 'a']])), Array.from(new Map([[1, 'a']]).values()),
        new Set(new Set([4, 5])).size, new Map(new Map([[6, 7]])).get(6)];
});
t('closeOnAbruptFill', function () {
    var proto = Object.getPrototypeOf(new Set().values()), closed = 0;
    proto['return'] = function () { closed++; return {}; };
    try {
        var r;
        try { Array.from(new Set([1, 2]), function () { throw new Error('x'); }); } catch (e) { r = e.message; }
        return [r, closed];
    } finally { delete proto['return']; }
});
return __out;
