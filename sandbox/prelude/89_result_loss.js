/* The JSON text of a program's result, exactly as JSON.stringify gives it,
 * and a [warn] console line for each kind of value JSON cannot carry that the
 * result held: a Map or Set (JSON shows {}), a Promise the program did not
 * await ({}), a function (left out, or null in an array). While the result
 * is serialised, Map, Set, Promise and Function prototypes carry a toJSON
 * that returns its receiver unchanged and notes it; an ordinary result never
 * meets one, so it costs nothing, and the result's paths are looked for only
 * when something was lost. */
'use strict';
var stringify = rt.stringify, defineProperty = rt.defineProperty, hasOwn = rt.hasOwn, keysOf = rt.keys;
var isArray = rt.isArray, getOwnDesc = Object.getOwnPropertyDescriptor, Str = rt.String;
var log = rt.host.log, apply = rt.apply, reTest = RegExp.prototype.test, dict = rt.create;
/* Taken now, while the globals are the runtime's own. */
var PROTOS = [Map.prototype, Set.prototype, Promise.prototype, Function.prototype];

var PATHS_SHOWN = 3, DEPTH_LIMIT = 1000;
var KINDS = ['Map', 'Set', 'Promise', 'function'];
/* What to say after the paths, for one value and for several. */
var ADVICE = {
    Map: [' is a Map; JSON drops its entries', ' are Maps; JSON drops their entries', ' - return Object.fromEntries(map)'],
    Set: [' is a Set; JSON drops its values', ' are Sets; JSON drops their values', ' - return [...set]'],
    Promise: [' is a Promise', ' are Promises', ' - did you forget await? use await Promise.all(...)'],
    'function': [' is a function; JSON leaves it out', ' are functions; JSON leaves them out',
        ' (null in an array) - return data, not functions']
};

var noted = null; /* during serialisation: {objs: [], kinds: [], keys: [], hits: {kind: n}} */

/* arr.indexOf(x), without the program's Array.prototype. */
function indexIn(arr, x) {
    for (var i = 0; i < arr.length; i++) if (arr[i] === x) return i;
    return -1;
}

function kindOf(x) {
    if (typeof x === 'function') return 'function';
    if (rt.isPromise(x)) return 'Promise';
    return rt.collectionType(x);
}

/* The toJSON put on the prototypes: notes the value, changes nothing. */
var note = rt.native(function toJSON(key) {
    var kind = kindOf(this);
    if (kind !== null && noted !== null) {
        noted.hits[kind] = (noted.hits[kind] || 0) + 1;
        if (noted.objs.length < 64 && indexIn(noted.objs, this) < 0) {
            noted.objs[noted.objs.length] = this;
            noted.kinds[noted.kinds.length] = kind;
            noted.keys[noted.keys.length] = Str(key);
        }
    }
    return this;
});

/* Puts `note` on each prototype that has no toJSON of its own (a program's
 * own toJSON is left to decide); returns those it went on. */
function install() {
    var ps = PROTOS, done = [];
    for (var i = 0; i < ps.length; i++) {
        if (hasOwn(ps[i], 'toJSON')) continue;
        try {
            defineProperty(ps[i], 'toJSON', { value: note, writable: true, enumerable: false, configurable: true });
            done[done.length] = ps[i];
        } catch (e) { /* a frozen prototype: that kind goes unwatched */ }
    }
    return done;
}

function uninstall(done) {
    for (var i = 0; i < done.length; i++) delete done[i].toJSON;
    done.length = 0;
}

var IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/* "result.a[0]["b-c"]" from the keys on the way (numbers for array indexes). */
function pathOf(keys, n) {
    var path = 'result';
    for (var i = 0; i < n; i++) {
        var k = keys[i];
        path += typeof k === 'number' ? '[' + k + ']' : apply(reTest, IDENT, [k]) ? '.' + k : '[' + stringify(k) + ']';
    }
    return path;
}

/* Finds where the noted values sit in the result, following the own data
 * properties JSON followed (getters are not run again; a value with a
 * toJSON of its own is not entered). Fills found[kind] with up to
 * PATHS_SHOWN paths; w.left counts the paths still wanted. */
function locate(v, depth, w) {
    if (w.left <= 0 || depth > DEPTH_LIMIT || v === null || (typeof v !== 'object' && typeof v !== 'function')) return;
    var objs = noted.objs, at = -1;
    for (var j = 0; j < objs.length; j++) if (objs[j] === v) { at = j; break; }
    if (at >= 0) {
        var list = w.found[noted.kinds[at]];
        if (list.length < PATHS_SHOWN) { list[list.length] = pathOf(w.keys, depth); w.left--; }
        return;
    }
    if (typeof v === 'function' || typeof v.toJSON === 'function') return;
    var arr = isArray(v), keys = arr ? null : keysOf(v), n = arr ? v.length : keys.length;
    for (var i = 0; i < n && w.left > 0; i++) {
        var k = arr ? i : keys[i], d = getOwnDesc(v, k);
        if (d === void 0) continue;
        w.keys[depth] = k;
        locate(d.value, depth + 1, w); /* an accessor's descriptor has no value */
    }
}

function warnLosses(value) {
    var w = { found: dict(null), keys: [], left: 0 }, i, kind;
    for (i = 0; i < KINDS.length; i++) {
        var hits = noted.hits[KINDS[i]] || 0;
        w.found[KINDS[i]] = [];
        w.left += hits < PATHS_SHOWN ? hits : PATHS_SHOWN;
    }
    try { locate(value, 0, w); } catch (e) { /* a proxy's trap threw: the paths found so far */ }
    for (i = 0; i < KINDS.length; i++) {
        kind = KINDS[i];
        var n = noted.hits[kind], paths = w.found[kind];
        if (!n) continue;
        if (paths.length === 0) paths = ['a value under key ' + stringify(noted.keys[indexIn(noted.kinds, kind)])];
        var text = paths[0], more = n - paths.length;
        for (var j = 1; j < paths.length; j++) text += (j === paths.length - 1 && more <= 0 ? ' and ' : ', ') + paths[j];
        if (more > 0) text += ' and ' + more + ' more';
        var a = ADVICE[kind];
        log('warn', text + (n === 1 ? a[0] : a[1]) + a[2]);
    }
}

/* JSON.stringify(value), with a [warn] console line for each kind of value
 * it lost. Throws what JSON.stringify throws. */
rt.resultJson = function (value) {
    var done = install(), json;
    noted = { objs: [], kinds: [], keys: [], hits: dict(null) };
    try {
        json = stringify(value);
        uninstall(done);
        if (noted.objs.length > 0) warnLosses(value);
    } finally {
        uninstall(done);
        noted = null;
    }
    return json;
};
