/* Map, Set, WeakMap and WeakSet: insertion order, SameValueZero keys (NaN is
 * one key, -0 is +0), live iterators. Entries sit in arrays ("generations")
 * with one index per key type; object keys are found through an identity
 * number stamped on the object under rt.HIDDEN (objects that cannot take it,
 * frozen ones, fall back to a per-map list). Deleting leaves a hole that a
 * later compaction removes; iterators follow a forwarding link from the old
 * generation to the new one. WeakMap values live on the key objects. */
'use strict';
var S = rt.HIDDEN, ITER = Symbol.iterator, lib = rt.lib, def = rt.def, apply = rt.apply;
var create = rt.create, TypeErr = rt.TypeErr, isObject = rt.isObject, what = rt.what;
var iterate = rt.iterate, hasOwnProperty = rt.hasOwnProperty, makeIter = rt.makeIter, iterState = rt.iterState;
var EMPTY = {}; /* the key of a deleted entry */
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
/* The identity number of object o: undefined when it has none yet (and make
 * is not set), 0 when it cannot have one. */
function idOf(o, make) {
    var s = slot(o, make);
    if (s === null) return make ? 0 : void 0;
    if (s.id === void 0 && make) s.id = 'o' + nextId++; /* a string: no number conversion per lookup */
    return s.id;
}

/* ---- the shared store of Map and Set ---------------------------------------- */

function Gen(withValues) {
    this.k = [];
    this.v = withValues ? [] : null;
    this.next = null; /* the generation that replaced this one */
    this.map = null;  /* old position -> new position (null: all to 0) */
}

function initStore(st, withValues) {
    st.g = new Gen(withValues);
    st.size = 0;
    st.holes = 0;
    st.s = st.n = st.x = st.y = st.ids = st.f = null;
}

/* The index dictionary for key k and the property name k has in it. */
function findIn(st, k) {
    var d, id;
    if (typeof k === 'string') { /* the common key, first */
        d = st.s;
        if (d === null) return -1;
        id = d[k];
        return id === void 0 ? -1 : id;
    }
    switch (typeof k) {
    case 'string': d = st.s; break;
    case 'number': d = st.n; break; /* "0" for -0, "NaN" for NaN */
    case 'symbol': d = st.y; break;
    case 'object':
    case 'function':
        if (k === null) { d = st.x; break; }
        id = idOf(k, false);
        if (id === void 0 || id === 0) return findFrozen(st, k);
        d = st.ids;
        k = id;
        break;
    default: d = st.x; /* booleans, undefined */
    }
    if (d === null) return -1;
    var i = d[k];
    return i === void 0 ? -1 : i;
}
function findFrozen(st, k) {
    var f = st.f;
    if (f === null) return -1;
    for (var i = 0; i < f.length; i += 2) if (f[i] === k) return f[i + 1];
    return -1;
}

/* Records (i >= 0) or removes (i < 0) the position of key k. */
function index(st, k, i) {
    var d;
    switch (typeof k) {
    case 'string': d = st.s || (st.s = dict()); break;
    case 'number': d = st.n || (st.n = dict()); break;
    case 'symbol': d = st.y || (st.y = dict()); break;
    case 'object':
    case 'function':
        if (k === null) { d = st.x || (st.x = dict()); break; }
        var id = idOf(k, i >= 0);
        if (id === void 0 || id === 0) { indexFrozen(st, k, i); return; }
        d = st.ids || (st.ids = dict());
        k = id;
        break;
    default: d = st.x || (st.x = dict());
    }
    if (i >= 0) d[k] = i; else delete d[k];
}
function indexFrozen(st, k, i) {
    var f = st.f || (st.f = []);
    if (i >= 0) { f[f.length] = k; f[f.length] = i; return; }
    for (var j = 0; j < f.length; j += 2) {
        if (f[j] === k) {
            f[j] = f[f.length - 2]; f[j + 1] = f[f.length - 1];
            f.length -= 2;
            return;
        }
    }
}

function put(st, k, v) {
    var i = findIn(st, k), g = st.g;
    if (i < 0) {
        if (k === 0) k = 0; /* -0 becomes +0 */
        i = g.k.length;
        g.k[i] = k;
        index(st, k, i);
        st.size++;
    }
    if (g.v !== null) g.v[i] = v;
}

