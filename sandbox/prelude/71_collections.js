/* Map, Set, WeakMap and WeakSet. Map and Set are the C hash table of
 * sandbox/worker/collections.c (insertion order, SameValueZero keys: NaN is
 * one key, -0 is +0, live iterators), given here their constructors,
 * prototypes, iterator prototypes and errors. WeakMap values live on the key
 * objects, in a record under rt.HIDDEN (keys that cannot take one, frozen
 * objects, go to a per-collection list). */
'use strict';
var S = rt.HIDDEN, ITER = Symbol.iterator, lib = rt.lib, def = rt.def, apply = rt.apply;
var create = rt.create, TypeErr = rt.TypeErr, isObject = rt.isObject, what = rt.what;
var iterate = rt.iterate, hasOwnProperty = rt.hasOwnProperty;
var splice = Array.prototype.splice;
var nextId = 1;

function dict() { return create(null); }

/* The private record of object o (a record r with r.o === o), created when
 * make is set; null when there is none or o cannot take one (non-extensible). */
function slot(o, make) {
    var s = o[S];
    if (s !== void 0 && s.o === o) return s;
    if (s !== void 0 && apply(hasOwnProperty, o, [S])) return initSlot(s, o); /* a promise's state */
    if (!make) return null;
    var prev = s;
    s = initSlot({}, o);
    try { o[S] = s; } catch (e) { return null; } /* strict mode: throws when frozen */
    if (apply(hasOwnProperty, o, [S])) return s;
    /* A Proxy forwards the hidden key to its target: undo, use the list. */
    if (prev === void 0) delete o[S]; else o[S] = prev;
    return null;
}
/* Own fields, so that a program adding Object.prototype.id changes nothing. */
function initSlot(s, o) {
    s.id = s.w = s.type = void 0;
    s.o = o;
    return s;
}
/* Private state of a WeakMap or WeakSet receiver, with a TypeError otherwise. */
function state(x, type, method) {
    var st = x !== null && (typeof x === 'object' || typeof x === 'function') ? x[S] : void 0;
    if (st === void 0 || st.o !== x || st.type !== type)
        throw new TypeErr('Method ' + type + '.prototype.' + method + ' called on incompatible receiver ' + what(x));
    return st;
}

/* ---- Map and Set: natives of sandbox/worker/collections.c ------------------------ */

var coll = rt.coll, arrayValues = Array.prototype.values, isArray = rt.isArray;

/* The errors the natives raise (they call back here, so that the messages
 * and the blamed line are those of the library's other errors). */
rt.collError = function (code, name, x) {
    switch (code) {
    case 'Map': case 'Set':
        return new TypeErr('Method ' + code + '.prototype.' + name + ' called on incompatible receiver ' + what(x));
    case 'iterator': return new TypeErr('next method called on incompatible receiver ' + what(x));
    case 'twice': return new TypeErr('cannot initialise ' + name + ' twice');
    case 'callback': return new TypeErr(what(x) + ' is not a function');
    case 'entry': return new TypeErr('Iterator value ' + what(x) + ' is not an entry object');
    default: return new TypeErr(what(x) + ' is not a Map or Set');
    }
};

function defineIterator(name, next) {
    var proto = create(rt.IteratorPrototype);
    rt.tag(proto, name);
    rt.lib(proto, 'next', next, 0);
    return proto;
}
coll.setup(defineIterator('Map Iterator', coll.mapNext), defineIterator('Set Iterator', coll.setNext));

/* Fills the new collection self from iterable: arrays with the built-in
 * iterator in C, anything else through the iteration protocol. */
function fill(self, iterable, adder, fast, entries) {
    if (fast && isArray(iterable) && iterable[ITER] === arrayValues) {
        coll.fill(self, iterable);
        return;
    }
    var put = coll.put;
    iterate(iterable, function (e) {
        if (entries) {
            if (!isObject(e)) throw new TypeErr('Iterator value ' + what(e) + ' is not an entry object');
            if (fast) put(self, e[0], e[1]);
            else apply(adder, self, [e[0], e[1]]);
        } else if (fast) put(self, e, e);
        else apply(adder, self, [e]);
    });
}

