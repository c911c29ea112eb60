/* Array: from, of, the ES2016-ES2023 prototype methods (find*, includes,
 * flat, flatMap, at, fill, copyWithin, toSorted, toReversed, toSpliced,
 * with) and a stable sort (ES2019) replacing Duktape's unstable one: a
 * bottom-up merge sort over the values read first, undefined after them and
 * holes last, as the spec's SortIndexedProperties says. All methods are
 * generic (array-likes work) and read through private references. */
'use strict';
var ITER = Symbol.iterator, lib = rt.lib, install = rt.install, apply = rt.apply, isArray = rt.isArray;
var TypeErr = rt.TypeErr, RangeErr = rt.RangeErr, Str = rt.String, what = rt.what;
var toObject = rt.toObject, toInteger = rt.toInteger, toLength = rt.toLength;
var relIndex = rt.relIndex, requireFn = rt.requireFn, iterate = rt.iterate;
var AP = Array.prototype, nativeIndexOf = AP.indexOf, arrayValues = AP[ITER];
var fromLoop = rt.host.arrayFromLoop;
var MAX_ARRAY = 4294967295;

/* Array.from / Array.of on a subclass construct it; otherwise a plain array. */
function isCtor(C) { return typeof C === 'function' && C !== Array; }
function call2(f, self, a, b) { return self === void 0 ? f(a, b) : apply(f, self, [a, b]); }
function call3(f, self, a, b, c) { return self === void 0 ? f(a, b, c) : apply(f, self, [a, b, c]); }
function arrayLength(n) {
    if (n > MAX_ARRAY) throw new RangeErr('Invalid array length');
    return n;
}

install(Array, {
    from(items, mapFn, thisArg) {
        var C = this, mapping = mapFn !== void 0, A, k = 0;
        if (mapping) requireFn(mapFn);
        if (items === null || items === void 0) throw rt.notIterable(items);
        var usingIter = items[ITER];
        if (usingIter !== void 0 && usingIter !== null) {
            if (typeof usingIter !== 'function') throw rt.notIterable(items);
            /* the loop of rt.iterate's reading by index, in C */
            if (usingIter === arrayValues && !isCtor(C) && isArray(items)) return fromLoop(items, 0, mapFn, thisArg, true);
            A = isCtor(C) ? new C() : [];
            iterate(items, function (v) {
                A[k] = mapping ? call2(mapFn, thisArg, v, k) : v;
                k++;
            });
            A.length = k;
            return A;
        }
        var o = Object(items), len = arrayLength(toLength(o.length));
        if (!isCtor(C)) return fromLoop(o, len, mapFn, thisArg, false);
        A = new C(len);
        for (; k < len; k++) A[k] = mapping ? call2(mapFn, thisArg, o[k], k) : o[k];
        A.length = len;
        return A;
    }
}, { from: 1 });

install(Array, {
    of() {
        var len = arguments.length, A = isCtor(this) ? new this(len) : [];
        for (var k = 0; k < len; k++) A[k] = arguments[k];
        A.length = len;
        return A;
    }
});

/* ---- searching ---------------------------------------------------------------- */

function findFrom(o, pred, thisArg, last, wantIndex) {
    var len = toLength(o.length), k, v;
    requireFn(pred);
    for (k = last ? len - 1 : 0; last ? k >= 0 : k < len; last ? k-- : k++) {
        v = o[k];
        if (call3(pred, thisArg, v, k, o)) return wantIndex ? k : v;
    }
    return wantIndex ? -1 : void 0;
}
install(AP, {
    find(pred, thisArg) {
        return findFrom(toObject(this, 'Array.prototype.find'), pred, thisArg, false, false);
    }
}, { find: 1 });
install(AP, {
    findIndex(pred, thisArg) {
        return findFrom(toObject(this, 'Array.prototype.findIndex'), pred, thisArg, false, true);
    }
}, { findIndex: 1 });
install(AP, {
    findLast(pred, thisArg) {
        return findFrom(toObject(this, 'Array.prototype.findLast'), pred, thisArg, true, false);
    }
}, { findLast: 1 });
install(AP, {
    findLastIndex(pred, thisArg) {
        return findFrom(toObject(this, 'Array.prototype.findLastIndex'), pred, thisArg, true, true);
    }
}, { findLastIndex: 1 });
rt.useNative(AP, 'find', rt.host.arrayFind);
rt.useNative(AP, 'findIndex', rt.host.arrayFindIndex);
rt.useNative(AP, 'findLast', rt.host.arrayFindLast);
rt.useNative(AP, 'findLastIndex', rt.host.arrayFindLastIndex);

