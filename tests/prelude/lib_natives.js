/* The library methods with C versions (sandbox/duktape/fastpaths.inc, the
 * issue 26 block): Array.prototype.includes, Object.entries, Object.values,
 * and the loops of Array.from and Object.fromEntries, on the receivers they
 * take in C and on those they leave to the prelude: holes, array-likes,
 * getters, proxies, arguments objects, callbacks that throw or change the
 * source, `this`, names, lengths and errors. */
function err(f) { try { f(); return 'no error'; } catch (e) { return e.name + ': ' + (e instanceof TypeError || e instanceof RangeError ? 'thrown' : e.message); } }
function desc(f) { return [f.name, f.length, typeof f, Object.prototype.hasOwnProperty.call(f, 'prototype')]; }

t('functionShapes', function () {
    return [desc([].includes), desc(Object.entries), desc(Object.values), desc(Array.from), desc(Object.fromEntries),
        Object.getOwnPropertyDescriptor(Array.prototype, 'includes').enumerable,
        Object.getOwnPropertyDescriptor(Object, 'entries').writable,
        Uint8Array.prototype.includes === undefined ? 'none' : typeof Uint8Array.prototype.includes];
});
t('notConstructors', function () {
    return [err(function () { return new [].includes(1); }), err(function () { return new Object.entries({}); }),
        err(function () { return new Object.values({}); })];
});

/* ---- includes ---------------------------------------------------------------------------- */
t('includesBasics', function () {
    var a = [1, 'two', NaN, -0, null, undefined, { x: 1 }];
    return [a.includes(1), a.includes('two'), a.includes(NaN), a.includes(0), a.includes(+0), a.includes(null),
        a.includes(undefined), a.includes({ x: 1 }), a.includes('1'), a.includes(a[6]), [].includes(undefined), [1].includes()];
});
t('includesFromIndex', function () {
    var a = [1, 2, 3, 1];
    return [a.includes(1, 1), a.includes(1, 4), a.includes(1, -1), a.includes(2, -1), a.includes(2, -100), a.includes(3, 2.9),
        a.includes(1, Infinity), a.includes(1, -Infinity), a.includes(1, NaN), a.includes(1, '3'), a.includes(1, undefined),
        a.includes(3, { valueOf: function () { return 2; } }), a.includes(3, null), a.includes(1, true)];
});
t('includesHoles', function () {
    var a = [1, , 3];
    var b = new Array(5);
    return [a.includes(undefined), b.includes(undefined), b.includes(0), [, ].includes(undefined), a.indexOf(undefined)];
});
t('includesInheritedIndex', function () {
    var a = [0, , 2];
    Array.prototype[1] = 'from proto';
    try { return [a.includes('from proto'), [, , ].includes('from proto'), a.includes(1)]; }
    finally { delete Array.prototype[1]; }
});
t('includesGetterOnHole', function () {
    var a = [1, , 3], reads = 0;
    Object.defineProperty(Array.prototype, 1, { get: function () { reads++; a[2] = 'changed'; return 'g'; }, configurable: true });
    try { return [a.includes('changed'), reads, a.includes('g'), reads]; }
    finally { delete Array.prototype[1]; }
});
t('includesArrayLikes', function () {
    var o = { length: 3, 0: 'a', 1: NaN, 2: 'c' };
    function args() { return Array.prototype.includes.call(arguments, 'y'); }
    return [Array.prototype.includes.call(o, NaN), Array.prototype.includes.call(o, 'd'),
        Array.prototype.includes.call('abc', 'b'), Array.prototype.includes.call({ length: -1, 0: 1 }, 1),
        args('x', 'y'), Array.prototype.includes.call(new Uint8Array([1, 2, 3]), 2),
        Array.prototype.includes.call(new Proxy([5, 6], {}), 6)];
});
t('includesLengthGetterOrder', function () {
    var log = [];
    var o = { get length() { log.push('length'); return 2; }, 0: 'a', 1: 'b' };
    var from = { valueOf: function () { log.push('fromIndex'); return 0; } };
    var r = Array.prototype.includes.call(o, 'b', from);
    var zero = Array.prototype.includes.call({ length: 0 }, 'x', { valueOf: function () { log.push('never'); return 0; } });
    return [r, zero, log];
});
t('includesErrors', function () {
    return [err(function () { Array.prototype.includes.call(null, 1); }), err(function () { Array.prototype.includes.call(undefined); }),
        err(function () { [1].includes(1, { valueOf: function () { throw new Error('boom'); } }); }),
        err(function () { [1].includes(1, Symbol('s')); })];
});
t('includesThisArraySubclass', function () {
    class MyArray extends Array {}
    var m = MyArray.from([1, 2]);
    return [m.includes(2), m instanceof MyArray, [1, 2, 3].includes.call([4], 4)];
});

