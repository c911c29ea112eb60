/* The iteration protocol on built-ins: arrays, strings, typed arrays,
 * arguments (through Array.from), iterator objects. */
function drain(it) { var out = [], s; while (!(s = it.next()).done) out.push(s.value); return out; }
function cps(arr) { return arr.map(function (c) { return c.codePointAt(0); }); }

t('arrayIteratorIsValues', function () {
    return [Array.prototype[Symbol.iterator] === Array.prototype.values, Array.prototype.values.name];
});
t('arrayKeysValuesEntries', function () {
    var a = ['x', 'y'];
    return [drain(a.keys()), drain(a.values()), drain(a.entries()), drain(a[Symbol.iterator]())];
});
t('arrayIteratorHoles', function () { return [drain([1, , 3].values()), drain([, 'b'].keys())]; });
t('arrayIteratorLive', function () {
    var a = [1, 2], it = a.values(), out = [it.next().value];
    a.push(3);
    out.push(it.next().value, it.next().value, it.next().done);
    a.push(4);
    out.push(it.next().done);
    return out;
});
t('arrayIteratorShrink', function () {
    var a = [1, 2, 3], it = a.values();
    it.next();
    a.length = 1;
    return it.next();
});
t('arrayIteratorOnArrayLike', function () {
    return drain(Array.prototype.values.call({ length: 2, 0: 'a', 1: 'b' }));
});
t('arrayIteratorOnString', function () { return drain(Array.prototype.entries.call('ab')); });
t('iteratorProtoChain', function () {
    var it = [].values(), proto = Object.getPrototypeOf(it), iterProto = Object.getPrototypeOf(proto);
    return [typeof proto.next, typeof iterProto[Symbol.iterator], it[Symbol.iterator]() === it,
            Object.prototype.toString.call(it), Object.keys(it).length, Object.getPrototypeOf(iterProto) === Object.prototype];
});
t('iteratorResultShape', function () {
    var r = ['a'].values().next();
    return [Object.keys(r), r.value, r.done];
});
t('nextOnWrongReceiver', function () { return [].values().next.call({}); });
t('stringIteratorCodePoints', function () {
    var s = 'a\ud83d\ude00b\u00e9';
    return cps(drain(s[Symbol.iterator]()));
});
t('stringIteratorLoneSurrogates', function () {
    return drain('\ud800x\udc00'[Symbol.iterator]()).map(function (c) { return [c.length, c.charCodeAt(0)]; });
});
t('stringIteratorOnObject', function () {
    return drain(String.prototype[Symbol.iterator].call(123));
});
t('stringIteratorNull', function () { return String.prototype[Symbol.iterator].call(null); });
t('arrayFromStringByCodePoint', function () {
    return [Array.from('x\ud83d\ude00y').length, 'x\ud83d\ude00y'.length];
});
t('typedArrayIteration', function () {
    var u = new Uint8Array([5, 6, 7]);
    return [drain(u.values()), drain(u.keys()), drain(u.entries()), Array.from(u), typeof Uint8Array.prototype[Symbol.iterator]];
});
t('typedArrayFloat', function () { return Array.from(new Float64Array([1.5, -0, NaN])); });
t('argumentsArrayFrom', function () {
    return (function () { return Array.from(arguments); })(1, 'two', 3);
});
t('argumentsToMapAndSet', function () {
    return (function () { return [new Set(arguments).size, Array.from(new Map([arguments])).length]; })(1, 1, 2);
});
t('customIterable', function () {
    var it = {};
    it[Symbol.iterator] = function () {
        var i = 0;
        return { next: function () { i++; return i <= 3 ? { value: i * i, done: false } : { value: 'ret', done: true }; } };
    };
    return [Array.from(it), Array.from(new Set(it))];
});
t('iteratorResultNotObject', function () {
    var it = {};
    it[Symbol.iterator] = function () { return { next: function () { return 5; } }; };
    return Array.from(it);
});
t('iteratorMethodReturnsPrimitive', function () {
    var it = {};
    it[Symbol.iterator] = function () { return 1; };
    return Array.from(it);
});
t('iteratorNotCallable', function () {
    var it = {};
    it[Symbol.iterator] = 5;
    return Array.from(it);
});
t('doneTruthyValues', function () {
    var n = 0, it = {};
    it[Symbol.iterator] = function () { return { next: function () { n++; return { value: n, done: n > 2 ? 'yes' : 0 }; } }; };
    return Array.from(it);
});
t('nextReadOnce', function () {
    var reads = 0, it = {}, inner = { i: 0 };
    Object.defineProperty(inner, 'next', { get: function () { reads++; return function () { this.i++; return { value: this.i, done: this.i > 3 }; }; } });
    it[Symbol.iterator] = function () { return inner; };
    return [Array.from(it), reads];
});
t('closeOnMapFnThrow', function () {
    var log = [], it = {};
    it[Symbol.iterator] = function () {
        return {
            next: function () { log.push('next'); return { value: 1, done: false }; },
            'return': function () { log.push('return'); return {}; }
        };
    };
    try { Array.from(it, function () { throw new Error('stop'); }); } catch (e) { log.push(e.message); }
    return log;
});
t('noCloseWhenNextThrows', function () {
    var log = [], it = {};
    it[Symbol.iterator] = function () {
        return {
            next: function () { throw new Error('inner'); },
            'return': function () { log.push('return'); return {}; }
        };
    };
    try { Array.from(it); } catch (e) { log.push(e.message); }
    return log;
});
t('returnErrorIgnoredOnThrow', function () {
    var it = {};
    it[Symbol.iterator] = function () {
        return {
            next: function () { return { value: 1, done: false }; },
            'return': function () { throw new Error('from return'); }
        };
    };
    try { new Map(it); } catch (e) { return [e.name, e.message]; }
});
t('overriddenArrayIterator', function () {
    var orig = Array.prototype[Symbol.iterator], values = Array.prototype.values, r;
    Array.prototype[Symbol.iterator] = function () { return values.call(['over']); };
    try { r = Array.from([1, 2, 3]); } finally { Array.prototype[Symbol.iterator] = orig; }
    return r;
});
t('ownIteratorOnArray', function () {
    var a = [1, 2, 3];
    a[Symbol.iterator] = function () { return [9][Symbol.iterator](); };
    return [Array.from(a), Array.from(new Set(a))];
});
t('nonIterables', function () {
    var out = [];
    [null, undefined, 5, true, {}].forEach(function (x) {
        try { new Set(x); out.push('ok'); } catch (e) { out.push(e.name); }
    });
    return out;
});
t('arraySubclassIteratorUsedBySpreadAndDestructuring', function () {
    class A extends Array { *[Symbol.iterator]() { yield 'custom'; yield 'iter'; } }
    var a = A.from([1, 2, 3]);
    var [x, y] = a;
    return [[...a], x, y, Array.from(a), [...[1, 2]]];
});
t('replacedArrayIteratorIsUsed', function () {
    var orig = Array.prototype[Symbol.iterator];
    Array.prototype[Symbol.iterator] = function* () { yield 'replaced'; };
    try {
        var [first] = [1, 2];
        return [[...[1, 2]], first];
    } finally {
        Array.prototype[Symbol.iterator] = orig;
    }
});
return __out;