function remove(st, k) {
    var i = findIn(st, k);
    if (i < 0) return false;
    var g = st.g;
    index(st, g.k[i], -1);
    g.k[i] = EMPTY;
    if (g.v !== null) g.v[i] = void 0;
    st.size--;
    st.holes++;
    if (st.holes > 16 && st.holes > st.size) compact(st);
    return true;
}

/* Moves the live entries to a new generation; iterators follow old.next. */
function compact(st) {
    var old = st.g, ok = old.k, ov = old.v, n = ok.length, map = [], j = 0;
    initStore(st, ov !== null);
    var g = st.g, nk = g.k, nv = g.v;
    for (var i = 0; i < n; i++) {
        map[i] = j;
        var k = ok[i];
        if (k === EMPTY) continue;
        nk[j] = k;
        if (nv !== null) nv[j] = ov[i];
        index(st, k, j);
        j++;
    }
    map[n] = j;
    st.size = j;
    old.map = map;
    old.next = g;
}

function clear(st) {
    var old = st.g;
    initStore(st, old.v !== null);
    old.next = st.g;
}

/* The position and generation of cursor c ({g, i}) after any compaction. */
function follow(c) {
    var g = c.g, i = c.i;
    while (g.next !== null) {
        i = g.map === null ? 0 : g.map[i];
        g = g.next;
    }
    c.g = g;
    c.i = i;
    return g;
}

/* Advances cursor c to its next live entry: its position, or -1 at the end. */
function advance(c) {
    var g = c.g.next === null ? c.g : follow(c), keys = g.k, i = c.i;
    while (i < keys.length && keys[i] === EMPTY) i++;
    if (i >= keys.length) { c.i = i; return -1; }
    c.i = i + 1;
    return i;
}

/* forEach: the callback may add, delete or clear; the cursor follows. */
function forEachEntry(st, cb, thisArg, self) {
    var c = { g: st.g, i: 0 }, i;
    while ((i = advance(c)) >= 0) {
        var g = c.g, k = g.k[i], v = g.v === null ? k : g.v[i];
        if (thisArg === void 0) cb(v, k, self);
        else apply(cb, thisArg, [v, k, self]);
    }
}

/* Private state of a Map or Set receiver, with a TypeError otherwise. */
function state(x, type, method) {
    var st = x !== null && (typeof x === 'object' || typeof x === 'function') ? x[S] : void 0;
    if (st === void 0 || st.o !== x || st.type !== type)
        throw new TypeErr('Method ' + type + '.prototype.' + method + ' called on incompatible receiver ' + what(x));
    return st;
}

function construct(self, C, type, withValues) {
    if (!(self instanceof C)) throw new TypeErr("Constructor " + type + " requires 'new'");
    var st = slot(self, true);
    if (st === null || st.type !== void 0) throw new TypeErr('cannot initialise ' + type + ' twice');
    st.type = type;
    initStore(st, withValues);
    return st;
}

/* ---- iterators ------------------------------------------------------------- */

function defineIterator(name, type) {
    var proto = create(rt.IteratorPrototype);
    rt.tag(proto, name);
    return rt.install(proto, {
        next() {
            var it = iterState(this, type);
            if (it.g === null) return { value: void 0, done: true };
            var i = advance(it);
            if (i < 0) { it.g = null; return { value: void 0, done: true }; }
            var g = it.g, k = g.k[i], v = g.v === null ? k : g.v[i];
            return { value: it.kind === 0 ? k : it.kind === 1 ? v : [k, v], done: false };
        }
    });
}
var MapIterProto = defineIterator('Map Iterator', 'mi');
var SetIterProto = defineIterator('Set Iterator', 'si2');

/* ---- Map ------------------------------------------------------------------ */

