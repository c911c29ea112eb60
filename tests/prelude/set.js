/* Set: SameValueZero values, insertion order, iteration. */
function values(s) { var out = []; s.forEach(function (v) { out.push(v); }); return out; }
function drain(it) { var out = [], s; while (!(s = it.next()).done) out.push(s.value); return out; }

t('dedupe', function () { return values(new Set([3, 1, 3, 2, 1])); });
t('nanAndZeros', function () {
    var s = new Set([NaN, NaN, 0, -0, +0]);
    var vs = values(s);
    return [s.size, s.has(NaN), s.has(-0), 1 / vs[1]];
});
t('addReturnsSet', function () { var s = new Set(); return s.add(1) === s; });
t('stringIterableCtor', function () { return values(new Set('hello')); });
t('hasDelete', function () {
    var o = {}, s = new Set([1, 'a', o]);
    return [s.has(o), s.has({}), s['delete']('a'), s['delete']('a'), s.size, s.has('a')];
});
t('keysIsValues', function () {
    return [Set.prototype.keys === Set.prototype.values, Set.prototype[Symbol.iterator] === Set.prototype.values];
});
t('entriesPairs', function () { return drain(new Set(['a', 'b']).entries()); });
t('forEachArgs', function () {
    var s = new Set(['x']), got;
    s.forEach(function (v, k, set) { got = [v, k, set === s, this === undefined ? 'undef' : this.n]; }, { n: 7 });
    return got;
});
t('iterationSeesAdds', function () {
    var s = new Set([1]), seen = [];
    s.forEach(function (v) { seen.push(v); if (v < 5) s.add(v + 1); });
    return seen;
});
t('deleteCurrentDuringForEach', function () {
    var s = new Set([1, 2, 3]), seen = [];
    s.forEach(function (v) { seen.push(v); s['delete'](v); });
    return [seen, s.size];
});
t('readdDuringIteration', function () {
    var s = new Set([1, 2]), seen = [], once = false;
    s.forEach(function (v) { seen.push(v); if (v === 1 && !once) { once = true; s['delete'](1); s.add(1); } });
    return seen;
});
t('clear', function () { var s = new Set([1, 2]); s.clear(); return [s.size, values(s)]; });
t('mixedTypes', function () {
    var sym = Symbol('s');
    var s = new Set([1, '1', true, 'true', null, undefined, sym]);
    return [s.size, s.has(sym), s.has(undefined), s.has('undefined')];
});
t('arrayFromSet', function () { return Array.from(new Set([1, 2, 2, 3]), function (x) { return x * 10; }); });
t('uniqueObjectsByIdentity', function () {
    var a = [1], b = [1];
    return new Set([a, b, a]).size;
});
t('incompatibleReceiver', function () { return Set.prototype.has.call(new Map(), 1); });
t('requiresNew', function () { return Set([1]); });
t('ctorThrowsClosesIterator', function () {
    var closed = false, it = {
        next: function () { return { value: 1, done: false }; },
        'return': function () { closed = true; return {}; }
    };
    var iterable = {};
    iterable[Symbol.iterator] = function () { return it; };
    var orig = Set.prototype.add;
    Set.prototype.add = function () { throw new RangeError('boom'); };
    var err;
    try { new Set(iterable); } catch (e) { err = e.name; } finally { Set.prototype.add = orig; }
    return [err, closed];
});
t('toStringTagAndSize', function () {
    var s = new Set([1, 2]);
    return [Object.prototype.toString.call(s), s.size, Object.prototype.toString.call(s.values()), Set.length];
});
t('manyDeletes', function () {
    var s = new Set(), i;
    for (i = 0; i < 300; i++) s.add(i);
    for (i = 0; i < 300; i += 3) s['delete'](i);
    var v = values(s);
    return [s.size, v.slice(0, 5), v[v.length - 1]];
});
return __out;