/* ---- Object.entries / Object.values ----------------------------------------------------- */
t('entriesValuesPlain', function () {
    var o = { b: 1, a: 'x', c: { d: 1 }, e: undefined, f: null };
    return [Object.entries(o), Object.values(o), Object.entries({}), Object.values({})];
});
t('entriesOrderAndIndexKeys', function () {
    var o = { z: 1, 2: 'two', a: 3, 1: 'one', '-1': 'minus' };
    return [Object.entries(o), Object.values(o)];
});
t('entriesAfterDelete', function () {
    var o = { a: 1, b: 2, c: 3 };
    delete o.b;
    o.d = 4;
    return [Object.entries(o), Object.values(o)];
});
t('entriesGettersAndEnumerability', function () {
    var calls = 0;
    var o = { a: 1, get g() { calls++; return 'got'; } };
    Object.defineProperty(o, 'hidden', { value: 'h', enumerable: false });
    var r = [Object.entries(o), Object.values(o), calls];
    var s = { x: 1 };
    s[Symbol('sym')] = 2;
    r.push(Object.entries(s), Object.values(s));
    return r;
});
t('entriesOtherReceivers', function () {
    function F() { this.own = 1; }
    F.prototype.inherited = 2;
    var fn = function () {};
    fn.prop = 'p';
    return [Object.entries('ab'), Object.values('ab'), Object.entries([7, , 9]), Object.values([7, 8]), Object.entries(new F()),
        Object.entries(fn), Object.entries(5), Object.values(true), Object.entries(new Proxy({ q: 1 }, {})),
        Object.entries(Object.create({ inherited: 1 }, { own: { value: 2, enumerable: true } })),
        Object.entries(Object.create(null, { n: { value: 1, enumerable: true } }))];
});
t('entriesErrors', function () {
    return [err(function () { Object.entries(null); }), err(function () { Object.values(undefined); }), err(function () { Object.entries(); })];
});
t('entriesFreshArrays', function () {
    var o = { a: 1 };
    var e1 = Object.entries(o), e2 = Object.entries(o);
    e1[0][1] = 'changed';
    return [e1 !== e2, e1[0] !== e2[0], o.a, Array.isArray(e1[0]), e1[0].length];
});

