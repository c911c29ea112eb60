/* Object: entries, values, fromEntries, hasOwn, getOwnPropertyDescriptors
 * and groupBy (ES2017-ES2024), through private references; and
 * Symbol.prototype.description. */
'use strict';
var lib = rt.lib, install = rt.install, apply = rt.apply, keys = rt.keys, TypeErr = rt.TypeErr, what = rt.what;
var isObject = rt.isObject, hasOwnProperty = rt.hasOwnProperty, create = rt.create;
var defineProperty = rt.defineProperty, getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
var ownKeys = Reflect.ownKeys;

function toObj(x) {
    if (x === null || x === void 0) throw new TypeErr('Cannot convert undefined or null to object');
    return Object(x);
}

/* CreateDataProperty: an own data property even for "__proto__" or where an
 * inherited setter would run. */
function createData(o, k, v) {
    if (k === '__proto__') defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
    else o[k] = v;
}
function toPropertyKey(k) { return typeof k === 'symbol' ? k : rt.String(k); }

install(Object, {
    entries(o) {
        o = toObj(o);
        var ks = keys(o), out = [];
        for (var i = 0; i < ks.length; i++) out[i] = [ks[i], o[ks[i]]];
        return out;
    }
});
install(Object, {
    values(o) {
        o = toObj(o);
        var ks = keys(o), out = [];
        for (var i = 0; i < ks.length; i++) out[i] = o[ks[i]];
        return out;
    }
});
rt.useNative(Object, 'entries', rt.host.objectEntries);
rt.useNative(Object, 'values', rt.host.objectValues);
var arrayValues = Array.prototype[Symbol.iterator], fromEntriesArray = rt.host.fromEntriesArray;
install(Object, {
    fromEntries(iterable) {
        if (iterable === null || iterable === void 0) throw rt.notIterable(iterable);
        /* an array of [key, value] arrays, built in C (undefined otherwise) */
        var o = rt.isArray(iterable) && iterable[Symbol.iterator] === arrayValues ? fromEntriesArray(iterable) : void 0;
        if (o !== void 0) return o;
        o = {};
        rt.iterate(iterable, function (e) {
            if (!isObject(e)) throw new TypeErr('Iterator value ' + what(e) + ' is not an entry object');
            createData(o, toPropertyKey(e[0]), e[1]);
        });
        return o;
    }
});
install(Object, {
    hasOwn(o, k) {
        return apply(hasOwnProperty, toObj(o), [k]);
    }
});
install(Object, {
    getOwnPropertyDescriptors(o) {
        o = toObj(o);
        var ks = ownKeys(o), out = {};
        for (var i = 0; i < ks.length; i++) {
            var d = getOwnPropertyDescriptor(o, ks[i]);
            if (d !== void 0) createData(out, ks[i], d);
        }
        return out;
    }
});
install(Object, {
    groupBy(items, cb) {
        rt.requireFn(cb);
        var out = create(null), n = 0;
        rt.iterate(items, function (v) {
            var k = toPropertyKey(cb(v, n++)), list = out[k];
            if (list === void 0) out[k] = [v];
            else list[list.length] = v;
        });
        return out;
    }
});

/* Symbol.prototype.description (ES2019), read from the symbol's string.
 * Duktape does not tell Symbol() from Symbol(''): both give ''. */
if (!('description' in Symbol.prototype)) {
    var symbolToString = Symbol.prototype.toString;
    install(Symbol.prototype, {
        get description() { return apply(symbolToString, this, []).slice(7, -1); }
    });
}
