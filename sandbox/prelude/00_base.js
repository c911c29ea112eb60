/* Runtime base: private references to the built-ins the runtime relies on,
 * taken before any user code runs (a program may replace Array.prototype.push,
 * JSON or Function.prototype.apply; the runtime must not care).
 * In scope: G (global object), rt (private runtime object; rt.Thread,
 * rt.resume, rt.yield, rt.current, rt.host natives and rt.HIDDEN, a key no
 * program can name, are set by sandbox/worker/engine.c). */
var defineProperty = Object.defineProperty;
rt.apply = Reflect.apply;
rt.defineProperty = defineProperty;
rt.create = Object.create;
rt.getPrototypeOf = Object.getPrototypeOf;
rt.keys = Object.keys;
rt.isArray = Array.isArray;
rt.stringify = JSON.stringify;
rt.parse = JSON.parse;
rt.String = String;
rt.ErrorCtor = Error;
rt.TypeError = TypeError;
rt.RangeError = RangeError;
rt.floor = Math.floor;
rt.hasOwnProperty = Object.prototype.hasOwnProperty;
rt.objectToString = Object.prototype.toString;
rt.fnToString = Function.prototype.toString;

/* Defines a non-enumerable, writable, configurable property (like built-ins). */
rt.def = function (obj, name, value) {
    defineProperty(obj, name, { value: value, writable: true, enumerable: false, configurable: true });
};
rt.hasOwn = function (obj, key) {
    return rt.apply(rt.hasOwnProperty, obj, [key]);
};
rt.def(G, 'globalThis', G);
