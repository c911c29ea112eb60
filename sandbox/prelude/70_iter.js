/* Iteration protocol of the built-ins: %IteratorPrototype%, array iterators
 * (Array.prototype.keys/values/entries/[Symbol.iterator], also on typed
 * arrays), string iterators by code point, and the private helpers the rest
 * of the library iterates with (rt.iterate, rt.lib, rt.toObject, ...).
 * Iterator state lives under rt.HIDDEN, out of reach of programs. */
'use strict';
var ITER = Symbol.iterator, S = rt.HIDDEN, def = rt.def, apply = rt.apply;
var Str = rt.String, create = rt.create;
var objToString = rt.objectToString, floor = rt.floor;
var MAX_SAFE = 9007199254740991;

/* Defines a library function the way built-ins are defined (non-enumerable,
 * named, with the spec's length when given) and drops its fileName so that
 * it looks native: never blamed for an error's line, and hidden from stack
 * traces (76_error.js). */
function fixed(fn, key, value) {
    rt.defineProperty(fn, key, { value: value, writable: false, enumerable: false, configurable: true });
}
function lib(obj, name, fn, length) {
    delete fn.fileName;
    var shown = name === ITER ? '[Symbol.iterator]' : name;
    if (typeof shown === 'string' && fn.name !== shown) fixed(fn, 'name', shown);
    if (length !== void 0) fixed(fn, 'length', length);
    def(obj, name, fn);
    return fn;
}
/* Installs every method of the object literal `methods` (written as ES2015
 * method definitions: like built-in methods, they are not constructors and
 * have no prototype object, which also saves memory) and every accessor
 * (`get size() {...}`) on obj; lengths maps names to the spec's length. */
function install(obj, methods, lengths) {
    var ks = rt.keys(methods);
    for (var i = 0; i < ks.length; i++) {
        var k = ks[i], d = Object.getOwnPropertyDescriptor(methods, k);
        if (d.get === void 0) {
            lib(obj, k, d.value, lengths === void 0 ? undefined : lengths[k]);
            continue;
        }
        delete d.get.fileName;
        rt.defineProperty(obj, k, { get: d.get, enumerable: false, configurable: true });
    }
    return obj;
}
function native(fn) {
    delete fn.fileName;
    return fn;
}
/* Replaces the library method obj[name] with its C version nat (natives of
 * sandbox/duktape/fastpaths.inc), which calls the method it replaces,
 * kept as nat[rt.HIDDEN], for the cases it does not cover. */
function useNative(obj, name, nat) {
    var slow = obj[name];
    nat[S] = slow;
    return lib(obj, name, nat, slow.length);
}
/* Errors the library raises name the program's innermost line, as a
 * native's would: its fileName and lineNumber become own data properties
 * (plain values: the host reads them from C, where no getter may run). */
function blame(e) {
    for (var i = -1; i > -64; i--) {
        var a = rt.act(i);
        if (a === void 0) break;
        var f = a['function'];
        if (f && f.fileName === rt.PROGRAM) {
            def(e, 'fileName', rt.PROGRAM);
            def(e, 'lineNumber', a.lineNumber);
            break;
        }
    }
    return e;
}
/* TypeError and RangeError as the library raises them (used with new). */
function TypeErr(message) { return blame(new rt.TypeError(message)); }
function RangeErr(message) { return blame(new rt.RangeError(message)); }
native(TypeErr);
native(RangeErr);
function isObject(x) { return x !== null && (typeof x === 'object' || typeof x === 'function'); }

/* How a value is named in "x is not iterable" messages. */
function what(x) {
    if (typeof x === 'string') return '"' + x + '"';
    if (typeof x === 'function') return 'function';
    if (isObject(x)) return 'object';
    return Str(x);
}

/* V8's wording: "number 5 is not iterable (cannot read property ...)". */
function notIterable(x) {
    var d = x === void 0 ? 'undefined' : x === null ? 'object null' : isObject(x) ? typeof x
        : typeof x + ' ' + what(x);
    return new TypeErr(d + ' is not iterable (cannot read property Symbol(Symbol.iterator))');
}

function toObject(x, method) {
    if (x === null || x === void 0)
        throw new TypeErr(method + ' called on null or undefined');
    return Object(x);
}
function toInteger(x) {
    x = +x;
    if (x !== x) return 0;
    if (x === Infinity || x === -Infinity) return x;
    return x < 0 ? -floor(-x) : floor(x);
}
function toLength(x) {
    x = toInteger(x);
    return x <= 0 ? 0 : x > MAX_SAFE ? MAX_SAFE : x;
}
/* A relative index (negative counts from the end) clamped to [0, len]. */
function relIndex(x, len) {
    x = toInteger(x);
    if (x < 0) { x += len; return x < 0 ? 0 : x; }
    return x > len ? len : x;
}
function requireFn(f) {
    if (typeof f !== 'function') throw new TypeErr(what(f) + ' is not a function');
    return f;
}

/* ---- iterator prototypes ------------------------------------------------------ */

var IterProto = {};
lib(IterProto, ITER, { '[Symbol.iterator]'() { return this; } }['[Symbol.iterator]']);
function tag(obj, name) {
    rt.defineProperty(obj, Symbol.toStringTag, { value: name, writable: false, enumerable: false, configurable: true });
}
function done() { return { value: void 0, done: true }; }

/* An iterator object with prototype proto and private state st; st.tag names
 * the kind so that next() can check its receiver. */
function makeIter(proto, st) {
    var it = create(proto);
    it[S] = st;
    return it;
}
function iterState(it, kind) {
    var st = it === null || it === void 0 ? undefined : it[S];
    if (st === void 0 || st.tag !== kind)
        throw new TypeErr('next method called on incompatible receiver ' + what(it));
    return st;
}

