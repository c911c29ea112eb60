/* Language helpers called by lowered code (sandbox/lower/): iteration
 * (for-of, spread, destructuring), object spread and rest, classes (super,
 * methods, private names), tagged templates, named regex groups, and
 * generators and async generators on coroutines. Plain ES5; every helper
 * is a non-enumerable global named __*; built-ins are captured here, before
 * any program runs. */
var ITER = Symbol.iterator;
if (!Symbol.asyncIterator) rt.def(Symbol, 'asyncIterator', Symbol('Symbol.asyncIterator'));
var AITER = Symbol.asyncIterator;
var isArray = rt.isArray, hasOwn = rt.hasOwn, apply = rt.apply, def = rt.def;
var TypeErr = rt.TypeError, Str = rt.String;
var getProto = Object.getPrototypeOf, setProto = Object.setPrototypeOf, create = Object.create;
var defProp = Object.defineProperty, getDesc = Object.getOwnPropertyDescriptor;
var ownNames = Object.getOwnPropertyNames, ownSyms = Object.getOwnPropertySymbols;
var objKeys = Object.keys, freeze = Object.freeze, construct = Reflect.construct;
var isView = ArrayBuffer.isView;
var propEnum = Object.prototype.propertyIsEnumerable, toStr = rt.objectToString;
var fnToString = rt.fnToString, slice = Array.prototype.slice;
var Thread = rt.Thread, resume = rt.resume, yld = rt.yield;
var newP = rt.newP, toP = rt.toP, resolveP = rt.resolveP, rejectP = rt.rejectP, onSettled = rt.onSettled;

function isObject(x) { return x !== null && (typeof x === 'object' || typeof x === 'function'); }
function describe(x) {
    if (typeof x === 'string') return '"' + x + '"';
    if (typeof x === 'function') return 'function';
    return x === null ? 'null' : typeof x === 'object' ? 'object' : Str(x);
}
function notIterable(x) { return new TypeErr(describe(x) + ' is not iterable'); }

/* ---- iteration ------------------------------------------------------------------ */

function ArrayIter(a) { this.a = a; this.i = 0; }
def(ArrayIter.prototype, 'next', function () {
    var a = this.a;
    if (a && this.i < a.length) return { value: a[this.i++], done: false };
    this.a = null;
    return { value: void 0, done: true };
});
def(ArrayIter.prototype, ITER, function () { return this; });

function StringIter(s) { this.s = s; this.i = 0; }
def(StringIter.prototype, 'next', function () {
    var s = this.s, i = this.i;
    if (s === null || i >= s.length) { this.s = null; return { value: void 0, done: true }; }
    var c = s.charCodeAt(i), n = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        var d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) n = 2;
    }
    this.i = i + n;
    return { value: s.substr(i, n), done: false };
});
def(StringIter.prototype, ITER, function () { return this; });

if (typeof Array.prototype[ITER] !== 'function')
    def(Array.prototype, ITER, function () { return new ArrayIter(this); });
if (typeof String.prototype[ITER] !== 'function')
    def(String.prototype, ITER, function () { return new StringIter(Str(this)); });

/* The for-of fast path tests arrays with a property read (no call). */
defProp(Array.prototype, '__arr$', { value: true });
/* An array iterates by index while its iterator is the built-in one (one
 * property read, instead of an own-property call: ~3,500 instructions per
 * destructuring); a subclass or a program that replaced it gets its own.
 * 70_iter.js installs the final built-in and reports it here. */
var ARRAY_ITER = Array.prototype[ITER];
rt.setArrayIter = function (f) { ARRAY_ITER = f; };
/* A string is read by code point while String.prototype[Symbol.iterator] is
 * the built-in one (70_iter.js reports it); a replacement is called. */
var STRING_ITER = String.prototype[ITER];
rt.setStringIter = function (f) { STRING_ITER = f; };

function isArguments(x) { return toStr.call(x) === '[object Arguments]'; }


/* The iterator of x, or null when x is an array (or arguments) to be read by
 * index: the fast path of for-of, spread and destructuring. */
function getIter(x) {
    if (isArray(x) && x[ITER] === ARRAY_ITER) return null;
    if (x === null || x === void 0) throw notIterable(x);
    var m = x[ITER];
    if (m === STRING_ITER && typeof x === 'string') return new StringIter(x);
    return iterFrom(x, m);
}
/* GetIterator's rest, once x[Symbol.iterator] has been read (as m). */
function iterFrom(x, m) {
    if (typeof m !== 'function') {
        if (isArguments(x) || isView(x)) return null;
        throw notIterable(x);
    }
    var it = apply(m, x, []);
    if (!isObject(it)) throw new TypeErr('Result of the Symbol.iterator method is not an object');
    return it;
}

