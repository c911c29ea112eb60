/* Promise with Promises/A+ and ES2015+ job semantics, and the microtask queue
 * the host drains after every entry into JS (start, each tool result, each
 * timer). Internal state lives under rt.HIDDEN, out of reach of programs. */
var S = rt.HIDDEN, apply = rt.apply, def = rt.def;
/* Promise states (st.state): 0 pending, 1 fulfilled, 2 rejected; numbers, not
 * names, as a name read from a function is a by-name lookup in Duktape. */

/* Microtasks: a flat array of (fn, a, b) triples and a head index. Each
 * read of a variable of this scope from a function is a by-name lookup in
 * Duktape: the hot paths read each once, into locals. */
var queue = [], qhead = 0, qlen = 0;
function enqueue(fn, a, b) {
    var q = queue, n = qlen;
    q[n] = fn; q[n + 1] = a; q[n + 2] = b;
    qlen = n + 3;
}
rt.enqueue = enqueue;
rt.drain = function () {
    var q = queue, h;
    while ((h = qhead) < qlen) {
        var fn = q[h], a = q[h + 1], b = q[h + 2];
        q[h] = q[h + 1] = q[h + 2] = void 0;
        qhead = h + 3;
        fn(a, b);
    }
    qhead = qlen = 0;
    checkUnhandled();
};
rt.pendingMicrotasks = function () { return qlen - qhead; };

/* Unhandled rejections: a rejection still unhandled when the microtask
 * queue is empty becomes a [warn] console line and a count in the stats
 * (rt.host.unhandled); the program runs on, and its own outcome is the
 * result (ending it would throw away its result after its writes). */
var unhandled = [];
function checkUnhandled() {
    var list = unhandled;
    if (list.length === 0) return;
    unhandled = [];
    for (var i = 0; i < list.length; i++) {
        var st = list[i][S];
        if (st.handled) continue;
        var text;
        try { text = rt.formatValue(st.value); } catch (e) { text = '(a value that cannot be printed)'; }
        rt.host.unhandled();
        rt.host.log('warn', 'Unhandled promise rejection: ' + text);
    }
}

function isObj(x) { return x !== null && (typeof x === 'object' || typeof x === 'function'); }
function isPromise(x) {
    if (x === null || (typeof x !== 'object' && typeof x !== 'function')) return false;
    var st = x[S];
    return st !== void 0 && st.promise === true;
}

function settle(p, state, value) {
    var st = p[S];
    if (st.state !== 0) return;
    st.state = state;
    st.value = value;
    var r = st.reactions;
    st.reactions = null;
    for (var i = 0; i < r.length; i++) enqueue(runReaction, r[i], st);
    if (state === 2 && !st.handled) unhandled[unhandled.length] = p;
}

function rejectP(p, e) { settle(p, 2, e); }

/* The promise resolve function: adopts thenables through a job, as the spec says. */
function resolveP(p, x) {
    var st = p[S];
    if (st.state !== 0 || st.locked) return;
    if (x === p) { rejectP(p, new TypeError('Chaining cycle detected for promise')); return; }
    if (x === null || (typeof x !== 'object' && typeof x !== 'function')) { settle(p, 1, x); return; }
    var then;
    try { then = x.then; } catch (e) { rejectP(p, e); return; }
    if (typeof then !== 'function') { settle(p, 1, x); return; }
    st.locked = true;
    enqueue(resolveThenableJob, p, { x: x, then: then });
}

function resolveThenableJob(p, job) {
    var called = false;
    function res(v) { if (called) return; called = true; p[S].locked = false; resolveP(p, v); }
    function rej(e) { if (called) return; called = true; p[S].locked = false; rejectP(p, e); }
    try { apply(job.then, job.x, [res, rej]); } catch (e) { rej(e); }
}

/* A reaction is {p: derived promise, f: onFulfilled, r: onRejected, fn: null}, or an
 * internal one {fn: callback fn(ok, value, re), with s and i for the combinators and
 * awaits} (fewer properties: cheaper to make). */
function runReaction(re, st) {
    if (re.fn) { re.fn(st.state === 1, st.value, re); return; }
    var h = st.state === 1 ? re.f : re.r;
    if (typeof h !== 'function') {
        if (st.state === 1) resolveP(re.p, st.value); else rejectP(re.p, st.value);
        return;
    }
    var v;
    try { v = h(st.value); } catch (e) { rejectP(re.p, e); return; }
    resolveP(re.p, v);
}

function addReaction(p, re) {
    var st = p[S];
    st.handled = true;
    if (st.state === 0) st.reactions[st.reactions.length] = re;
    else enqueue(runReaction, re, st);
}

function initPromise(p) {
    p[S] = { promise: true, state: 0, value: void 0, reactions: [], handled: false, locked: false };
    return p;
}

function Promise(executor) {
    if (!(this instanceof Promise) || (isObj(this) && this[S] !== void 0))
        throw new TypeError("Promise constructor cannot be invoked without 'new'");
    if (typeof executor !== 'function') throw new TypeError('Promise resolver ' + rt.String(executor) + ' is not a function');
    var p = initPromise(this), done = false;
    try {
        executor(function (v) { if (!done) { done = true; resolveP(p, v); } },
                 function (e) { if (!done) { done = true; rejectP(p, e); } });
    } catch (e) {
        if (!done) { done = true; rejectP(p, e); }
    }
}

function newP() { return initPromise(rt.create(Promise.prototype)); }

/* Promise.resolve semantics for await and the statics: promises pass through. */
function toP(x) {
    if (isPromise(x)) return x;
    var p = newP();
    resolveP(p, x);
    return p;
}