/* SameValueZero, holes read as undefined; the native indexOf does the
 * common case (strict equality equals SameValueZero except for NaN). */
install(AP, {
    includes(x, fromIndex) {
        var o = toObject(this, 'Array.prototype.includes'), len = toLength(o.length);
        if (len === 0) return false;
        var n = toInteger(fromIndex), k = n >= 0 ? n : len + n < 0 ? 0 : len + n;
        if (x === x && x !== void 0 && isArray(o)) return apply(nativeIndexOf, o, [x, k]) >= 0;
        for (; k < len; k++) {
            var e = o[k];
            if (e === x || (x !== x && e !== e)) return true;
        }
        return false;
    }
}, { includes: 1 });
rt.useNative(AP, 'includes', rt.host.arrayIncludes);

install(AP, {
    at(index) {
        var o = toObject(this, 'Array.prototype.at'), len = toLength(o.length), k = toInteger(index);
        if (k < 0) k += len;
        return k < 0 || k >= len ? undefined : o[k];
    }
});
rt.useNative(AP, 'at', rt.host.arrayAt);

/* ---- flattening ------------------------------------------------------------------ */

/* Appends the elements of src (holes skipped) to target from position n,
 * flattening arrays depth levels deep; returns the new length. */
function flatten(target, n, src, depth) {
    var len = toLength(src.length);
    for (var k = 0; k < len; k++) {
        var v = src[k];
        if (v === void 0 && !(k in src)) continue;
        if (depth > 0 && isArray(v)) n = flatten(target, n, v, depth - 1);
        else target[n++] = v;
    }
    return n;
}
install(AP, {
    flat(depth) {
        var o = toObject(this, 'Array.prototype.flat'), d = depth === void 0 ? 1 : toInteger(depth), A = [];
        flatten(A, 0, o, d);
        return A;
    }
}, { flat: 0 });
install(AP, {
    flatMap(fn, thisArg) {
        var o = toObject(this, 'Array.prototype.flatMap'), len = toLength(o.length), A = [], n = 0;
        requireFn(fn);
        for (var k = 0; k < len; k++) {
            var v = o[k];
            if (v === void 0 && !(k in o)) continue;
            v = call3(fn, thisArg, v, k, o);
            if (isArray(v)) n = flatten(A, n, v, 0);
            else A[n++] = v;
        }
        return A;
    }
}, { flatMap: 1 });
rt.useNative(AP, 'flat', rt.host.arrayFlat);
rt.useNative(AP, 'flatMap', rt.host.arrayFlatMap);

/* ---- in-place edits --------------------------------------------------------------- */

install(AP, {
    fill(value, start, end) {
        var o = toObject(this, 'Array.prototype.fill'), len = toLength(o.length);
        var k = relIndex(start, len), last = end === void 0 ? len : relIndex(end, len);
        for (; k < last; k++) o[k] = value;
        return o;
    }
}, { fill: 1 });

install(AP, {
    copyWithin(target, start, end) {
        var o = toObject(this, 'Array.prototype.copyWithin'), len = toLength(o.length);
        var to = relIndex(target, len), from = relIndex(start, len);
        var last = end === void 0 ? len : relIndex(end, len);
        var count = last - from < len - to ? last - from : len - to, dir = 1;
        if (from < to && to < from + count) {
            dir = -1;
            from += count - 1;
            to += count - 1;
        }
        for (; count > 0; count--, from += dir, to += dir) {
            if (from in o) o[to] = o[from];
            else delete o[to];
        }
        return o;
    }
}, { copyWithin: 2 });

/* ---- stable sort ------------------------------------------------------------------- */

/* A bottom-up merge sort: runs of RUN sorted by insertion, then merges of
 * doubling width, where already ordered neighbours cost one comparison. The
 * comparison is inlined in three variants of the two steps (a call per
 * comparison would dominate): by the program's comparator (x stays before y
 * unless cmp(x, y) > 0), by strings, and positions by string keys. */
var RUN = 8;

function insertionCmp(a, lo, hi, cmp) {
    for (var i = lo + 1; i < hi; i++) {
        var x = a[i], j = i;
        for (; j > lo && cmp(a[j - 1], x) > 0; j--) a[j] = a[j - 1];
        a[j] = x;
    }
}
function mergeCmp(src, dst, lo, mid, end, cmp) {
    var i = lo, j = mid, k = lo;
    if (cmp(src[mid - 1], src[mid]) > 0) {
        for (;;) {
            if (cmp(src[i], src[j]) > 0) {
                dst[k++] = src[j++];
                if (j === end) break;
            } else {
                dst[k++] = src[i++];
                if (i === mid) break;
            }
        }
    }
    while (i < mid) dst[k++] = src[i++];
    while (j < end) dst[k++] = src[j++];
}