var ArrIterProto = create(IterProto);
tag(ArrIterProto, 'Array Iterator');
install(ArrIterProto, {
    next() {
        var st = iterState(this, 'ai'), a = st.a;
        if (a === null) return done();
        var i = st.i;
        if (!(i < toLength(a.length))) { st.a = null; return done(); }
        st.i = i + 1;
        if (st.k === 1) return { value: a[i], done: false };
        if (st.k === 0) return { value: i, done: false };
        return { value: [i, a[i]], done: false };
    }
});
function arrayIter(o, kind) { return makeIter(ArrIterProto, { tag: 'ai', a: o, i: 0, k: kind }); }

var AP = Array.prototype;
install(AP, {
    keys() { return arrayIter(toObject(this, 'Array.prototype.keys'), 0); },
    values() { return arrayIter(toObject(this, 'Array.prototype.values'), 1); },
    entries() { return arrayIter(toObject(this, 'Array.prototype.entries'), 2); }
});
var arrayValues = AP.values;
def(AP, ITER, arrayValues);
rt.setArrayIter(arrayValues);

/* Typed arrays share one prototype (%TypedArray%.prototype) in Duktape. */
var TAP = rt.getPrototypeOf(Uint8Array.prototype);
def(TAP, 'keys', AP.keys);
def(TAP, 'values', arrayValues);
def(TAP, 'entries', AP.entries);
def(TAP, ITER, arrayValues);

/* The code point of s at i as a string (a surrogate pair, or one unit). */
function codePointAt(s, i) {
    var c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        var d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) return s.substr(i, 2);
    }
    return s.charAt(i);
}

var StrIterProto = create(IterProto);
tag(StrIterProto, 'String Iterator');
install(StrIterProto, {
    next() {
        var st = iterState(this, 'si'), s = st.s;
        if (s === null) return done();
        if (st.i >= s.length) { st.s = null; return done(); }
        var c = codePointAt(s, st.i);
        st.i += c.length;
        return { value: c, done: false };
    }
});
var stringIter = lib(String.prototype, ITER, {
    '[Symbol.iterator]'() {
        return makeIter(StrIterProto, { tag: 'si', s: Str(toObject(this, 'String.prototype[Symbol.iterator]')), i: 0 });
    }
}['[Symbol.iterator]']);
rt.setStringIter(stringIter);

/* ---- iterating from library code ------------------------------------------------ */

function isArguments(x) { return apply(objToString, x, []) === '[object Arguments]'; }

function getIterator(x) {
    if (x === null || x === void 0) throw notIterable(x);
    var m = x[ITER];
    if (typeof m !== 'function') throw notIterable(x);
    var it = apply(m, x, []);
    if (!isObject(it)) throw new TypeErr('Result of the Symbol.iterator method is not an object');
    return it;
}

/* IteratorClose after an abrupt completion: errors of return() are ignored. */
function closeQuietly(it) {
    try {
        var r = it['return'];
        if (r !== void 0 && r !== null) apply(r, it, []);
    } catch (e) { /* the original error wins */ }
}
/* IteratorClose after a normal early exit: return() must give an object. */
function close(it) {
    var r = it['return'];
    if (r === void 0 || r === null) return;
    if (!isObject(apply(r, it, []))) throw new TypeErr('iterator.return() did not return an object');
}

var MAP_NEXT = rt.coll.mapNext, SET_NEXT = rt.coll.setNext;

/* Calls fn(value) for every value of the iterable x, stopping (and closing
 * the iterator) when fn returns true, closing it when fn throws. Arrays with
 * the built-in iterator, strings and arguments objects are read by index
 * (the same values in the same order, without iterator objects). */
function iterate(x, fn) {
    var i, m = x === null || x === void 0 ? undefined : x[ITER];
    if (m === arrayValues) {
        for (i = 0; i < toLength(x.length); i++) if (fn(x[i])) return;
        return;
    }
    if (m === stringIter && typeof x === 'string') {
        for (i = 0; i < x.length;) {
            var c = codePointAt(x, i);
            i += c.length;
            if (fn(c)) return;
        }
        return;
    }
    if ((m === void 0 || m === null) && isObject(x) && isArguments(x)) {
        for (i = 0; i < x.length; i++) if (fn(x[i])) return;
        return;
    }
    var it = getIterator(x), next = it.next, step, stop;
    if (next === MAP_NEXT || next === SET_NEXT) { /* Map and Set: stepped in C, no result objects */
        var cstep = next === MAP_NEXT ? rt.coll.mapStep : rt.coll.setStep, rec = [void 0];
        while (cstep(it, rec)) {
            try { stop = fn(rec[0]); } catch (e) { closeQuietly(it); throw e; }
            if (stop) { close(it); return; }
        }
        return;
    }
    for (;;) {
        step = apply(next, it, []);
        if (!isObject(step)) throw new TypeErr('Iterator result ' + what(step) + ' is not an object');
        if (step.done) return;
        try { stop = fn(step.value); } catch (e) { closeQuietly(it); throw e; }
        if (stop) { close(it); return; }
    }
}

rt.lib = lib;
rt.blame = blame;
rt.TypeErr = TypeErr;
rt.RangeErr = RangeErr;
rt.install = install;
rt.native = native;
rt.useNative = useNative;
rt.isObject = isObject;
rt.what = what;
rt.notIterable = notIterable;
rt.toObject = toObject;
rt.toInteger = toInteger;
rt.toLength = toLength;
rt.relIndex = relIndex;
rt.requireFn = requireFn;
rt.IteratorPrototype = IterProto;
rt.tag = tag;
rt.makeIter = makeIter;
rt.iterState = iterState;
rt.getIterator = getIterator;
rt.iterate = iterate;
