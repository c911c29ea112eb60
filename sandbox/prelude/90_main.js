/* Running the program and shaping its outcome: rt.runMain(fn) runs the
 * compiled program as the body of an async function; rt.outcome() gives the
 * host {ok, value (JSON text) | error {name, message, line, stack}}. */
var S = rt.HIDDEN, Str = rt.String, stringify = rt.stringify;
var state = { settled: false, ok: false, value: void 0, json: void 0, described: false };

/* The main promise's reaction: one function for every run, no closure. */
function mainSettled(ok, v) {
    if (state.settled) return;
    if (ok && rt.isArray(v) && awaitLinks(v)) return;
    state.settled = true;
    state.ok = ok;
    state.value = v;
    if (ok) serialise(v);
    rt.host.done();
}

/* The result's JSON, made as the program ends, so that the [warn] lines
 * about what JSON lost (89_result_loss.js) come before its outcome. */
function serialise(v) {
    try {
        state.json = rt.resultJson(v);
    } catch (e) {
        var why = e !== null && typeof e === 'object' ? readText(e, 'message', '') : rt.formatValue(e);
        state.ok = false;
        state.value = { name: 'TypeError', message: 'the returned value is not JSON-serialisable: ' + (why === void 0 ? 'its toJSON or a getter threw' : why) };
        state.described = true;
    }
}

/* A returned array holding content.stash() promises the program did not
 * await ([content.text(s), content.stash(big)]): the outcome waits for them
 * and holds their links; one that fails fails the program. Returns false
 * when there is none. */
function awaitLinks(arr) {
    var links = { left: 0, out: [] }, n = arr.length, i, x;
    for (i = 0; i < n; i++) {
        x = arr[i]; /* read once; the copy is the runtime's own (no setters run) */
        rt.defineProperty(links.out, i, { value: x, writable: true, enumerable: true, configurable: true });
        if (rt.isPromise(x) && x[S].stash === true) links.left++;
    }
    if (links.left === 0) return false;
    for (i = 0; i < n; i++) {
        x = links.out[i];
        if (rt.isPromise(x) && x[S].stash === true) rt.watch(x, linkSettled, links, i);
    }
    return true;
}

function linkSettled(ok, v, re) {
    if (!ok) return mainSettled(false, v);
    rt.defineProperty(re.s.out, re.i, { value: v, writable: true, enumerable: true, configurable: true });
    if (--re.s.left === 0) mainSettled(true, re.s.out);
}

rt.runMain = function (fn) {
    rt.onSettled(rt.spawn(fn, void 0, []), mainSettled);
};

/* Ends the execution with an error (a runtime failure). */
rt.fail = function (info) {
    if (state.settled) return;
    state.settled = true;
    state.ok = false;
    state.value = info.error;
    rt.host.done();
};
rt.settled = function () { return state.settled; };

/* The line of a program frame in a Duktape stack trace ("(program.js:12)"). */
function stackLine(stack) {
    if (typeof stack !== 'string') return void 0;
    var m = new RegExp('\\(' + rt.PROGRAM.replace('.', '\\.') + ':(\\d+)\\)').exec(stack);
    return m ? +m[1] : void 0;
}

/* When the innermost frame of a stack trace that is the program's or a
 * saved skill's is a skill's ("(skills.name:12)", at the skill's own line; compiled by
 * sandbox/worker/engine.c compileSkill): sets d.skill, d.skillLine (the line
 * of the skill's own code) and d.excerpt (that line and the one before), and
 * returns true. */
function skillFrame(stack, d) {
    if (typeof stack !== 'string') return false;
    var m = /\(skills\.([A-Za-z_][A-Za-z0-9_]*):(\d+)\)/.exec(stack);
    var p = stack.indexOf('(' + rt.PROGRAM + ':');
    if (!m || (p >= 0 && p < m.index)) return false;
    var line = +m[2], code = rt.skillCode['$' + m[1]]; /* the skill's own line (76_error.js) */
    d.skill = m[1];
    d.skillLine = line;
    if (typeof code !== 'string' || line < 1) return true;
    var lines = code.split('\n');
    if (line > lines.length) return true;
    var cut = function (s) { return s.replace(/\r$/, '').slice(0, 200); };
    d.excerpt = (line > 1 ? '  ' + (line - 1) + ' | ' + cut(lines[line - 2]) + '\n' : '') +
        '> ' + line + ' | ' + cut(lines[line - 1]);
    return true;
}

/* The program's own frames of a stack trace, when there are at least two
 * (a call chain worth showing); runtime frames are noise to the reader.
 * Runs of one repeated frame (recursion) are collapsed; at most 12 lines. */