/* for-of over anything but an array (sandbox/lower/emit_loop.c): a record
 * the loop reads like an array, `$a[$i++]` while `$i < $a.length`, holding
 * one value in slot 0; __more fetches the next one. __o$: the iterator may
 * be closed (false once exhausted, closed, or when its next() threw); the
 * name keeps array-likes, which __more and __done also see, out. next is
 * read once, as GetIterator does. */
var NOARGS = freeze([]);
function OfRec(it) { this.i = it; this.n = it.next; this.__o$ = true; this.length = 1; }

/* Map and Set iterators step in C without a result object per value
 * (sandbox/worker/collections.c): next is theirs, step does what it does. */
var MAP_NEXT = rt.coll.mapNext, MAP_STEP = rt.coll.mapStep;
var SET_NEXT = rt.coll.setNext, SET_STEP = rt.coll.setStep;
/* Likewise the RegExp String Iterator's next and step, set by 74_string.js. */
var RSI = rt.rsi = { next: null, step: null };

/* for-of over a string: a record of up to 64 code points at a time (the
 * string iterator's values), refilled by __more; s marks it. */
function StrRec(s) { this.s = s; this.p = 0; this.__o$ = true; this.length = 0; }
function strFill(r) {
    var s = r.s, p = r.p, n = s.length, k = 0;
    while (p < n && k < 64) {
        var c = s.charCodeAt(p), w = 1;
        if (c >= 0xd800 && c <= 0xdbff && p + 1 < n) {
            var d = s.charCodeAt(p + 1);
            if (d >= 0xdc00 && d <= 0xdfff) w = 2;
        }
        r[k++] = w === 1 ? s.charAt(p) : s.substr(p, 2);
        p += w;
    }
    r.p = p;
    r.length = k;
    return k > 0;
}

/* The next value into slot 0; false when done (or r is not a record). */
function ofMore(r) {
    if (r.__o$ !== true) return false;
    if (r.s !== void 0) {
        if (strFill(r)) return true;
        r.__o$ = false;
        return false;
    }
    r.__o$ = false;
    var n = r.n;
    if (n === MAP_NEXT || n === SET_NEXT) {
        if (!(n === MAP_NEXT ? MAP_STEP : SET_STEP)(r.i, r)) return false;
        r.__o$ = true;
        return true;
    }
    if (n === RSI.next) { /* matchAll's iterator (74_string.js) */
        if (!RSI.step(r.i, r)) return false;
        r.__o$ = true;
        return true;
    }
    var s = apply(n, r.i, NOARGS);
    if (s === null || (typeof s !== 'object' && typeof s !== 'function'))
        throw new TypeErr('Iterator result ' + describe(s) + ' is not an object');
    if (s.done) return false;
    r[0] = s.value;
    r.__o$ = true;
    return true;
}
def(G, '__more', ofMore);

/* for-of: array-likes (arguments, typed arrays) as they are, else a record
 * holding the first value (the first next() is the loop's first step) */
def(G, '__of', function (x) {
    var it;
    if (typeof x === 'string') {
        var m = x[ITER];
        if (m === STRING_ITER) {
            var sr = new StrRec(x);
            if (!strFill(sr)) sr.__o$ = false;
            return sr;
        }
        it = iterFrom(x, m);
    } else {
        it = getIter(x);
    }
    if (it === null) return x;
    var r = new OfRec(it);
    if (!ofMore(r)) r.length = 0;
    return r;
});
/* for-of left early (break, return, throw): close an open iterator */
def(G, '__done', function (r) {
    if (r.__o$ === true) {
        r.__o$ = false;
        if (r.s === void 0) closeIter(r.i);
    }
});

function iterObject(x) {
    var it = getIter(x);
    return it === null ? new ArrayIter(x) : it;
}

function closeIter(it) {
    var r = it['return'];
    if (r === void 0 || r === null) return void 0;
    var res = apply(r, it, []);
    if (!isObject(res) && !(res && typeof res.then === 'function'))
        throw new TypeErr('Iterator result ' + describe(res) + ' is not an object');
    return res;
}
def(G, '__closeIter', closeIter);

/* for await: an async iterator, or a sync one whose values are awaited. */
def(G, '__asyncIter', function (x) {
    if (x !== null && x !== void 0) {
        var m = x[AITER];
        if (m !== void 0 && m !== null) {
            var ait = apply(m, x, []);
            if (!isObject(ait)) throw new TypeErr('Result of the Symbol.asyncIterator method is not an object');
            var anext = ait.next; /* read once, as GetIterator does */
            return {
                raw: ait,
                next: function (v) { return apply(anext, ait, arguments.length ? [v] : []); },
                'return': function (v) {
                    var r = ait['return'];
                    if (r === void 0 || r === null) return toP(void 0);
                    return apply(r, ait, arguments.length ? [v] : []);
                }
            };
        }
    }
    var it = iterObject(x), next = it.next;
    return {
        raw: null,
        sync: it,
        next: function (v) {
            var s = apply(next, it, [v]);
            if (!isObject(s)) throw new TypeErr('Iterator result ' + describe(s) + ' is not an object');
            var done = !!s.done;
            return toP(s.value).then(function (value) { return { value: value, done: done }; });
        },
        'return': function (v) {
            var r = it['return'];
            if (r === void 0 || r === null) return toP({ value: v, done: true });
            return toP(apply(r, it, [v]));
        }
    };
});

