/* Timers driven by the worker's event loop: setTimeout, setInterval,
 * clearTimeout, clearInterval and sleep. The host asks rt.nextTimer() for the
 * earliest due time and calls rt.runTimers(now) when it has passed; every
 * callback is followed by a microtask checkpoint, as in Node. */
var def = rt.def, apply = rt.apply, now = rt.host.now;
var timers = [], nextId = 1, seq = 0;

function add(fn, ms, args, repeat) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    ms = +ms;
    if (!(ms >= 1) || ms > 2147483647) ms = 1;
    var t = { id: nextId++, fn: fn, args: args, ms: ms, when: now() + ms, seq: seq++, repeat: repeat };
    timers[timers.length] = t;
    return t.id;
}
function remove(id) {
    for (var i = 0; i < timers.length; i++) {
        if (timers[i].id === id) { timers.splice(i, 1); return; }
    }
}
function extra(a, from) {
    var r = [];
    for (var i = from; i < a.length; i++) r[r.length] = a[i];
    return r;
}

def(G, 'setTimeout', function setTimeout(fn, ms) { return add(fn, ms, extra(arguments, 2), false); });
def(G, 'setInterval', function setInterval(fn, ms) { return add(fn, ms, extra(arguments, 2), true); });
def(G, 'clearTimeout', function clearTimeout(id) { remove(id); });
def(G, 'clearInterval', function clearInterval(id) { remove(id); });
def(G, 'sleep', function sleep(ms) {
    var p = rt.newP();
    add(function () { rt.resolveP(p, void 0); }, ms, [], false);
    return p;
});

/* Earliest due time (host monotonic ms), or -1 when no timer is armed. */
rt.nextTimer = function () {
    var best = -1;
    for (var i = 0; i < timers.length; i++)
        if (best < 0 || timers[i].when < best) best = timers[i].when;
    return best;
};

/* Runs every timer due at `t`, in (due time, creation) order. */
rt.runTimers = function (t) {
    for (;;) {
        var k = -1;
        for (var i = 0; i < timers.length; i++) {
            var x = timers[i];
            if (x.when <= t && (k < 0 || x.when < timers[k].when || (x.when === timers[k].when && x.seq < timers[k].seq))) k = i;
        }
        if (k < 0) return;
        var tm = timers[k];
        if (tm.repeat) { tm.when = t + tm.ms; tm.seq = seq++; } else timers.splice(k, 1);
        apply(tm.fn, void 0, tm.args);
        rt.drain();
    }
};
rt.timerCount = function () { return timers.length; };