function insertionStr(a, lo, hi) {
    for (var i = lo + 1; i < hi; i++) {
        var x = a[i], j = i;
        for (; j > lo && a[j - 1] > x; j--) a[j] = a[j - 1];
        a[j] = x;
    }
}
function mergeStr(src, dst, lo, mid, end) {
    var i = lo, j = mid, k = lo;
    if (src[mid - 1] > src[mid]) {
        for (;;) {
            if (src[i] > src[j]) {
                dst[k++] = src[j++];
                if (j === end) break;
            } else {
                dst[k++] = src[i++];
                if (i === mid) break;
            }
        }
    }
    while (i < mid) dst[k++] = src[i++];
    while (j < end) dst[k++] = src[j++];
}

function insertionIdx(idx, lo, hi, keys) {
    for (var i = lo + 1; i < hi; i++) {
        var x = idx[i], kx = keys[x], j = i;
        for (; j > lo && keys[idx[j - 1]] > kx; j--) idx[j] = idx[j - 1];
        idx[j] = x;
    }
}
function mergeIdx(src, dst, lo, mid, end, keys) {
    var i = lo, j = mid, k = lo;
    if (keys[src[mid - 1]] > keys[src[mid]]) {
        for (;;) {
            if (keys[src[i]] > keys[src[j]]) {
                dst[k++] = src[j++];
                if (j === end) break;
            } else {
                dst[k++] = src[i++];
                if (i === mid) break;
            }
        }
    }
    while (i < mid) dst[k++] = src[i++];
    while (j < end) dst[k++] = src[j++];
}

/* Sorts a[0..n) with the given steps; returns a or the scratch array. */
function mergeSort(a, n, aux, insertion, merge) {
    var lo, w;
    for (lo = 0; lo < n; lo += RUN) insertion(a, lo, lo + RUN < n ? lo + RUN : n, aux);
    var src = a, dst = [], t;
    for (w = RUN; w < n; w *= 2) {
        for (lo = 0; lo < n; lo += 2 * w) {
            var mid = lo + w < n ? lo + w : n, end = mid + w < n ? mid + w : n;
            if (mid < end) merge(src, dst, lo, mid, end, aux);
            else for (var k = lo; k < end; k++) dst[k] = src[k];
        }
        t = src; src = dst; dst = t;
    }
    return src;
}

/* The n values of items in order: by cmp (the same merge sort in C, on
 * items, the caller's private array), or by their strings (computed once). */
var sortLoop = rt.host.sortLoop;
function sortValues(items, n, cmp) {
    if (cmp !== void 0) return sortLoop(items, cmp) || mergeSort(items, n, cmp, insertionCmp, mergeCmp);
    var i, keys = null;
    for (i = 0; i < n && keys === null; i++) if (typeof items[i] !== 'string') keys = [];
    if (keys === null) return mergeSort(items, n, null, insertionStr, mergeStr);
    var idx = [], out = [];
    for (i = 0; i < n; i++) {
        var v = items[i];
        if (typeof v === 'symbol') throw new TypeErr('Cannot convert a Symbol value to a string');
        keys[i] = typeof v === 'string' ? v : Str(v);
        idx[i] = i;
    }
    idx = mergeSort(idx, n, keys, insertionIdx, mergeIdx);
    for (i = 0; i < n; i++) out[i] = items[idx[i]];
    return out;
}

function checkComparator(cmp) {
    if (cmp !== void 0 && typeof cmp !== 'function')
        throw new TypeErr('The comparison function must be either a function or undefined');
}

install(AP, {
    sort(comparefn) {
        checkComparator(comparefn);
        var o = toObject(this, 'Array.prototype.sort'), len = toLength(o.length);
        var items = [], n = 0, undefs = 0, k, v;
        for (k = 0; k < len; k++) {
            v = o[k];
            if (v !== void 0) items[n++] = v;
            else if (k in o) undefs++;
        }
        var sorted = sortValues(items, n, comparefn);
        for (k = 0; k < n; k++) o[k] = sorted[k];
        for (; k < n + undefs; k++) o[k] = void 0;
        for (; k < len; k++) delete o[k];
        return o;
    }
});

/* ---- copying variants (ES2023) ------------------------------------------------------ */

install(AP, {
    toSorted(comparefn) {
        checkComparator(comparefn);
        var o = toObject(this, 'Array.prototype.toSorted'), len = arrayLength(toLength(o.length));
        var items = [], n = 0, k, v;
        for (k = 0; k < len; k++) {
            v = o[k];
            if (v !== void 0) items[n++] = v;
        }
        var A = sortValues(items, n, comparefn);
        for (k = n; k < len; k++) A[k] = void 0;
        return A;
    }
});