/* Array destructuring (sandbox/lower/emit_pattern.c), read lazily as the
 * pattern assigns: `$r = __adi(x)` is x itself when x is an array read by
 * index (then `$r === x` and the elements are `$r[i]`), else a record whose
 * values __adv reads one at a time; __adr reads the rest, __adc closes the
 * iterator when the pattern left it open, and __adx closes the open records
 * of a statement that threw (the statement's own error wins). */
function DRec(it) { this.i = it; this.n = it.next; this.o = true; }
def(G, '__adi', function (x) {
    /* the common case first: a plain array (two property reads, no call) */
    if (x !== null && x !== void 0 && x.__arr$ === true && x[ITER] === ARRAY_ITER) return x;
    var it = getIter(x);
    if (it === null) return isArray(x) ? x : new DRec(new ArrayIter(x));
    return new DRec(it);
});
function adNext(r) {
    if (r.o !== true) return void 0;
    r.o = false; /* a throwing next(), done or value leaves the iterator done */
    var s = apply(r.n, r.i, NOARGS);
    if (!isObject(s)) throw new TypeErr('Iterator result ' + describe(s) + ' is not an object');
    if (s.done) return void 0;
    var v = s.value;
    r.o = true;
    return v;
}
def(G, '__adv', adNext);
def(G, '__adr', function (r) {
    var out = [], v;
    while (r.o === true) {
        v = adNext(r);
        if (r.o === true) out[out.length] = v;
    }
    return out;
});
def(G, '__adc', function (r) {
    if (r.o === true) {
        r.o = false;
        closeIter(r.i);
    }
});
def(G, '__adx', function (e) {
    for (var k = arguments.length - 1; k > 0; k--) {
        var r = arguments[k];
        if (!(r instanceof DRec) || r.o !== true) continue;
        r.o = false;
        if (e instanceof GenReturn) { /* a generator's return() is no error */
            closeIter(r.i);
            continue;
        }
        try {
            var m = r.i['return'];
            if (m !== void 0 && m !== null) apply(m, r.i, NOARGS);
        } catch (ignored) { /* the statement's error wins */ }
    }
    throw e;
});

/* ToPropertyKey: a computed key of an object pattern, taken before the
 * target's reference is evaluated. */
/* ToPropertyKey: a symbol, or a string (an object's Symbol.toPrimitive may give a symbol). */
var TOPRIM = Symbol.toPrimitive;
def(G, '__pk', function (k) {
    if (typeof k === 'symbol') return k;
    if (isObject(k) && TOPRIM) {
        var f = k[TOPRIM];
        if (f !== void 0 && f !== null) {
            if (typeof f !== 'function') throw new TypeErr('Symbol.toPrimitive is not a function');
            var p = apply(f, k, ['string']);
            if (isObject(p)) throw new TypeErr('Cannot convert object to primitive value');
            return typeof p === 'symbol' ? p : Str(p);
        }
        /* OrdinaryToPrimitive, hint string: toString, then valueOf */
        var names = ['toString', 'valueOf'];
        for (var i = 0; i < 2; i++) {
            var m = k[names[i]];
            if (typeof m !== 'function') continue;
            var v = apply(m, k, []);
            if (!isObject(v)) return typeof v === 'symbol' ? v : Str(v);
        }
        throw new TypeErr('Cannot convert object to primitive value');
    }
    return Str(k);
});

/* Spread: appends every value of x to arr. */
def(G, '__sp', function (arr, x) {
    var it = getIter(x), n = arr.length, i;
    if (it === null) {
        for (i = 0; i < x.length; i++) arr[n++] = x[i];
        return arr;
    }
    var next = it.next;
    if (next === MAP_NEXT || next === SET_NEXT) { /* no result object per value */
        var step = next === MAP_NEXT ? MAP_STEP : SET_STEP, rec = [void 0];
        while (step(it, rec)) arr[n++] = rec[0];
        return arr;
    }
    if (next === RSI.next) { /* [...s.matchAll(re)] */
        var rrec = [void 0];
        while (RSI.step(it, rrec)) arr[n++] = rrec[0];
        return arr;
    }
    for (var s; !(s = apply(next, it, [])).done;) arr[n++] = s.value;
    return arr;
});

/* ---- objects ---------------------------------------------------------------------- */