/* ---- Array.from -------------------------------------------------------------------------- */
t('fromArrays', function () {
    var a = [1, , 3];
    return [Array.from(a), Array.from([]), Array.from([1, 2], function (x, i) { return x * 10 + i; }),
        Array.from(a).hasOwnProperty(1), Array.from([1, 2]) !== [1, 2]];
});
t('fromLength', function () {
    return [Array.from({ length: 3 }), Array.from({ length: 3 }, function (_, i) { return i * i; }),
        Array.from({ length: 2.7 }), Array.from({ length: -1 }), Array.from({ length: '2' }), Array.from({}),
        Array.from({ length: 2, 0: 'a', 1: 'b' }), Array.from({ length: 3, 1: 'mid' })];
});
t('fromMapThis', function () {
    var seen = [];
    var self = { tag: 'self' };
    Array.from([1, 2], function (v, i) { seen.push([this === self, arguments.length, v, i]); }, self);
    Array.from({ length: 1 }, function (v, i) { 'use strict'; seen.push([this, arguments.length, v, i]); });
    return seen;
});
t('fromCallbackChangesSource', function () {
    var a = [1, 2, 3];
    var grown = Array.from(a, function (v, i) { if (i === 0) a.push(4); return v; });
    var b = [1, 2, 3, 4];
    var shrunk = Array.from(b, function (v, i) { if (i === 0) b.length = 2; return v; });
    var o = { length: 3 };
    var filled = Array.from(o, function (v, i) { o[i + 1] = 'set by ' + i; return v; });
    return [grown, shrunk, filled];
});
t('fromProtoIndexProps', function () {
    Object.prototype[1] = 'proto';
    try { return [Array.from({ length: 3 }), Array.from({ length: 2 }, function (v) { return v; })]; }
    finally { delete Object.prototype[1]; }
});
t('fromCustomProto', function () {
    var proto = { 0: 'zero' };
    var o = Object.create(proto);
    o.length = 2;
    var g = { length: 2, get 1() { return 'getter'; } };
    return [Array.from(o), Array.from(g)];
});
t('fromArguments', function () {
    function mapped(a, b) { a = 'changed'; return Array.from(arguments); }
    function strict(a, b) { 'use strict'; a = 'changed'; return Array.from(arguments); }
    return [mapped('x', 'y'), strict('x', 'y')];
});
t('fromOtherSources', function () {
    return [Array.from('héllo'), Array.from(new Set([1, 1, 2])), Array.from(new Map([[1, 2]])), Array.from(new Uint8Array([3, 4])),
        Array.from([1, 2].keys()), Array.from(new Proxy([8, 9], {})), Array.from({ length: 2, 0: 'p' }, String)];
});
t('fromSubclass', function () {
    class MyArray extends Array {}
    var m = MyArray.from({ length: 2 }, function (_, i) { return i; });
    var n = MyArray.from([5, 6]);
    function NotArray() { this.made = true; }
    var x = Array.from.call(NotArray, { length: 1, 0: 'v' });
    var y = Array.from.call(undefined, [1]);
    return [m instanceof MyArray, m.length, m[1], n instanceof MyArray, n[0], x.made, x[0], x.length, Array.isArray(y), y];
});
t('fromCallbackThrows', function () {
    var calls = 0;
    var r = err(function () { Array.from([1, 2, 3], function (v) { calls++; if (v === 2) throw new Error('cb'); return v; }); });
    var r2 = err(function () { Array.from({ length: 3 }, function (v, i) { if (i === 1) throw new TypeError('cb'); }); });
    return [r, calls, r2];
});
t('fromErrors', function () {
    return [err(function () { Array.from(null); }), err(function () { Array.from([1], 'nope'); }), err(function () { Array.from({ length: 1 }, {}); }),
        err(function () { Array.from({ length: 2 ** 32 }); }), err(function () { Array.from({ [Symbol.iterator]: 5 }); })];
});
t('fromIteratorOverridden', function () {
    var a = [1, 2, 3];
    a[Symbol.iterator] = function* () { yield 'own'; };
    var b = [4, 5];
    var saved = Array.prototype[Symbol.iterator];
    Array.prototype[Symbol.iterator] = function* () { yield 'proto'; };
    try { return [Array.from(a), Array.from(b)]; } finally { Array.prototype[Symbol.iterator] = saved; }
});
t('fromLargeSparse', function () {
    var a = [];
    a[5000] = 'end';
    var r = Array.from(a);
    return [r.length, r[5000], r[4999], 4999 in r];
});

