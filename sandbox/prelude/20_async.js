/* async/await on Duktape coroutines (research/duktape.md section 1): every
 * async call runs its body in a new Duktape.Thread; __await yields the awaited
 * value to the scheduler, which resumes the thread when it settles (with the
 * error flag for rejections, so try/catch/finally see them). */
var Thread = rt.Thread, resume = rt.resume, yld = rt.yield, apply = rt.apply;
var newP = rt.newP, toP = rt.toP, resolveP = rt.resolveP, rejectP = rt.rejectP, watch = rt.watch;
var S = rt.HIDDEN, enqueue = rt.enqueue, runReaction = rt.runReaction;
var NOARGS = [];

/* Every coroutine's function: its state arrives as the first resume value
 * (one function for all: no closure per call). */
function main(st) {
    try { st.v = apply(st.body, st.self, st.args); } catch (e) { st.threw = true; st.v = e; }
    st.done = true;
}

/* An await, inlined for its two common cases (each call and each read of
 * a variable of an enclosing scope is costly in Duktape: an await of a
 * number took ~37,000 instructions): a native promise gets the coroutine's
 * reaction directly, as watch(p) would add it; a primitive resumes the
 * coroutine from a microtask, queued now, where the reaction to a promise
 * resolved with it would be. Other values (thenables) go through toP. */
function step(st, v, isErr) {
    var y = resume(st.t, v, isErr);
    if (st.done) {
        st.t = st.body = st.self = st.args = null;
        if (st.threw) rejectP(st.p, st.v); else resolveP(st.p, st.v);
        return;
    }
    if (y === null || (typeof y !== 'object' && typeof y !== 'function')) {
        enqueue(wakeValue, st, y);
        return;
    }
    var ps = y[S];
    if (ps !== void 0 && ps.promise === true) {
        var re = { fn: wake, s: st, i: 0 };
        ps.handled = true;
        if (ps.state === 0) ps.reactions[ps.reactions.length] = re;
        else enqueue(runReaction, re, ps);
        return;
    }
    watch(toP(y), wake, st, 0);
}

/* The reaction of an await: fn(ok, value, re) with re.s the coroutine's state. */
function wake(ok, value, re) { step(re.s, value, !ok); }
function wakeValue(st, v) { step(st, v, false); }

/* Runs body.apply(self, args) in a new coroutine; returns a Promise of its result.
 * Awaits subscribe wake with the state, not a closure: a closure per call or
 * per await cost ~1 us and, with its .prototype cycle, waited for mark-and-sweep. */
function spawn(body, self, args) {
    var st = { t: new Thread(main), p: newP(), done: false, threw: false, v: void 0,
               body: body, self: self, args: args || NOARGS };
    step(st, st, false);
    return st.p;
}

rt.def(G, '__spawn', spawn);
rt.def(G, '__async', function (body) {
    return function () { return spawn(body, this, arguments); };
});
/* yield itself: a wrapper function cost a call per await */
rt.def(G, '__await', yld);
rt.spawn = spawn;
