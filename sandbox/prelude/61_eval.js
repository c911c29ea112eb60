/* Run-time lowering of code given to eval and new Function (sandbox/lower/lower.h,
 * LOWER_MODE_EVAL): __evalCode, through which every direct eval(code) of a
 * lowered program passes its code, and a Function constructor that lowers
 * its parameters and body. The global eval stays the built-in, since a
 * direct eval must call it; an indirect eval of modern syntax is not lowered. */
var def = rt.def, lower = rt.host.lower, Str = rt.String;
var FunctionProto = Function.prototype;
var globalEval = eval;

def(G, '__evalCode', function (code) {
    return typeof code === 'string' ? lower(code) : code;
});

/* new Function(p1, ..., pn, body) and Function(...): the source is built as
 * the specification's CreateDynamicFunction does, lowered, and evaluated in
 * the global scope (an indirect eval). */
var LoweringFunction = function Function(p) {
    var n = arguments.length, params = [];
    for (var i = 0; i < n - 1; i++) params[i] = Str(arguments[i]);
    var body = n ? Str(arguments[n - 1]) : '';
    return globalEval(lower('(function anonymous(' + params.join(',') + '\n) {\n' + body + '\n})'));
};
rt.defineProperty(LoweringFunction, 'prototype', {
    value: FunctionProto, writable: false, enumerable: false, configurable: false,
});
def(FunctionProto, 'constructor', LoweringFunction);
def(G, 'Function', LoweringFunction);