/* ---- Object.fromEntries ------------------------------------------------------------------- */
t('fromEntriesPairs', function () {
    return [Object.fromEntries([['a', 1], ['b', 2]]), Object.fromEntries([]), Object.fromEntries([[1, 'one'], [1.5, 'x'], [-0, 'z']]),
        Object.fromEntries([['a', 1], ['a', 2], ['b', 3]]), Object.keys(Object.fromEntries([['b', 1], ['a', 2], ['b', 3]])),
        Object.fromEntries([['k', 'v', 'extra']])];
});
t('fromEntriesProtoKey', function () {
    var o = Object.fromEntries([['__proto__', { evil: true }], ['x', 1]]);
    return [Object.keys(o), Object.getPrototypeOf(o) === Object.prototype, o.evil, Object.getOwnPropertyDescriptor(o, '__proto__').value];
});
t('fromEntriesNoSetters', function () {
    var set = 0;
    Object.defineProperty(Object.prototype, 'trap', { set: function () { set++; }, configurable: true });
    try {
        var o = Object.fromEntries([['trap', 1]]);
        return [set, Object.getOwnPropertyDescriptor(o, 'trap').value];
    } finally { delete Object.prototype.trap; }
});
t('fromEntriesOtherShapes', function () {
    var log = [];
    var keyObj = { toString: function () { log.push('toString'); return 'obj'; } };
    var sym = Symbol('s');
    var r = [Object.fromEntries([[keyObj, 1]]), Object.fromEntries([[sym, 2]])[sym], Object.fromEntries([['a']]),
        Object.fromEntries([[, 'hole key']]), Object.fromEntries(new Map([['m', 1]])), Object.fromEntries([{ 0: 'o', 1: 'k' }]),
        Object.fromEntries([[null, 1], [undefined, 2], [true, 3]]), Object.fromEntries([['s', 1]].values()), log];
    return r;
});
t('fromEntriesGetters', function () {
    var e = ['g', 0];
    Object.defineProperty(e, 1, { get: function () { return 'from getter'; } });
    return Object.fromEntries([['a', 1], e]);
});
t('fromEntriesErrors', function () {
    return [err(function () { Object.fromEntries([1]); }), err(function () { Object.fromEntries(['ab']); }),
        err(function () { Object.fromEntries(null); }), err(function () { Object.fromEntries([['a', 1], 5]); }),
        err(function () { Object.fromEntries(5); })];
});
/* ---- sort with a comparator (the merge sort's loop in C) ---------------------------------- */
function lcg(n, seed) { var out = [], x = seed; for (var i = 0; i < n; i++) { x = (x * 1103515245 + 12345) % 2147483648; out.push(x % 1000); } return out; }
t('sortComparatorGarbage', function () {
    /* the comparator allocates enough to run the collector many times mid-sort */
    var a = lcg(3000, 7).map(function (k, i) { return { k: k, id: i, pad: [k, i] }; }), keep = [];
    a.sort(function (x, y) { var junk = { x: x, y: y, s: 'g' + x.k, arr: [1, 2, 3] }; if (junk.s.length > 99) keep.push(junk); return x.k - y.k; });
    var ok = true;
    for (var i = 1; i < a.length; i++) if (a[i - 1].k > a[i].k || (a[i - 1].k === a[i].k && a[i - 1].id > a[i].id)) ok = false;
    return [ok, a.length, a[0].k, a[2999].k, a[1500].pad.length];
});
t('sortComparatorThrowsLate', function () {
    var a = lcg(200, 3), copy = a.slice(), calls = 0;
    var r = err(function () { a.sort(function (x, y) { if (++calls === 1000) throw new Error('late'); return x - y; }); });
    var b = lcg(50, 5), copyB = b.slice(), callsB = 0;
    var rb = err(function () { b.sort(function (x, y) { if (++callsB === 3) throw new Error('early'); return x - y; }); });
    return [r, a.join() === copy.join(), rb, b.join() === copyB.join()];
});
t('sortComparatorResults', function () {
    var nums = [5, 3, 9, 1, 7, 2, 8, 4, 6, 0, 11, 10];
    return [nums.slice().sort(function (a, b) { return String(a - b); }),
        nums.slice().sort(function (a, b) { return { valueOf: function () { return b - a; } }; }),
        nums.slice().sort(function (a, b) { return a < b ? -Infinity : a > b ? Infinity : 0; })];
});
t('sortComparatorObjectsStable', function () {
    var a = lcg(5000, 11).map(function (k, i) { return { last: 'n' + (k % 37), age: k % 7, id: i }; });
    a.sort(function (x, y) { return x.last < y.last ? -1 : x.last > y.last ? 1 : x.age - y.age; });
    var ok = true;
    for (var i = 1; i < a.length; i++) {
        var p = a[i - 1], q = a[i];
        if (p.last > q.last || (p.last === q.last && (p.age > q.age || (p.age === q.age && p.id > q.id)))) ok = false;
    }
    return [ok, a[0].last, a[4999].last];
});
t('sortComparatorMixedValues', function () {
    var s = Symbol('s'), f = function () {}, o = { o: 1 };
    var a = [3, 'b', null, o, 1, s, f, 'a', true, 2];
    var sorted = a.slice().sort(function (x, y) { return String(typeof x).localeCompare(String(typeof y)); });
    return sorted.map(function (v) { return typeof v; });
});
t('sortTypedAndToSorted', function () {
    var ta = new Float64Array([3, 1, -0, 0, 2]);
    var r1 = Array.from(ta.slice().sort(function (a, b) { return b - a; }));
    var orig = [3, 1, 2];
    var r2 = orig.toSorted(function (a, b) { return a - b; });
    var r3 = err(function () { orig.toSorted(function () { throw new Error('x'); }); });
    return [r1, r2, orig, r3, [, 1, undefined, 0].toSorted(function (a, b) { return a - b; })];
});