function size(fn) {
    rt.defineProperty(fn, 'name', { value: 'get size', writable: false, enumerable: false, configurable: true });
    rt.defineProperty(fn, 'length', { value: 0, writable: false, enumerable: false, configurable: true });
    return { get: fn, enumerable: false, configurable: true };
}

/* ---- Map ------------------------------------------------------------------ */

function Map(iterable) {
    if (!(this instanceof Map)) throw new TypeErr("Constructor Map requires 'new'");
    coll.init(this, 1);
    if (iterable === void 0 || iterable === null) return;
    var adder = this.set;
    if (typeof adder !== 'function') throw new TypeErr("'" + what(adder) + "' returned for property 'set' of object '#<Map>' is not a function");
    fill(this, iterable, adder, adder === coll.mapSet, true);
}
rt.native(Map);
var MP = Map.prototype;
lib(MP, 'get', coll.mapGet, 1);
lib(MP, 'set', coll.mapSet, 2);
lib(MP, 'has', coll.mapHas, 1);
lib(MP, 'delete', coll.mapDelete, 1);
lib(MP, 'clear', coll.mapClear, 0);
lib(MP, 'forEach', coll.mapForEach, 1);
lib(MP, 'keys', coll.mapKeys, 0);
lib(MP, 'values', coll.mapValues, 0);
lib(MP, 'entries', coll.mapEntries, 0);
rt.defineProperty(MP, 'size', size(coll.mapSize));
def(MP, ITER, MP.entries);
rt.tag(MP, 'Map');
var mapGet = coll.mapGet, mapHas = coll.mapHas;
rt.install(Map, {
    groupBy(items, cb) {
        rt.requireFn(cb);
        var m = new Map(), n = 0;
        iterate(items, function (v) {
            var key = cb(v, n++);
            if (apply(mapHas, m, [key])) { var list = apply(mapGet, m, [key]); list[list.length] = v; }
            else coll.put(m, key, [v]);
        });
        return m;
    }
});
def(G, 'Map', Map);

/* ---- Set ------------------------------------------------------------------ */

function Set(iterable) {
    if (!(this instanceof Set)) throw new TypeErr("Constructor Set requires 'new'");
    coll.init(this, 2);
    if (iterable === void 0 || iterable === null) return;
    var adder = this.add;
    if (typeof adder !== 'function') throw new TypeErr("'" + what(adder) + "' returned for property 'add' of object '#<Set>' is not a function");
    fill(this, iterable, adder, adder === coll.setAdd, false);
}
rt.native(Set);
var SP = Set.prototype;
lib(SP, 'add', coll.setAdd, 1);
lib(SP, 'has', coll.setHas, 1);
lib(SP, 'delete', coll.setDelete, 1);
lib(SP, 'clear', coll.setClear, 0);
lib(SP, 'forEach', coll.setForEach, 1);
lib(SP, 'values', coll.setValues, 0);
lib(SP, 'entries', coll.setEntries, 0);
rt.defineProperty(SP, 'size', size(coll.setSize));
def(SP, 'keys', SP.values);
def(SP, ITER, SP.values);
rt.tag(SP, 'Set');
def(G, 'Set', Set);

/* ---- WeakMap and WeakSet ------------------------------------------------------ */

/* A weak collection has a number; the value for key o lives in o's record
 * under that number. Keys that cannot carry a record go to a strong list. */
function weakKey(k, type) {
    if (!isObject(k)) throw new TypeErr('Invalid value used ' + (type === 'WeakMap' ? 'as weak map key' : 'in weak set'));
    return k;
}
function weakGet(st, k, make) {
    var s = slot(k, make);
    if (s === null) return null;
    return s.w || (make ? (s.w = dict()) : null);
}
function weakFrozen(st, k) {
    var f = st.f;
    if (f !== null) for (var i = 0; i < f.length; i += 2) if (f[i] === k) return i;
    return -1;
}
function weakSet(st, k, v) {
    var w = weakGet(st, k, true);
    if (w !== null) { w[st.wid] = v; return; }
    var i = weakFrozen(st, k), f = st.f || (st.f = []);
    if (i < 0) { i = f.length; f[i] = k; }
    f[i + 1] = v;
}
function weakHas(st, k) {
    if (!isObject(k)) return false;
    var w = weakGet(st, k, false);
    if (w !== null && st.wid in w) return true;
    return weakFrozen(st, k) >= 0;
}
function weakLookup(st, k) {
    if (!isObject(k)) return void 0;
    var w = weakGet(st, k, false);
    if (w !== null && st.wid in w) return w[st.wid];
    var i = weakFrozen(st, k);
    return i < 0 ? undefined : st.f[i + 1];
}
function weakDelete(st, k) {
    if (!isObject(k)) return false;
    var w = weakGet(st, k, false);
    if (w !== null && st.wid in w) { delete w[st.wid]; return true; }
    var i = weakFrozen(st, k);
    if (i < 0) return false;
    apply(splice, st.f, [i, 2]);
    return true;
}
function constructWeak(self, C, type) {
    if (!(self instanceof C)) throw new TypeErr("Constructor " + type + " requires 'new'");
    var st = slot(self, true);
    if (st === null || st.type !== void 0) throw new TypeErr('cannot initialise ' + type + ' twice');
    st.type = type;
    st.wid = 'w' + nextId++;
    st.f = null;
    return st;
}