function setData(o, k, v) {
    if (k === '__proto__') defProp(o, k, { value: v, writable: true, enumerable: true, configurable: true });
    else o[k] = v;
}

/* Object spread: own enumerable properties (strings, then symbols). __os is
 * the native rt.objectSpread (sandbox/duktape/fastpaths.inc), which copies plain
 * objects itself and calls this for everything else. */
def(G, '__os', rt.objectSpread);
rt.objectSpreadSlow = function (target, src) {
    if (src === null || src === void 0) return target;
    var o = Object(src), keys = objKeys(o), n = keys.length, i, k;
    for (i = 0; i < n; i++) {
        k = keys[i];
        if (k === '__proto__') setData(target, k, o[k]);
        else target[k] = o[k];
    }
    var syms = ownSyms(o);
    for (i = 0; i < syms.length; i++)
        if (propEnum.call(o, syms[i])) setData(target, syms[i], o[syms[i]]);
    return target;
};

/* Object literal run after a spread: its own properties as defined. */
def(G, '__ol', function (target, lit) {
    var names = ownNames(lit).concat(ownSyms(lit));
    for (var i = 0; i < names.length; i++) defProp(target, names[i], getDesc(lit, names[i]));
    return target;
});

/* {__proto__: v}: the literal made an own data property; v (an object or null)
 * becomes the prototype instead. */
def(G, '__protoLit', function (o) {
    var d = getDesc(o, '__proto__');
    if (d && 'value' in d) {
        delete o.__proto__;
        if (d.value === null || isObject(d.value)) setProto(o, d.value);
    }
    return o;
});

/* Object-literal methods that use super: __needHome marks the function,
 * __setHome (once the literal is made) gives each marked method, getter and
 * setter of the object its home object and its name; super.x in the method
 * reads from __homeProto(itself), the home's prototype at that time. */
var HOME = Symbol('home object');
def(G, '__needHome', function (fn) {
    defProp(fn, HOME, { value: null, writable: true });
    return fn;
});
def(G, '__setHome', function (o) {
    var keys = ownNames(o).concat(ownSyms(o));
    for (var i = 0; i < keys.length; i++) {
        var k = keys[i], d = getDesc(o, k), fns = [d.value, d.get, d.set];
        for (var j = 0; j < 3; j++) {
            var fn = fns[j];
            if (typeof fn !== 'function' || !hasOwn(fn, HOME) || fn[HOME] !== null) continue;
            fn[HOME] = o;
            var n = keyName(k);
            defProp(fn, 'name', { value: j === 1 ? 'get ' + n : j === 2 ? 'set ' + n : n, configurable: true });
        }
    }
    return o;
});
def(G, '__homeProto', function (fn) { return getProto(fn[HOME]); });

/* A function's name from a property key: the string, or "[description]" for a
 * symbol ("" without a description). */
function keyName(k) {
    if (typeof k !== 'symbol') return Str(k);
    var d = Str(k).slice(7, -1);
    return d ? '[' + d + ']' : '';
}
/* [k]: function () {} (or an arrow, a class, a method) is named by k. */
def(G, '__fnameKey', function (fn, key) {
    if (!hasOwn(fn, 'name') || fn.name === '')
        defProp(fn, 'name', { value: keyName(key), configurable: true });
    return fn;
});

/* An accessor with a computed key in an object literal (enumerable). */
def(G, '__oacc', function (target, key, fn, kind) {
    if (!hasOwn(fn, 'name') || fn.name === '')
        defProp(fn, 'name', { value: (kind === 1 ? 'get ' : 'set ') + keyName(key), configurable: true });
    var d = getDesc(target, key), get = kind === 1 ? fn : d && d.get, set = kind === 2 ? fn : d && d.set;
    defProp(target, key, { get: get, set: set, enumerable: true, configurable: true });
    return target;
});

/* Rest of an object pattern: own enumerable properties not in keys. */
def(G, '__rest', function (src, keys) {
    if (src === null || src === void 0) throw new TypeErr('Cannot destructure ' + Str(src));
    var o = Object(src), out = {}, ks = objKeys(o), i, skip = {};
    for (i = 0; i < keys.length; i++) if (typeof keys[i] !== 'symbol') skip['$' + keys[i]] = true;
    for (i = 0; i < ks.length; i++) if (!skip['$' + ks[i]]) setData(out, ks[i], o[ks[i]]);
    var syms = ownSyms(o);
    for (i = 0; i < syms.length; i++) {
        if (!propEnum.call(o, syms[i])) continue;
        var skipped = false;
        for (var j = 0; j < keys.length; j++) if (keys[j] === syms[i]) skipped = true;
        if (!skipped) out[syms[i]] = o[syms[i]];
    }
    return out;
});