/* ---- find, findIndex, findLast, findLastIndex, at ------------------------------------------ */
t('findFamilyShapes', function () {
    return [desc([].find), desc([].findIndex), desc([].findLast), desc([].findLastIndex), desc([].at), desc([].flat), desc([].flatMap),
        desc(''.padStart), desc(''.padEnd), err(function () { return new [].find(function () {}); }), err(function () { return new ''.padStart(3); })];
});
t('findFamilyBasics', function () {
    var a = [5, 12, 8, 130, 44, 12];
    function big(x) { return x > 10; }
    return [a.find(big), a.findIndex(big), a.findLast(big), a.findLastIndex(big), a.find(function () { return false; }),
        a.findIndex(function () { return 0; }), a.findLast(function () { return ''; }), a.findLastIndex(function () { return null; }),
        [].find(big), [].findLastIndex(big), a.find(function (v, i, o) { return o === a && i === 2; })];
});
t('findFamilyHolesAndThis', function () {
    var seen = [], self = { s: 1 };
    [1, , 3].find(function (v, i) { seen.push([v, i, this === self]); }, self);
    [1, , 3].findLast(function (v, i) { 'use strict'; seen.push([v, i, this]); });
    Array.prototype[1] = 'proto';
    try { seen.push([, , ].findIndex(function (v) { return v === 'proto'; })); } finally { delete Array.prototype[1]; }
    return seen;
});
t('findFamilyMutation', function () {
    var a = [1, 2, 3], visits = [];
    a.find(function (v, i) { visits.push(v); if (i === 0) { a.push(99); a[2] = 'changed'; } return false; });
    var b = [1, 2, 3, 4], visitsB = [];
    b.findIndex(function (v, i) { visitsB.push(v); if (i === 0) b.length = 1; return false; });
    return [visits, visitsB];
});
t('findFamilyOtherReceivers', function () {
    var o = { length: 2, 0: 'a', 1: 'b' };
    return [Array.prototype.find.call(o, function (v) { return v === 'b'; }), Array.prototype.findLastIndex.call('xyz', function (c) { return c === 'x'; }),
        Array.prototype.find.call(new Proxy([1, 2], {}), function (v) { return v === 2; }),
        Array.prototype.findIndex.call(new Uint8Array([4, 5]), function (v) { return v === 5; })];
});
t('findFamilyErrors', function () {
    return [err(function () { [1].find(); }), err(function () { [1].findIndex('f'); }), err(function () { Array.prototype.findLast.call(null, function () {}); }),
        err(function () { [1, 2].find(function (v) { if (v === 2) throw new Error('in pred'); }); })];
});
t('atCases', function () {
    var a = [1, , 3];
    return [a.at(0), a.at(-1), a.at(1), a.at(3), a.at(-4), a.at(), a.at(1.7), a.at(-0.5), a.at('2'), a.at(NaN), a.at(Infinity),
        Array.prototype.at.call({ length: 2, 1: 'x' }, -1), Array.prototype.at.call('str', -1), err(function () { Array.prototype.at.call(null, 0); }),
        [].at(0), a.at({ valueOf: function () { return 2; } })];
});