/* Subscribes an internal callback fn(ok, value) without creating a promise. */
function onSettled(p, fn) { addReaction(p, { fn: fn }); }

/* The same for the combinators: fn(ok, value, re) with re.s the combinator's
 * state and re.i the item's index; no closures, no derived promise. */
function watch(p, fn, s, i) { addReaction(p, { fn: fn, s: s, i: i }); }

function thenImpl(p, f, r) {
    var d = newP();
    addReaction(p, { p: d, f: f, r: r, fn: null });
    return d;
}

def(Promise.prototype, 'then', function then(onFulfilled, onRejected) {
    if (!isPromise(this)) throw new TypeError('Promise.prototype.then called on a non-promise');
    return thenImpl(this, onFulfilled, onRejected);
});
def(Promise.prototype, 'catch', function (onRejected) { return this.then(void 0, onRejected); });
def(Promise.prototype, 'finally', function (onFinally) {
    if (typeof onFinally !== 'function') return this.then(onFinally, onFinally);
    return this.then(
        function (v) { return toP(onFinally()).then(function () { return v; }); },
        function (e) { return toP(onFinally()).then(function () { throw e; }); });
});
rt.defineProperty(Promise.prototype, Symbol.toStringTag, { value: 'Promise', writable: false, enumerable: false, configurable: true });

def(Promise, 'resolve', function (x) { return toP(x); });
def(Promise, 'reject', function (e) { var p = newP(); rejectP(p, e); return p; });
def(Promise, 'withResolvers', function () {
    var p = newP();
    return { promise: p, resolve: function (v) { resolveP(p, v); }, reject: function (e) { rejectP(p, e); } };
});

/* Iterates an iterable (arrays fast; anything with Symbol.iterator otherwise). */
function forEachIterable(it, fn) {
    if (rt.isArray(it)) { for (var i = 0; i < it.length; i++) fn(it[i], i); return; }
    if (it === null || it === void 0) throw new TypeError(rt.String(it) + ' is not iterable');
    var m = it[Symbol.iterator];
    if (typeof m !== 'function') {
        if (typeof it === 'string') { for (var j = 0; j < it.length; j++) fn(it.charAt(j), j); return; }
        throw new TypeError('object is not iterable (cannot read property Symbol(Symbol.iterator))');
    }
    var iter = apply(m, it, []), n = 0, step;
    while (!(step = iter.next()).done) fn(step.value, n++);
}

function combinator(items, onItem, onEmpty) {
    var d = newP(), state = { d: d, left: 1, values: [] };
    try {
        forEachIterable(items, function (x, i) {
            state.left++;
            state.values[i] = void 0;
            onItem(state, toP(x), i);
        });
    } catch (e) { rejectP(d, e); return d; }
    if (--state.left === 0) onEmpty(state);
    return d;
}

function allItem(ok, v, re) {
    var s = re.s;
    if (!ok) { rejectP(s.d, v); return; }
    s.values[re.i] = v;
    if (--s.left === 0) resolveP(s.d, s.values);
}
function allSettledItem(ok, v, re) {
    var s = re.s;
    s.values[re.i] = ok ? { status: 'fulfilled', value: v } : { status: 'rejected', reason: v };
    if (--s.left === 0) resolveP(s.d, s.values);
}
function raceItem(ok, v, re) {
    if (ok) resolveP(re.s.d, v); else rejectP(re.s.d, v);
}
function anyItem(ok, v, re) {
    var s = re.s;
    if (ok) { resolveP(s.d, v); return; }
    s.values[re.i] = v;
    if (--s.left === 0) rejectP(s.d, new AggregateError(s.values, 'All promises were rejected'));
}

def(Promise, 'all', function (items) {
    return combinator(items, function (s, p, i) { watch(p, allItem, s, i); },
        function (s) { resolveP(s.d, s.values); });
});
def(Promise, 'allSettled', function (items) {
    return combinator(items, function (s, p, i) { watch(p, allSettledItem, s, i); },
        function (s) { resolveP(s.d, s.values); });
});
def(Promise, 'race', function (items) {
    return combinator(items, function (s, p, i) { watch(p, raceItem, s, i); }, function () {});
});

function AggregateError(errors, message) {
    if (!(this instanceof AggregateError)) return new AggregateError(errors, message);
    var e = new Error(message === void 0 ? '' : message);
    this.message = e.message;
    def(this, 'errors', []);
    var list = this.errors;
    forEachIterable(errors, function (x) { list[list.length] = x; });
}
AggregateError.prototype = rt.create(Error.prototype);
def(AggregateError.prototype, 'constructor', AggregateError);
def(AggregateError.prototype, 'name', 'AggregateError');
def(G, 'AggregateError', AggregateError);

def(Promise, 'any', function (items) {
    return combinator(items, function (s, p, i) { watch(p, anyItem, s, i); },
        function (s) { rejectP(s.d, new AggregateError(s.values, 'All promises were rejected')); });
});

def(G, 'Promise', Promise);
def(G, 'queueMicrotask', function (fn) {
    if (typeof fn !== 'function') throw new TypeError('queueMicrotask: callback must be a function');
    enqueue(function () { fn(); });
});

rt.newP = newP;
rt.toP = toP;
rt.resolveP = resolveP;
rt.rejectP = rejectP;
rt.onSettled = onSettled;
rt.watch = watch;
rt.runReaction = runReaction;
rt.isPromise = isPromise;
rt.forEachIterable = forEachIterable;