def(G, '__oc', function (v) {
    if (v === null || v === void 0) throw new TypeErr('Cannot destructure ' + Str(v) + ' as it is ' + Str(v) + '.');
    return v;
});
def(G, '__tdz', function (name) {
    throw new ReferenceError("Cannot access '" + name + "' before initialization");
});
/* What a let/const/class that a closure may read before its declaration holds
 * until then; a read or an assignment through such a closure checks it. */
var TDZ = freeze({});
def(G, '__TDZ', TDZ);
def(G, '__tdzSet', function (cur, v, name) {
    if (cur === TDZ) throw new ReferenceError("Cannot access '" + name + "' before initialization");
    return v;
});
def(G, '__constErr', function () { throw new TypeErr('Assignment to constant variable.'); });
def(G, '__construct', function (C, args) { return construct(C, args); });

/* Tagged templates: the strings array (frozen, with .raw), one per site. */
if (typeof String.raw !== 'function') {
    def(String, 'raw', function (strings) {
        var raw = Object(strings).raw, n = raw.length >>> 0, out = '';
        for (var i = 0; i < n; i++) {
            out += Str(raw[i]);
            if (i + 1 < n && i + 1 < arguments.length) out += Str(arguments[i + 1]);
        }
        return out;
    });
}
def(G, '__tpl', function (cooked, raw) {
    defProp(cooked, 'raw', { value: freeze(raw) });
    return freeze(cooked);
});

/* ---- classes ------------------------------------------------------------------------ */

var NATIVE = Symbol('native constructor');

/* Methods are non-enumerable; kind 1 getter, 2 setter (keeping the other
 * half), absent for a method. A function without its own name is named by the
 * key ("get k"/"set k" for accessors, "[description]" for a symbol). */
def(G, '__defm', function (obj, key, fn, kind) {
    if (!hasOwn(fn, 'name')) {
        var n = keyName(key);
        defProp(fn, 'name', { value: kind === 1 ? 'get ' + n : kind === 2 ? 'set ' + n : n, configurable: true });
    }
    if (!kind) {
        defProp(obj, key, { value: fn, writable: true, enumerable: false, configurable: true });
        return;
    }
    var d = getDesc(obj, key), get = kind === 1 ? fn : d && d.get, set = kind === 2 ? fn : d && d.set;
    defProp(obj, key, { get: get, set: set, enumerable: false, configurable: true });
});

/* A class's prototype property is not writable (a function's is). */
def(G, '__protoRO', function (C) { defProp(C, 'prototype', { writable: false }); });

def(G, '__inherits', function (C, S) {
    if (S !== null && typeof S !== 'function')
        throw new TypeErr('Class extends value ' + describe(S) + ' is not a constructor or null');
    if (S !== null && S.prototype !== null && !isObject(S.prototype))
        throw new TypeErr('Class extends value does not have valid prototype property');
    C.prototype = create(S === null ? null : S.prototype, {
        constructor: { value: C, writable: true, configurable: true }
    });
    if (S !== null) setProto(C, S);
});

function isNativeCtor(S) {
    var v = S[NATIVE];
    if (typeof v === 'boolean' && hasOwn(S, NATIVE)) return v;
    v = / \[native code\] \}$/.test(apply(fnToString, S, []));
    try { defProp(S, NATIVE, { value: v }); } catch (e) { /* frozen */ }
    return v;
}

/* super(...args) in a derived constructor: the parent runs on self, or
 * built-ins (Error, Array, Map...) construct and take self's prototype. */
function superCall(S, self, args) {
    if (S === null) throw new TypeErr('Super constructor null of anonymous class is not a constructor');
    if (isNativeCtor(S)) {
        var o = construct(S, slice.call(args));
        setProto(o, getProto(self));
        return o;
    }
    var r = apply(S, self, args);
    return isObject(r) ? r : self;
}
def(G, '__super', superCall);

/* super.x = v (OrdinarySet from super's object with this as the receiver): a
 * setter found on the way runs on this; otherwise this gets (or updates) an
 * own data property, whatever accessor this itself has. */
def(G, '__superSet', function (proto, key, v, receiver) {
    for (var o = proto; o !== null && o !== void 0; o = getProto(o)) {
        var d = getDesc(o, key);
        if (!d) continue;
        if (d.get || d.set) {
            if (!d.set) throw new TypeErr("Cannot set property " + Str(key) + " which has only a getter");
            apply(d.set, receiver, [v]);
            return v;
        }
        if (!d.writable) throw new TypeErr("Cannot assign to read only property '" + Str(key) + "'");
        break;
    }
    var own = getDesc(receiver, key);
    if (own && !('value' in own)) throw new TypeErr("Cannot assign to property " + Str(key) + " of the object: it is an accessor");
    if (own) defProp(receiver, key, { value: v });
    else defProp(receiver, key, { value: v, writable: true, enumerable: true, configurable: true });
    return v;
});