/* ---- flat, flatMap ----------------------------------------------------------------------------- */
t('flatCases', function () {
    var nested = [1, [2, [3, [4, [5]]]], , 6, []];
    return [nested.flat(), nested.flat(2), nested.flat(Infinity), nested.flat(0), nested.flat(-1), nested.flat('2'), nested.flat(NaN),
        [[1, , 3], [, ]].flat(), [].flat(), [[]].flat(), [new Proxy([7, 8], {})].flat(), [{ length: 1, 0: 'not flattened' }].flat(),
        Array.prototype.flat.call({ length: 2, 0: [1], 1: 2 })];
});
t('flatHolesFromProto', function () {
    Array.prototype[1] = 'proto';
    try { return [[0, , 2].flat(), [[0, , 2]].flat()]; } finally { delete Array.prototype[1]; }
});
t('flatDeep', function () {
    var a = [0];
    for (var i = 0; i < 200; i++) a = [a, i];
    var f = a.flat(Infinity);
    return [f.length, f[0], f[200]];
});
t('flatMapCases', function () {
    var a = [1, 2, , 4];
    var self = { m: 10 };
    return [a.flatMap(function (x) { return [x, x * 2]; }), a.flatMap(function (x) { return x; }), a.flatMap(function (x) { return [[x]]; }),
        a.flatMap(function (x, i, o) { return o === a ? [i] : []; }), a.flatMap(function (x) { return this.m + x; }, self),
        a.flatMap(function (x) { return new Proxy([x, 'p'], {}); }), a.flatMap(function (x) { return { length: 1, 0: x }; }),
        [[1, 2], [3]].flatMap(function (p) { return p; }), Array.prototype.flatMap.call({ length: 2, 0: 'a', 1: 'b' }, function (c) { return [c, c]; })];
});
t('flatMapMutationAndErrors', function () {
    var a = [1, 2, 3];
    var r = a.flatMap(function (x, i) { if (i === 0) { a.push(4); a[2] = 30; } return [x]; });
    return [r, err(function () { [1].flatMap(); }), err(function () { [1].flatMap({}); }),
        err(function () { [1, 2].flatMap(function (x) { if (x === 2) throw new Error('cb'); return x; }); })];
});

/* ---- padStart, padEnd --------------------------------------------------------------------------- */
t('padCases', function () {
    return ['5'.padStart(3, '0'), '5'.padEnd(3, '0'), 'abc'.padStart(10, '123'), 'abc'.padEnd(10, '123'), 'abc'.padStart(2),
        'abc'.padStart(6), 'abc'.padEnd(6), 'abc'.padStart(6, ''), 'abc'.padStart(5.9, '-'), 'abc'.padStart(-1, '-'), 'abc'.padStart(NaN),
        'é'.padStart(3, '*'), '😀'.padEnd(4, '.'), 'x'.padStart(4, 'é'), 'x'.padEnd(5, '😀'), 'x'.padStart('4', '0'), 'x'.padStart(3, 7),
        'x'.padStart(3, null), 'x'.padStart(3, undefined), 'x'.padStart({ valueOf: function () { return 3; } }, '0'), ''.padEnd(3, 'ab')];
});
t('padReceiversAndErrors', function () {
    return [String.prototype.padStart.call(12, 4, '0'), String.prototype.padEnd.call(true, 6, '!'), String.prototype.padStart.call(new String('s'), 3, '-'),
        err(function () { String.prototype.padStart.call(null, 3); }), err(function () { 'x'.padStart(Infinity, 'y'); }),
        err(function () { 'x'.padStart(Symbol('s')); }), err(function () { 'x'.padStart(3, Symbol('s')); }), err(function () { String.prototype.padEnd.call(Symbol('q'), 3); })];
});

return __out;