function WeakMap(iterable) {
    var st = constructWeak(this, WeakMap, 'WeakMap');
    if (iterable === void 0 || iterable === null) return;
    var self = this, adder = self.set, fast = adder === weakMapSet;
    if (typeof adder !== 'function') throw new TypeErr("'" + what(adder) + "' returned for property 'set' of object '#<WeakMap>' is not a function");
    iterate(iterable, function (e) {
        if (!isObject(e)) throw new TypeErr('Iterator value ' + what(e) + ' is not an entry object');
        if (fast) weakSet(st, weakKey(e[0], 'WeakMap'), e[1]);
        else apply(adder, self, [e[0], e[1]]);
    });
}
rt.native(WeakMap);
var WMP = WeakMap.prototype;
rt.install(WMP, {
    'get'(k) { return weakLookup(state(this, 'WeakMap', 'get'), k); },
    'set'(k, v) {
        weakSet(state(this, 'WeakMap', 'set'), weakKey(k, 'WeakMap'), v);
        return this;
    },
    has(k) { return weakHas(state(this, 'WeakMap', 'has'), k); },
    'delete'(k) { return weakDelete(state(this, 'WeakMap', 'delete'), k); }
});
var weakMapSet = WMP.set;
rt.tag(WMP, 'WeakMap');
def(G, 'WeakMap', WeakMap);

function WeakSet(iterable) {
    var st = constructWeak(this, WeakSet, 'WeakSet');
    if (iterable === void 0 || iterable === null) return;
    var self = this, adder = self.add, fast = adder === weakSetAdd;
    if (typeof adder !== 'function') throw new TypeErr("'" + what(adder) + "' returned for property 'add' of object '#<WeakSet>' is not a function");
    iterate(iterable, function (v) {
        if (fast) weakSet(st, weakKey(v, 'WeakSet'), true);
        else apply(adder, self, [v]);
    });
}
rt.native(WeakSet);
var WSP = WeakSet.prototype;
rt.install(WSP, {
    add(v) {
        weakSet(state(this, 'WeakSet', 'add'), weakKey(v, 'WeakSet'), true);
        return this;
    },
    has(v) { return weakHas(state(this, 'WeakSet', 'has'), v); },
    'delete'(v) { return weakDelete(state(this, 'WeakSet', 'delete'), v); }
});
var weakSetAdd = WSP.add;
rt.tag(WSP, 'WeakSet');
def(G, 'WeakSet', WeakSet);

/* For other library files: the entries of a Map or Set (null for anything
 * else), and building a Map or Set without going through user-visible methods. */
/* Built-in constructors have the length of their required parameters. */
function length0(C) { rt.defineProperty(C, 'length', { value: 0, writable: false, enumerable: false, configurable: true }); }
length0(Map);
length0(Set);
length0(WeakMap);
length0(WeakSet);
/* ... and a prototype property that cannot be changed. */
function fixedPrototype(C) { rt.defineProperty(C, 'prototype', { writable: false, enumerable: false, configurable: false }); }
fixedPrototype(Map);
fixedPrototype(Set);
fixedPrototype(WeakMap);
fixedPrototype(WeakSet);

rt.collectionType = coll.type;
rt.collectionEntries = coll.entries;
rt.collectionPut = coll.put;