/* super.x read: through accessors, with this as the receiver. */
def(G, '__superGet', function (proto, key, receiver) {
    for (var o = proto; o !== null && o !== void 0; o = getProto(o)) {
        var d = getDesc(o, key);
        if (d) return d.get ? apply(d.get, receiver, []) : d.value;
    }
    return void 0;
});

/* The end of a derived constructor: super() must have run. */
function thisInit(self) {
    if (self === void 0)
        throw new ReferenceError("Must call super constructor in derived class before accessing 'this' or returning from derived constructor");
    return self;
}
def(G, '__thisInit', thisInit);
/* super() where an arrow may call it: called again, the super constructor runs
 * (on an object of its own), then this throws */
def(G, '__superOnce', function (cur, S, self, args) {
    if (cur === void 0) return superCall(S, self, args);
    superCall(S, create(getProto(self)), args);
    throw new ReferenceError('Super constructor may only be called once');
});

/* A function's ES2015 .length (parameters before the first default), set once
 * when it is created: the lowered function has all of them as formals. */
def(G, '__fnlen', function (fn, n) {
    defProp(fn, 'length', { value: n });
    return fn;
});

/* A private method's or accessor's name ("#m", "get #m"), set when the class is evaluated. */
def(G, '__fname', function (fn, name) {
    defProp(fn, 'name', { value: name });
    return fn;
});

/* return v in a derived constructor: an object, or this when v is undefined. */
def(G, '__ctorRet', function (v, self) {
    if (isObject(v)) return v;
    if (v !== void 0) throw new TypeErr('Derived constructors may only return object or undefined');
    return thisInit(self);
});

def(G, '__noNew', function (name) {
    throw new TypeErr("Class constructor " + name + " cannot be invoked without 'new'");
});

/* Function.prototype's caller and arguments are accessors that throw (ES2015
 * AddRestrictedFunctionProperties); functions, arrows and methods have no own
 * ones, so reading fn.caller or fn.arguments throws a TypeError. */
(function () {
    var thrower = function () {
        throw new TypeErr("'caller' and 'arguments' are restricted function properties and cannot be accessed in this context.");
    };
    Object.preventExtensions(thrower);
    var FP = Function.prototype;
    if (!getDesc(FP, 'caller'))
        defProp(FP, 'caller', { get: thrower, set: thrower, enumerable: false, configurable: true });
    if (!getDesc(FP, 'arguments'))
        defProp(FP, 'arguments', { get: thrower, set: thrower, enumerable: false, configurable: true });
})();

/* Private names: per-class symbols, keys of own non-enumerable properties that
 * the class installs on each instance (on the constructor for static ones):
 * fields writable, methods read-only, accessors with a throwing half when one
 * is missing. An access checks that the object has its own (__pchk). */
function privAdd(obj, key, desc) {
    if (hasOwn(obj, key))
        throw new TypeErr('Cannot initialize ' + String(key).slice(7, -1) + ' twice on the same object');
    defProp(obj, key, desc);
}
def(G, '__pname', function (name) { return Symbol('#' + name); });
def(G, '__pdef', function (obj, key, v) {
    privAdd(obj, key, { value: v, writable: true, enumerable: false, configurable: false });
});
def(G, '__pmeth', function (obj, key, fn) {
    privAdd(obj, key, { value: fn, writable: false, enumerable: false, configurable: false });
});
function noGetter() { throw new TypeErr("'" + this + "' was defined without a getter"); }
function noSetter() { throw new TypeErr("'" + this + "' was defined without a setter"); }
def(G, '__pacc', function (obj, key, get, set) {
    var name = String(key).slice(7, -1);
    privAdd(obj, key, { get: get || function () { return apply(noGetter, name, []); },
        set: set || function () { apply(noSetter, name, []); }, enumerable: false, configurable: false });
});
var ownProp = rt.hasOwnProperty;
function pchk(obj, key) { /* on every private access: no helper calls */
    if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function') || !apply(ownProp, obj, [key]))
        throw new TypeErr('Cannot access ' + String(key).slice(7, -1) + ' of an object whose class did not declare it');
    return obj;
}
def(G, '__pchk', pchk);
def(G, '__pset', function (obj, key, v) {
    'use strict'; /* a method is read-only: assigning it throws */
    pchk(obj, key)[key] = v;
    return v;
});

/* A template substitution that is an object or function (sandbox/lower/
 * emit_lit.c): ToString, whose ToPrimitive asks toString before valueOf. */
def(G, '__ts', function (x) { return Str(x); });

def(G, '__privIn', function (obj, key) {
    if (!isObject(obj)) throw new TypeErr("Cannot use 'in' operator to search for a private field in " + describe(obj));
    return hasOwn(obj, key);
});

/* ---- regular expressions with named groups ---------------------------------------- */

var GROUPS = Symbol('regexp group names');
var reExec = RegExp.prototype.exec, strMatch = String.prototype.match;
var strReplace = String.prototype.replace;

