/* async/await on Duktape coroutines (research/duktape.md section 1): every
 * async call runs its body in a new Duktape.Thread; __await yields the awaited
 * value to the scheduler, which resumes the thread when it settles (with the
 * error flag for rejections, so try/catch/finally see them). */
var Thread = rt.Thread, resume = rt.resume, yld = rt.yield, apply = rt.apply;
var newP = rt.newP, toP = rt.toP, resolveP = rt.resolveP, rejectP = rt.rejectP, onSettled = rt.onSettled;

function step(st, v, isErr) {
    var y = resume(st.t, v, isErr);
    if (st.done) {
        st.t = null;
        if (st.threw) rejectP(st.p, st.v); else resolveP(st.p, st.v);
        return;
    }
    onSettled(toP(y), st.resume);
}

/* Runs body.apply(self, args) in a new coroutine; returns a Promise of its result.
 * Every await of the coroutine reuses one callback, st.resume: a closure per
 * await cost ~2 us and, with its .prototype cycle, waited for mark-and-sweep. */
function spawn(body, self, args) {
    var st = { t: null, p: newP(), done: false, threw: false, v: undefined, resume: null };
    st.resume = function (ok, value) { step(st, value, !ok); };
    st.t = new Thread(function () {
        try { st.v = apply(body, self, args || []); } catch (e) { st.threw = true; st.v = e; }
        st.done = true;
    });
    step(st, undefined, false);
    return st.p;
}

rt.def(G, '__spawn', spawn);
rt.def(G, '__async', function (body) {
    return function () { return spawn(body, this, arguments); };
});
rt.def(G, '__await', function (v) { return yld(v); });
rt.spawn = spawn;