function programFrames(stack) {
    if (typeof stack !== 'string') return void 0;
    var lines = stack.split('\n'), out = [], last = null, repeats = 0, frames = 0;
    function flush() {
        if (repeats > 0) out[out.length] = '... the frame above repeated ' + repeats + ' more times';
        repeats = 0;
    }
    for (var i = 1; i < lines.length; i++) {
        if (lines[i].indexOf('(' + rt.PROGRAM + ':') < 0) continue;
        var frame = lines[i].replace(' preventsyield', '').replace(/^\s+/, '');
        frames++;
        if (frame === last) { repeats++; continue; }
        flush();
        last = frame;
        out[out.length] = frame;
    }
    flush();
    if (frames < 2) return void 0;
    if (out.length > 12) out = out.slice(0, 12).concat(['... ' + (out.length - 12) + ' more lines']);
    return out.join('\n');
}

var getOwnDesc = Object.getOwnPropertyDescriptor;

/* The value of own data property k of o, read without calling anything a
 * program could have defined (no getter, no proxy trap); undefined if none. */
function ownData(o, k) {
    var d;
    try { d = getOwnDesc(o, k); } catch (x) { return void 0; }
    return d !== void 0 && rt.hasOwn(d, 'value') ? d.value : void 0;
}

/* "name: message" from an error's own data properties, for an error whose
 * toString throws (console lines, unhandled rejection warnings). */
rt.ownErrorText = function (e) {
    var n = ownData(e, 'name'), m = ownData(e, 'message');
    n = typeof n === 'string' ? n : 'Error';
    return typeof m === 'string' && m !== '' ? n + ': ' + m : '[' + n + ']';
};

/* Str(read()), or undefined when reading or converting throws. */
function readText(o, k, dflt) {
    try {
        var v = o[k];
        return Str(v === void 0 ? dflt : v);
    } catch (x) {
        return void 0;
    }
}

/* The error's own name and message (data properties, as `throw new
 * Error(m)` makes them) first; getters, inherited values and conversions
 * are tried after, each on its own, so one that throws loses only itself. */
function describeObject(e, d) {
    var n = ownData(e, 'name'), m = ownData(e, 'message'), failed = false;
    if (typeof n === 'string') d.name = n;
    else if ((n = readText(e, 'name', 'Error')) !== void 0) d.name = n;
    if (typeof m === 'string') d.message = m;
    else if ((m = readText(e, 'message', '')) !== void 0) d.message = m;
    else failed = true;
    try {
        var own = e[S];
        if (own && own.line !== void 0) d.line = own.line;
        else if (e.fileName === rt.PROGRAM && typeof e.lineNumber === 'number') d.line = e.lineNumber;
        else if (!skillFrame(e.stack, d)) d.line = stackLine(e.stack);
        var frames = programFrames(e.stack);
        if (frames) d.stack = frames;
        if (e.tool !== void 0) d.tool = Str(e.tool);
        if (e.violations !== void 0) d.violations = e.violations;
        if (e.errors !== void 0 && rt.isArray(e.errors)) {
            d.errors = [];
            for (var i = 0; i < e.errors.length && i < 20; i++) d.errors[i] = rt.formatValue(e.errors[i]);
        }
    } catch (x) {
        failed = true;
    }
    if (failed && d.message === '') d.message = '(error while reading the thrown value)';
}

function describeError(e) {
    var d = { name: 'Error', message: '' };
    if (e !== null && typeof e === 'object' || typeof e === 'function') {
        describeObject(e, d);
        if (!(e instanceof rt.ErrorCtor) && typeof e === 'object') {
            d.name = 'Error';
            d.message = 'Uncaught ' + rt.formatValue(e);
        }
    } else {
        d.message = 'Uncaught ' + (typeof e === 'string' ? stringify(e) : rt.formatValue(e));
    }
    // Out of memory: Duktape's 'alloc failed', or its DoubleError when the
    // heap limit struck again while it built that error.
    if ((d.message === 'alloc failed' || d.name === 'DoubleError' && rt.host.memoryExhausted()) &&
        rt.memoryLimitMb) {
        d.name = 'RangeError';
        d.message = 'out of memory: the program exceeded its ' + rt.memoryLimitMb + ' MiB heap limit';
    }
    return d;
}

/* The outcome for the host: [true, JSON text of the value or undefined] or
 * [false, JSON text of the error description]. */
rt.outcome = function () {
    if (!state.settled) return [false, stringify({ name: 'Error', message: 'program did not finish' })];
    if (state.ok) return [true, state.json];
    return [false, stringify(state.described ? state.value : describeError(state.value))];
};
rt.describeError = describeError;