function addGroups(re, m) {
    var names = re[GROUPS];
    if (!m || !names) return m;
    var g = create(null);
    for (var i = 0; i < names.length; i += 2) g[names[i]] = m[names[i + 1]];
    m.groups = g;
    return m;
}

def(G, '__re', function (re, names) {
    defProp(re, GROUPS, { value: names });
    return re;
});
/* The C exec of 74_string.js (rt.host.regexpExec) calls this one for a
 * RegExp that has GROUPS, which it finds as this function's rt.HIDDEN. */
function execGroups(s) {
    var m = apply(reExec, this, [s]);
    return this[GROUPS] ? addGroups(this, m) : m;
}
execGroups[rt.HIDDEN] = GROUPS;
def(RegExp.prototype, 'exec', execGroups);
def(String.prototype, 'match', function (re) {
    if (re instanceof RegExp && re[GROUPS] && !re.global) return re.exec(Str(this));
    return apply(strMatch, this, arguments);
});
def(String.prototype, 'replace', function (re, rep) {
    if (re instanceof RegExp && re[GROUPS]) {
        var names = re[GROUPS];
        if (typeof rep === 'function') {
            var f = rep;
            rep = function () {
                var g = create(null);
                for (var i = 0; i < names.length; i += 2) g[names[i]] = arguments[names[i + 1]];
                var args = slice.call(arguments);
                args[args.length] = g;
                return apply(f, void 0, args);
            };
        } else {
            rep = apply(strReplace, Str(rep), [/\$<([^>]*)>/g, function (all, name) {
                for (var i = 0; i < names.length; i += 2) if (names[i] === name) return '$' + names[i + 1];
                return '';
            }]);
        }
        return apply(strReplace, this, [re, rep]);
    }
    return apply(strReplace, this, arguments);
});

/* ---- generators on coroutines -------------------------------------------------------- */

function GenReturn(v) { this.v = v; }

function Gen(body, self, args) {
    this.body = body; this.self = self; this.args = args;
    this.state = 0; /* 0 new, 1 suspended, 2 running, 3 done */
    this.t = null; this.st = null;
}

function genStart(g) {
    var st = { done: false, threw: false, v: void 0 };
    var body = g.body, self = g.self, args = g.args;
    g.st = st;
    g.t = new Thread(function () {
        try { st.v = apply(body, self, args); }
        catch (e) {
            if (e instanceof GenReturn) st.v = e.v;
            else { st.threw = true; st.v = e; }
        }
        st.done = true;
    });
    g.body = g.self = g.args = null;
}

function genResume(g, v, isErr) {
    if (g.state === 2) throw new TypeErr('Generator is already running');
    if (g.state === 3 || (g.state === 0 && isErr)) {
        g.state = 3;
        if (!isErr) return { value: void 0, done: true };
        if (v instanceof GenReturn) return { value: v.v, done: true };
        throw v;
    }
    if (g.state === 0) genStart(g);
    g.state = 2;
    var y, st = g.st;
    try { y = resume(g.t, v, isErr); }
    catch (e) { g.state = 3; g.t = null; throw e; }
    if (!st.done) { g.state = 1; return { value: y, done: false }; }
    g.state = 3;
    g.t = null;
    if (st.threw) throw st.v;
    return { value: st.v, done: true };
}

def(Gen.prototype, 'next', function (v) { return genResume(this, v, false); });
def(Gen.prototype, 'throw', function (e) { return genResume(this, e, true); });
def(Gen.prototype, 'return', function (v) { return genResume(this, new GenReturn(v), true); });
def(Gen.prototype, ITER, function () { return this; });
def(Gen.prototype, Symbol.toStringTag, 'Generator');

def(G, '__gen', function (body, self, args) { return new Gen(body, self, args); });
def(G, '__yield', function (v) { return yld(v); });
/* In generator bodies every catch clause starts here: return() unwinds
 * through finally blocks but is never caught. */
def(G, '__gcatch', function (e) { if (e instanceof GenReturn) throw e; });

def(G, '__yieldStar', function (x) {
    var it = iterObject(x), next = it.next, received, mode = 0, r;
    for (;;) {
        if (mode === 0) {
            r = apply(next, it, [received]);
        } else if (mode === 1) {
            var th = it['throw'];
            if (th === void 0 || th === null) {
                closeIter(it);
                throw new TypeErr("The iterator does not provide a 'throw' method");
            }
            r = apply(th, it, [received]);
        } else {
            var rf = it['return'];
            if (rf === void 0 || rf === null) throw received;
            r = apply(rf, it, [received.v]);
        }
        if (!isObject(r)) throw new TypeErr('Iterator result ' + describe(r) + ' is not an object');
        if (r.done) { /* read once: done, then value */
            if (mode === 2) throw new GenReturn(r.value);
            return r.value;
        }
        try { received = yld(r.value); mode = 0; }
        catch (e) { received = e; mode = e instanceof GenReturn ? 2 : 1; }
    }
});

