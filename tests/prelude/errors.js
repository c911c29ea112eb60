/* Error constructors: ES2022 cause, and that wrapping them keeps instanceof,
 * names, prototypes, constructors and subclassing working. */
var ctors = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];

t('causeOnAllTypes', function () {
    return ctors.map(function (C) { var e = new C('m', { cause: C.name }); return [e.cause, e.message, e.name]; });
});
t('causeDescriptor', function () {
    var d = Object.getOwnPropertyDescriptor(new Error('m', { cause: 1 }), 'cause');
    return [d.value, d.writable, d.enumerable, d.configurable];
});
t('causeAbsent', function () {
    return [Object.prototype.hasOwnProperty.call(new Error('m'), 'cause'), Object.prototype.hasOwnProperty.call(new Error('m', {}), 'cause'),
            'cause' in new Error('m', 'str'), 'cause' in new Error('m', null), 'cause' in new Error('m', 5)];
});
t('causeUndefinedIsOwn', function () {
    var e = new Error('m', { cause: undefined });
    return [Object.prototype.hasOwnProperty.call(e, 'cause'), e.cause];
});
t('causeInherited', function () { return new Error('m', Object.create({ cause: 'inh' })).cause; });
t('causeGetterOnce', function () {
    var n = 0, opts = {};
    Object.defineProperty(opts, 'cause', { get: function () { n++; return 'g'; } });
    var e = new Error('m', opts);
    return [e.cause, n];
});
t('causeChain', function () {
    var root = new TypeError('root'), mid = new Error('mid', { cause: root }), top = new Error('top', { cause: mid });
    var names = [], e = top;
    while (e) { names.push(e.message); e = e.cause; }
    return names;
});
t('causeWithoutNew', function () { var e = Error('m', { cause: 2 }); return [e instanceof Error, e.cause, e.message]; });
t('instanceofAndNames', function () {
    return ctors.map(function (C) { var e = new C('x'); return [e instanceof C, e instanceof Error, e.name, e.constructor === C, String(e)]; });
});
t('withoutNew', function () {
    return ctors.map(function (C) { var e = C('y'); return [e instanceof C, e.message, Object.getPrototypeOf(e) === C.prototype]; });
});
t('engineErrorsMatchWrappers', function () {
    var r = [];
    try { null.x; } catch (e) { r.push(e instanceof TypeError, e.constructor === TypeError, e.name); }
    try { undefinedVariable; } catch (e) { r.push(e instanceof ReferenceError, e.constructor === ReferenceError); }
    try { new Array(-1); } catch (e) { r.push(e instanceof RangeError, e instanceof Error); }
    try { decodeURIComponent('%'); } catch (e) { r.push(e instanceof URIError); }
    try { JSON.parse('{'); } catch (e) { r.push(e instanceof SyntaxError); }
    return r;
});
t('prototypeChain', function () {
    return [Object.getPrototypeOf(TypeError) === Error, Object.getPrototypeOf(RangeError) === Error,
            Object.getPrototypeOf(Error) === Function.prototype, Object.getPrototypeOf(TypeError.prototype) === Error.prototype,
            Error.prototype.constructor === Error, TypeError.prototype.constructor === TypeError];
});
t('ctorProperties', function () {
    return ctors.map(function (C) { return [C.name, C.length, typeof C.prototype, Object.getOwnPropertyDescriptor(C, 'prototype').writable]; });
});
t('messageHandling', function () {
    var a = new Error(), b = new Error(undefined), c = new Error(42), d = new Error('');
    return [Object.prototype.hasOwnProperty.call(a, 'message'), Object.prototype.hasOwnProperty.call(b, 'message'),
            c.message, typeof c.message, Object.prototype.hasOwnProperty.call(d, 'message'), a.message, String(a)];
});
t('es5Subclass', function () {
    function MyError(msg) {
        this.name = 'MyError';
        this.message = msg;
        var tmp = Error.call(this, msg);
        this.stackType = typeof tmp.stack;
    }
    MyError.prototype = Object.create(Error.prototype);
    MyError.prototype.constructor = MyError;
    var e = new MyError('custom');
    return [e instanceof MyError, e instanceof Error, e.name, e.message, String(e), e.stackType,
            Object.prototype.toString.call(e)];
});
t('es5SubclassPrototypeName', function () {
    function HttpError(status) { this.status = status; this.message = 'HTTP ' + status; }
    HttpError.prototype = Object.create(Error.prototype, { name: { value: 'HttpError' }, constructor: { value: HttpError } });
    var e = new HttpError(404);
    try { throw e; } catch (x) { return [x instanceof HttpError, x instanceof Error, x.name, String(x), x.status]; }
});
t('setPrototypeSubclassWithCause', function () {
    function AppError(message, options) {
        var e = new Error(message, options);
        Object.setPrototypeOf(e, AppError.prototype);
        return e;
    }
    AppError.prototype = Object.create(Error.prototype);
    AppError.prototype.name = 'AppError';
    var e = new AppError('failed', { cause: 'disk' });
    return [e instanceof AppError, e instanceof Error, e.name, e.cause, String(e)];
});
t('stackIsString', function () {
    var e = new Error('s');
    return [typeof e.stack, e.stack.indexOf('Error: s') === 0, Object.keys(e)];
});
t('toStringUnchanged', function () {
    return [Error.prototype.toString.call({ name: 'N', message: 'M' }), Error.prototype.toString.call({}),
            Error.prototype.toString.call({ name: '', message: 'only' })];
});
t('jsonOfError', function () { return [JSON.stringify(new Error('x')), JSON.stringify({ e: new TypeError('y', { cause: 1 }) })]; });
t('captureStackTrace', function () {
    var o = {};
    Error.captureStackTrace(o);
    return [typeof o.stack, Object.keys(o).length, typeof Error.captureStackTrace];
});
t('captureStackTraceInCtor', function () {
    function E(m) { this.message = m; this.name = 'E'; Error.captureStackTrace(this, E); }
    E.prototype = Object.create(Error.prototype);
    var e = new E('boom');
    return [typeof e.stack, e.stack.indexOf('E: boom') === 0, e instanceof Error];
});
t('throwCaughtKeepsCause', function () {
    try {
        try { JSON.parse('{bad'); } catch (inner) { throw new Error('config unreadable', { cause: inner }); }
    } catch (e) { return [e.message, e.cause instanceof SyntaxError, e.cause.name]; }
});
t('aggregateErrorStillWorks', function () {
    var e = new AggregateError([new Error('a')], 'many');
    return [e instanceof Error, e.name, e.message, e.errors.length];
});
t('domException', function () {
    var e = new DOMException('gone', 'AbortError');
    return [e instanceof Error, e instanceof DOMException, e.name, e.message, e.code, Object.prototype.toString.call(e)];
});
return __out;