install(AP, {
    toReversed() {
        var o = toObject(this, 'Array.prototype.toReversed'), len = arrayLength(toLength(o.length)), A = [];
        for (var k = 0; k < len; k++) A[k] = o[len - 1 - k];
        return A;
    }
});

install(AP, {
    toSpliced(start, skipCount) {
        var o = toObject(this, 'Array.prototype.toSpliced'), len = toLength(o.length);
        var from = relIndex(start, len), argc = arguments.length, skip;
        if (argc === 0) skip = 0;
        else if (argc === 1) skip = len - from;
        else {
            skip = toInteger(skipCount);
            skip = skip < 0 ? 0 : skip > len - from ? len - from : skip;
        }
        var inserted = argc > 2 ? argc - 2 : 0, newLen = len + inserted - skip;
        if (newLen > 9007199254740991) throw new TypeErr('Invalid array length');
        arrayLength(newLen);
        var A = [], i = 0, r = from + skip, j;
        for (; i < from; i++) A[i] = o[i];
        for (j = 2; j < argc; j++) A[i++] = arguments[j];
        for (; i < newLen; i++, r++) A[i] = o[r];
        return A;
    }
});

install(AP, {
    'with'(index, value) {
        var o = toObject(this, 'Array.prototype.with'), len = toLength(o.length);
        var rel = toInteger(index), at = rel >= 0 ? rel : len + rel;
        if (at >= len || at < 0) throw new RangeErr('Invalid index : ' + Str(index));
        arrayLength(len);
        var A = [];
        for (var k = 0; k < len; k++) A[k] = k === at ? value : o[k];
        return A;
    }
});

/* ---- typed arrays ------------------------------------------------------------------------ */

/* Duktape's %TypedArray%.prototype has only set and subarray (70_iter.js
 * adds the iterators). The generic Array methods work on typed arrays as
 * they are; the others create a typed array of the receiver's type, and sort
 * compares numbers by default (-0 before +0, NaN last). */
var TAP = rt.getPrototypeOf(Uint8Array.prototype);
['forEach', 'indexOf', 'lastIndexOf', 'includes', 'join', 'every', 'some', 'reduce', 'reduceRight', 'find',
 'findIndex', 'findLast', 'findLastIndex', 'at', 'fill', 'reverse', 'copyWithin', 'toString'].forEach(function (k) {
    rt.def(TAP, k, AP[k]);
});
function numericCmp(a, b) {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a !== a) return b !== b ? 0 : 1;
    if (b !== b) return -1;
    if (a === 0 && b === 0) return 1 / a < 1 / b ? -1 : 1 / a > 1 / b ? 1 : 0;
    return 0;
}
function sortTyped(ta, cmp) {
    checkComparator(cmp);
    var n = ta.length, items = [], i;
    for (i = 0; i < n; i++) items[i] = ta[i];
    var sorted = mergeSort(items, n, cmp === void 0 ? numericCmp : cmp, insertionCmp, mergeCmp);
    for (i = 0; i < n; i++) ta[i] = sorted[i];
    return ta;
}
function sameType(ta, from) { return new ta.constructor(from); }
install(TAP, {
    sort(comparefn) { return sortTyped(this, comparefn); },
    toSorted(comparefn) { checkComparator(comparefn); return sortTyped(sameType(this, this), comparefn); },
    toReversed() { return sameType(this, this).reverse(); },
    'with'(index, value) {
        var len = this.length, rel = toInteger(index), at = rel >= 0 ? rel : len + rel;
        if (at >= len || at < 0) throw new RangeErr('Invalid typed array index');
        var copy = sameType(this, this);
        copy[at] = value;
        return copy;
    },
    slice(start, end) { return sameType(this, apply(AP.slice, this, [start, end])); },
    map(fn, thisArg) {
        requireFn(fn);
        var n = this.length, out = sameType(this, n);
        for (var i = 0; i < n; i++) out[i] = call3(fn, thisArg, this[i], i, this);
        return out;
    },
    filter(fn, thisArg) {
        requireFn(fn);
        var kept = [], n = this.length;
        for (var i = 0; i < n; i++) if (call3(fn, thisArg, this[i], i, this)) kept[kept.length] = this[i];
        return sameType(this, kept);
    }
}, { map: 1, filter: 1 });
var typedStatics = {
    from(source, mapFn, thisArg) {
        var items = apply(Array.from, Array, [source, mapFn, thisArg]);
        return new this(items);
    },
    of() { return new this(apply(Array.of, Array, arguments)); }
};
[Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array,
 Float64Array].forEach(function (C) { install(C, typedStatics, { from: 1 }); });