/* ---- async generators ------------------------------------------------------------------ */

function AwaitTag(v) { this.v = v; }

function AGen(body, self, args) {
    Gen.call(this, body, self, args);
    this.q = [];
    this.busy = false;
}

function agSettle(g, req, ok, value) {
    if (ok) resolveP(req.p, value); else rejectP(req.p, value);
    g.busy = false;
    agDrive(g);
}

/* Resumes the body for the request at the head of the queue and handles
 * what it yields: an await (resume later), a yield (settle the request) or
 * its end. */
function agStep(g, v, isErr) {
    var st = g.st, y;
    g.busy = true;
    g.state = 2;
    try { y = resume(g.t, v, isErr); }
    catch (e) { g.state = 3; agSettle(g, g.q.shift(), false, e); return; }
    if (st.done) {
        g.state = 3;
        g.t = null;
        var req = g.q.shift();
        if (st.threw) agSettle(g, req, false, st.v);
        else agSettle(g, req, true, { value: st.v, done: true });
        return;
    }
    if (y instanceof AwaitTag) {
        onSettled(toP(y.v), function (ok, value) { agStep(g, value, !ok); });
        return;
    }
    g.state = 1;
    agSettle(g, g.q.shift(), true, { value: y, done: false });
}

function agDrive(g) {
    while (!g.busy && g.q.length) {
        var req = g.q[0];
        if (g.state === 0 && req.k !== 0) g.state = 3;
        if (g.state === 3) {
            g.q.shift();
            if (req.k === 0) resolveP(req.p, { value: void 0, done: true });
            else if (req.k === 1) rejectP(req.p, req.v);
            else {
                g.busy = true;
                (function (r) {
                    onSettled(toP(r.v), function (ok, value) {
                        agSettle(g, r, ok, ok ? { value: value, done: true } : value);
                    });
                })(req);
            }
            continue;
        }
        if (g.state === 0) genStart(g);
        if (req.k === 0) agStep(g, req.v, false);
        else if (req.k === 1) agStep(g, req.v, true);
        else {
            /* return(v) awaits v, then returns at the yield point */
            g.busy = true;
            (function (r) {
                onSettled(toP(r.v), function (ok, value) {
                    agStep(g, ok ? new GenReturn(value) : value, true);
                });
            })(req);
        }
    }
}

function agRequest(g, k, v) {
    var p = newP();
    g.q[g.q.length] = { k: k, v: v, p: p };
    agDrive(g);
    return p;
}

def(AGen.prototype, 'next', function (v) { return agRequest(this, 0, v); });
def(AGen.prototype, 'throw', function (e) { return agRequest(this, 1, e); });
def(AGen.prototype, 'return', function (v) { return agRequest(this, 2, v); });
def(AGen.prototype, AITER, function () { return this; });
def(AGen.prototype, Symbol.toStringTag, 'AsyncGenerator');

def(G, '__agen', function (body, self, args) { return new AGen(body, self, args); });
function agAwait(v) { return yld(new AwaitTag(v)); }
def(G, '__agAwait', agAwait);
def(G, '__agYield', function (v) { return yld(agAwait(v)); });
/* yield* in an async generator: next/throw/return forwarded to the inner
 * async iterator (a sync one has its results awaited), values passed on
 * without a second await. */
function agDelegate(it, name, v) {
    var target = it.raw || it.sync, m = target[name];
    if (m === void 0 || m === null) return void 0;
    var r = agAwait(apply(m, target, [v]));
    if (!it.raw && isObject(r)) {
        /* the async-from-sync wrapper reads done, then value */
        var done = !!r.done;
        r = { value: agAwait(r.value), done: done };
    }
    return r;
}

def(G, '__agYieldStar', function (x) {
    var it = G.__asyncIter(x), received, mode = 0, r;
    for (;;) {
        if (mode === 0) {
            r = agAwait(it.next(received));
        } else if (mode === 1) {
            r = agDelegate(it, 'throw', received);
            if (r === void 0) {
                var c = agDelegate(it, 'return', void 0);
                if (c !== void 0 && !isObject(c)) throw new TypeErr('Iterator result is not an object');
                throw new TypeErr("The iterator does not provide a 'throw' method");
            }
        } else {
            r = agDelegate(it, 'return', received.v);
            if (r === void 0) throw received;
        }
        if (!isObject(r)) throw new TypeErr('Iterator result ' + describe(r) + ' is not an object');
        if (r.done) { /* read once: done, then value */
            if (mode === 2) throw new GenReturn(r.value);
            return r.value;
        }
        try { received = yld(r.value); mode = 0; }
        catch (e) { received = e; mode = e instanceof GenReturn ? 2 : 1; }
    }
});
