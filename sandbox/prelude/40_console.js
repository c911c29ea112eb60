/* console.* capture: one entry per call, arguments joined by a space; strings
 * as they are, objects and arrays as JSON.stringify prints them (cycles shown
 * as "[Circular]"), errors as String(err). The host counts and caps bytes. */
var def = rt.def, stringify = rt.stringify, Str = rt.String, log = rt.host.log;
var objToString = rt.objectToString, apply = rt.apply;

function isError(x) {
    return apply(objToString, x, []) === '[object Error]' || x instanceof rt.ErrorCtor;
}

function safeStringify(x) {
    var seen = [];
    return stringify(x, function (k, v) {
        if (typeof v === 'object' && v !== null) {
            /* drop ancestors that are no longer on the path */
            while (seen.length && seen[seen.length - 1] !== this) seen.length--;
            for (var i = 0; i < seen.length; i++) if (seen[i] === v) return '[Circular]';
            seen[seen.length] = v;
        }
        if (typeof v === 'bigint') return Str(v);
        return v;
    });
}

function fmtOne(x) {
    switch (typeof x) {
    case 'string': return x;
    case 'undefined': return 'undefined';
    case 'function': return '[Function: ' + (x.name || 'anonymous') + ']';
    case 'symbol': return Str(x);
    case 'number': case 'boolean': return Str(x);
    }
    if (x === null) return 'null';
    if (isError(x)) {
        try { return Str(x); } catch (e) { return rt.ownErrorText(x); }
    }
    if (rt.formatSpecial) {
        var s = rt.formatSpecial(x);
        if (s !== void 0) return s;
    }
    try {
        var j = stringify(x);
        return j === void 0 ? Str(x) : j;
    } catch (e) {
        try { return safeStringify(x); } catch (e2) { return Str(x); }
    }
}

function format(args) {
    var out = '';
    for (var i = 0; i < args.length; i++) {
        if (i) out += ' ';
        out += fmtOne(args[i]);
    }
    return out;
}
rt.format = format;
rt.formatValue = fmtOne;

var consoleObj = {};
function method(level) {
    return function () { log(level, format(arguments)); };
}
def(consoleObj, 'log', method('log'));
def(consoleObj, 'info', method('info'));
def(consoleObj, 'warn', method('warn'));
def(consoleObj, 'error', method('error'));
def(consoleObj, 'debug', method('debug'));
def(consoleObj, 'trace', method('debug'));
def(consoleObj, 'table', method('log'));
def(consoleObj, 'dir', method('log'));
def(G, 'console', consoleObj);
