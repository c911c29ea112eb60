/* structuredClone for the data a program handles: primitives, plain objects
 * (own enumerable string keys; class instances become plain objects),
 * arrays (holes and extra properties kept), Date, RegExp, Map, Set, boxed
 * primitives, errors, ArrayBuffer and typed arrays; shared and cyclic
 * references are preserved. Functions, symbols, promises, weak collections
 * and the like throw a DataCloneError DOMException, as in Node. */
'use strict';
var apply = rt.apply, keys = rt.keys, isObject = rt.isObject, objToString = rt.objectToString;
var Str = rt.String, NativeMap = G.Map, NativeSet = G.Set, mapGet = NativeMap.prototype.get, mapSet = NativeMap.prototype.set;
var DateCtor = Date, getTime = Date.prototype.getTime, RegExpCtor = RegExp;
var valueOf = { Boolean: Boolean.prototype.valueOf, Number: Number.prototype.valueOf, String: String.prototype.valueOf };
var ERROR_TYPES = { Error: 1, EvalError: 1, RangeError: 1, ReferenceError: 1, SyntaxError: 1, TypeError: 1, URIError: 1 };
var errorCtors = { Error: G.Error, EvalError: G.EvalError, RangeError: G.RangeError, ReferenceError: G.ReferenceError,
    SyntaxError: G.SyntaxError, TypeError: G.TypeError, URIError: G.URIError };
var getDesc = Object.getOwnPropertyDescriptor;

function cloneError(what) {
    return new rt.DOMException(what + ' could not be cloned.', 'DataCloneError');
}
function describe(v) {
    if (typeof v === 'function') return 'function ' + (v.name || '');
    if (typeof v === 'symbol') return Str(v);
    var tag = apply(objToString, v, []);
    return '#<' + tag.slice(8, -1) + '>';
}

function copyProps(src, dst, seen) {
    var ks = keys(src);
    for (var i = 0; i < ks.length; i++) dst[ks[i]] = clone(src[ks[i]], seen);
    return dst;
}

function cloneCollection(v, type, seen) {
    var c = type === 'Map' ? new NativeMap() : new NativeSet();
    apply(mapSet, seen, [v, c]);
    var e = rt.collectionEntries(v);
    for (var i = 0; i < e.length; i += 2)
        rt.collectionPut(c, clone(e[i], seen), type === 'Map' ? clone(e[i + 1], seen) : void 0);
    return c;
}

function cloneErrorObject(v, seen) {
    var name = v.name, msg = getDesc(v, 'message');
    name = typeof name === 'string' && ERROR_TYPES[name] === 1 ? name : 'Error';
    var c = new errorCtors[name](msg && 'value' in msg ? Str(msg.value) : void 0);
    apply(mapSet, seen, [v, c]);
    var stack = v.stack;
    if (typeof stack === 'string') rt.def(c, 'stack', stack);
    if (rt.hasOwn(v, 'cause')) rt.def(c, 'cause', clone(v.cause, seen));
    return c;
}

/* Objects with a built-in tag: the clone, or undefined for plain objects. */
function cloneTagged(v, tag, seen) {
    var c;
    switch (tag) {
    case 'Array':
        c = [];
        apply(mapSet, seen, [v, c]);
        copyProps(v, c, seen);
        c.length = v.length;
        return c;
    case 'Date': c = new DateCtor(apply(getTime, v, [])); break;
    case 'RegExp': c = new RegExpCtor(v.source, (v.global ? 'g' : '') + (v.ignoreCase ? 'i' : '') + (v.multiline ? 'm' : '')); break;
    case 'Boolean': case 'Number': case 'String': c = Object(apply(valueOf[tag], v, [])); break;
    case 'Error': return cloneErrorObject(v, seen);
    case 'ArrayBuffer': c = v.slice(0); break;
    case 'Int8Array': case 'Uint8Array': case 'Uint8ClampedArray': case 'Int16Array': case 'Uint16Array':
    case 'Int32Array': case 'Uint32Array': case 'Float32Array': case 'Float64Array':
        c = new v.constructor(v); break;
    case 'Object': case 'Arguments': return void 0;
    default: throw cloneError(describe(v));
    }
    apply(mapSet, seen, [v, c]);
    return c;
}

function clone(v, seen) {
    if (!isObject(v)) {
        if (typeof v === 'symbol') throw cloneError(describe(v));
        return v;
    }
    if (typeof v === 'function') throw cloneError(describe(v));
    var c = apply(mapGet, seen, [v]);
    if (c !== void 0) return c;
    var type = rt.collectionType(v);
    if (type !== null) return cloneCollection(v, type, seen);
    if (rt.isPromise(v)) throw cloneError('#<Promise>');
    var tag = apply(objToString, v, []).slice(8, -1);
    if (rt.isArray(v)) tag = 'Array';
    c = cloneTagged(v, tag, seen);
    if (c !== void 0) return c;
    c = {};
    apply(mapSet, seen, [v, c]);
    return copyProps(v, c, seen);
}

rt.install(G, {
    structuredClone(value) {
        if (arguments.length === 0) throw new rt.TypeErr("Failed to execute 'structuredClone': 1 argument required, but only 0 present.");
        return clone(value, new NativeMap());
    }
});
[cloneError, describe, copyProps, cloneCollection, cloneErrorObject, cloneTagged, clone].forEach(rt.native);