function Map(iterable) {
    var st = construct(this, Map, 'Map', true), self = this;
    if (iterable === void 0 || iterable === null) return;
    var adder = self.set;
    if (typeof adder !== 'function') throw new TypeErr("'" + what(adder) + "' returned for property 'set' of object '#<Map>' is not a function");
    var fast = adder === mapSet;
    iterate(iterable, function (e) {
        if (!isObject(e)) throw new TypeErr('Iterator value ' + what(e) + ' is not an entry object');
        if (fast) put(st, e[0], e[1]);
        else apply(adder, self, [e[0], e[1]]);
    });
}
rt.native(Map);
var MP = Map.prototype;
function mapIter(self, kind, method) {
    var st = state(self, 'Map', method);
    return makeIter(MapIterProto, { tag: 'mi', g: st.g, i: 0, kind: kind });
}
rt.install(MP, {
    'get'(k) {
        var st = state(this, 'Map', 'get'), i = findIn(st, k);
        return i < 0 ? undefined : st.g.v[i];
    },
    'set'(k, v) {
        put(state(this, 'Map', 'set'), k, v);
        return this;
    },
    has(k) { return findIn(state(this, 'Map', 'has'), k) >= 0; },
    'delete'(k) { return remove(state(this, 'Map', 'delete'), k); },
    clear() { clear(state(this, 'Map', 'clear')); },
    forEach(cb, thisArg) { forEachEntry(state(this, 'Map', 'forEach'), rt.requireFn(cb), thisArg, this); },
    keys() { return mapIter(this, 0, 'keys'); },
    values() { return mapIter(this, 1, 'values'); },
    entries() { return mapIter(this, 2, 'entries'); },
    get size() { return state(this, 'Map', 'size').size; }
}, { forEach: 1 });
var mapSet = MP.set;
def(MP, ITER, MP.entries);
rt.tag(MP, 'Map');
rt.install(Map, {
    groupBy(items, cb) {
        rt.requireFn(cb);
        var m = new Map(), st = m[S], n = 0;
        iterate(items, function (v) {
            var key = cb(v, n++), i = findIn(st, key);
            if (i < 0) put(st, key, [v]);
            else { var list = st.g.v[i]; list[list.length] = v; }
        });
        return m;
    }
});
def(G, 'Map', Map);

/* ---- Set ------------------------------------------------------------------ */

function Set(iterable) {
    var st = construct(this, Set, 'Set', false), self = this;
    if (iterable === void 0 || iterable === null) return;
    var adder = self.add;
    if (typeof adder !== 'function') throw new TypeErr("'" + what(adder) + "' returned for property 'add' of object '#<Set>' is not a function");
    var fast = adder === setAdd;
    iterate(iterable, function (v) {
        if (fast) put(st, v, v);
        else apply(adder, self, [v]);
    });
}
rt.native(Set);
var SP = Set.prototype;
function setIter(self, kind, method) {
    var st = state(self, 'Set', method);
    return makeIter(SetIterProto, { tag: 'si2', g: st.g, i: 0, kind: kind });
}
rt.install(SP, {
    add(v) {
        put(state(this, 'Set', 'add'), v, v);
        return this;
    },
    has(v) { return findIn(state(this, 'Set', 'has'), v) >= 0; },
    'delete'(v) { return remove(state(this, 'Set', 'delete'), v); },
    clear() { clear(state(this, 'Set', 'clear')); },
    forEach(cb, thisArg) { forEachEntry(state(this, 'Set', 'forEach'), rt.requireFn(cb), thisArg, this); },
    values() { return setIter(this, 1, 'values'); },
    entries() { return setIter(this, 2, 'entries'); },
    get size() { return state(this, 'Set', 'size').size; }
}, { forEach: 1 });
var setAdd = SP.add;
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

rt.collectionType = function (x) {
    var st = isObject(x) ? x[S] : void 0;
    return st !== void 0 && st.o === x && (st.type === 'Map' || st.type === 'Set') ? st.type : null;
};
rt.collectionEntries = function (x) {
    var st = x[S], out = [], c = { g: st.g, i: 0 }, i;
    while ((i = advance(c)) >= 0) {
        var g = c.g;
        out[out.length] = g.k[i];
        out[out.length] = g.v === null ? g.k[i] : g.v[i];
    }
    return out;
};
rt.collectionPut = function (x, k, v) { put(x[S], k, v); };
