/* The parts of the library that load on first use: Intl (and the locale
 * methods built on it: Number.prototype.toLocaleString,
 * Date.prototype.toLocale{,Date,Time}String, String.prototype.localeCompare),
 * URL/URLSearchParams and crypto, from sandbox/prelude/lazy/ through
 * rt.host.load.
 * Compiled into the template they made it ~220 KB larger, and every worker
 * maps the template; loaded by the run that needs them they cost it ~1-3 ms
 * once, and the worker's return to its template drops them. Here: the
 * built-ins they use, taken before any program runs (rt.orig), globals
 * that load their module when read, and methods that load theirs when
 * called and then stand aside for the real ones (unless a program replaced
 * them meanwhile). */
'use strict';
var apply = rt.apply, def = rt.def, load = rt.host.load;
var loaded = {};

rt.orig = {
    floor: Math.floor, max: Math.max, min: Math.min, abs: Math.abs, pow: Math.pow,
    reTest: RegExp.prototype.test, slice: String.prototype.slice, indexOf: String.prototype.indexOf,
    toUpperCase: String.prototype.toUpperCase, toLowerCase: String.prototype.toLowerCase,
    charCodeAt: String.prototype.charCodeAt, fromCharCode: String.fromCharCode,
    toExponential: Number.prototype.toExponential, numberValueOf: Number.prototype.valueOf,
    Date: Date, Uint8Array: Uint8Array, getTime: Date.prototype.getTime, now: Date.now, TextEncoder: TextEncoder, TextDecoder: TextDecoder,
    encode: TextEncoder.prototype.encode, decode: TextDecoder.prototype.decode
};
rt.lazyMethods = {};

/* The methods that load a module: each one's object, name, module, the
 * name of its real implementation in rt.lazyMethods, length, and the
 * placeholder function installed until the module loads. */
var lazyMethods = [];

function need(module) {
    if (loaded[module]) return;
    load(module);
    loaded[module] = true;
    for (var i = 0; i < lazyMethods.length; i++) {
        var m = lazyMethods[i];
        if (m.module === module && m.obj[m.name] === m.placeholder) put(m.obj, m.name, rt.lazyMethods[m.impl], m.length);
    }
}

/* Installs fn as the method obj[name] (rt.install: name, length, not
 * enumerable); returns the installed function. */
function put(obj, name, fn, length) {
    var methods = {}, lengths = {};
    methods[name] = fn;
    lengths[name] = length;
    rt.install(obj, methods, lengths);
    return obj[name];
}

/* A global that loads its module when first read; assigning it first just
 * sets it. */
function lazyGlobal(name, module) {
    rt.defineProperty(G, name, {
        get: function () { need(module); return G[name]; },
        set: function (v) { def(G, name, v); },
        enumerable: false, configurable: true
    });
}
lazyGlobal('Intl', 'intl');
lazyGlobal('URL', 'url');
lazyGlobal('URLSearchParams', 'url');
lazyGlobal('crypto', 'crypto');

/* A method that loads its module, is replaced by the real one (unless a
 * program replaced it first), and calls it. */
function lazyMethod(obj, name, module, impl, length) {
    var placeholder = put(obj, name, function () {
        need(module);
        return apply(rt.lazyMethods[impl], this, arguments);
    }, length);
    lazyMethods[lazyMethods.length] = { obj: obj, name: name, module: module, impl: impl, length: length,
                                        placeholder: placeholder };
}
lazyMethod(Number.prototype, 'toLocaleString', 'intl', 'numberToLocaleString', 0);
lazyMethod(Date.prototype, 'toLocaleString', 'intl', 'dateToLocaleString', 0);
lazyMethod(Date.prototype, 'toLocaleDateString', 'intl', 'dateToLocaleDateString', 0);
lazyMethod(Date.prototype, 'toLocaleTimeString', 'intl', 'dateToLocaleTimeString', 0);
lazyMethod(String.prototype, 'localeCompare', 'intl', 'stringLocaleCompare', 1);
