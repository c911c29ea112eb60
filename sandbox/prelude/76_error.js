/* Error constructors with ES2022 `cause`: each native constructor is
 * wrapped (same prototype, so instanceof and errors raised by the engine
 * still match); the wrapper has no fileName, so lineNumber and fileName of a
 * new error still name the program's line. Also Error.captureStackTrace (as
 * in Node), a minimal DOMException, and stack traces that show the
 * program's frames only. */
'use strict';
var def = rt.def, apply = rt.apply, isObject = rt.isObject, getProto = rt.getPrototypeOf;
var setProto = Object.setPrototypeOf, defineProperty = rt.defineProperty, Str = rt.String;
var NativeError = rt.ErrorCtor, EP = NativeError.prototype, strReplace = String.prototype.replace;

/* A frame line of a Duktape traceback: "    at NAME (FILE:LINE) FLAGS" for
 * compiled code; natives ("at NAME () native ...") and the engine's own C
 * call sites ("at [anon] (duk_hobject_props.c:2648) internal") also match,
 * through the second alternative. */
var FRAME = /\n {4}at ([^\n]*) \(([^()\n]*):(\d+)\)[^\n]*|\n {4}at [^\n]*/g;
var EVAL_FILE = 'input'; /* what Duktape names code given to eval and new Function */
var SKILL_FILE = 'skills.'; /* a skill is compiled as "skills.NAME" (sandbox/worker/engine.c) */
var SKILL_LINE_OFFSET = 1; /* its wrapper's line before the skill's code (sandbox/lower/skill.h) */

/* A frame of the program, of a skill it called (file "skills.NAME", at the
 * skill's own line) or of code it gave to eval, without the engine's flags ("strict",
 * "preventsyield"); any other frame is dropped: the
 * runtime's (prelude.js, prelude/NAME.js, library functions without a file
 * name), natives and the engine's internal C call sites. */
function keepFrame(frame, name, file, line) {
    if (typeof file === 'string' && file.lastIndexOf(SKILL_FILE, 0) === 0)
        return '\n    at ' + name + ' (' + file + ':' + (line - SKILL_LINE_OFFSET) + ')'; /* the skill's own line */
    return file === rt.PROGRAM || file === EVAL_FILE ? '\n    at ' + name + ' (' + file + ':' + line + ')' : '';
}

function hideLibFrames(s) { return typeof s === 'string' ? apply(strReplace, s, [FRAME, keepFrame]) : s; }

function fixed(obj, name, value) {
    defineProperty(obj, name, { value: value, writable: false, enumerable: false, configurable: true });
}

function wrap(Native, parent) {
    var W = rt.native(function (message, options) {
        var e = new Native(message);
        if (this instanceof W) {
            var p = getProto(this);
            if (p !== W.prototype) setProto(e, p); /* a subclass constructed through us */
        }
        if (isObject(options) && 'cause' in options) def(e, 'cause', options.cause);
        return e;
    });
    fixed(W, 'name', Native.name);
    fixed(W, 'length', 1);
    defineProperty(W, 'prototype', { value: Native.prototype, writable: false, enumerable: false, configurable: false });
    def(Native.prototype, 'constructor', W);
    if (parent) setProto(W, parent);
    def(G, Native.name, W);
    return W;
}

var ErrorW = wrap(NativeError, null);
wrap(EvalError, ErrorW);
wrap(RangeError, ErrorW);
wrap(ReferenceError, ErrorW);
wrap(SyntaxError, ErrorW);
wrap(TypeError, ErrorW);
wrap(URIError, ErrorW);

/* Stack traces keep the program's frames only (keepFrame). */
var stackDesc = Object.getOwnPropertyDescriptor(EP, 'stack'), getStack = stackDesc.get;
defineProperty(EP, 'stack', {
    get: rt.native(function () { return hideLibFrames(apply(getStack, this, [])); }),
    set: stackDesc.set, enumerable: false, configurable: true
});

rt.install(ErrorW, {
    captureStackTrace(obj) {
        if (!isObject(obj)) throw new rt.TypeErr('Invalid argument');
        var s = hideLibFrames(new NativeError().stack), head;
        try { head = Str(obj); } catch (e) { head = 'Error'; }
        var nl = typeof s === 'string' ? s.indexOf('\n') : -1;
        def(obj, 'stack', head + (nl >= 0 ? s.slice(nl) : ''));
    }
});
def(ErrorW, 'stackTraceLimit', 10);

/* DOMException, as far as structuredClone and AbortSignal-like code need it. */
var DOM_CODES = { IndexSizeError: 1, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11,
    SyntaxError: 12, InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19,
    AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23, DataCloneError: 25 };
function DOMException(message, name) {
    if (!(this instanceof DOMException)) throw new rt.TypeErr("Class constructor DOMException cannot be invoked without 'new'");
    var e = rt.blame(new NativeError(message === void 0 ? '' : Str(message)));
    setProto(e, getProto(this));
    var n = name === void 0 ? 'Error' : Str(name);
    def(e, 'name', n);
    def(e, 'code', rt.hasOwn(DOM_CODES, n) ? DOM_CODES[n] : 0);
    return e;
}
rt.native(DOMException);
DOMException.prototype = rt.create(EP);
def(DOMException.prototype, 'constructor', DOMException);
rt.tag(DOMException.prototype, 'DOMException');
def(G, 'DOMException', DOMException);
rt.DOMException = DOMException;
