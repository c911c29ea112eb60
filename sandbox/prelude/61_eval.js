/* Run-time lowering of code given to eval and new Function (sandbox/lower/lower.h,
 * LOWER_MODE_EVAL): __evalCode, through which every direct eval(code) of a
 * lowered program passes its code, and a Function constructor that lowers
 * its parameters and body. The global eval stays the built-in, since a
 * direct eval must call it; an indirect eval of modern syntax is not lowered. */
var def = rt.def, lower = rt.host.lower, Str = rt.String;
var FunctionProto = Function.prototype;
var globalEval = eval;

/* lexicals: the let/const/class names around the call (and the parameters, for
 * an eval in a parameter default); a var or function the code declares with
 * one of those names is a SyntaxError (the lowering ends the text with the
 * names it declares, as a comment). */
var SyntaxErr = SyntaxError;
def(G, '__evalCode', function (code, lexicals) {
    if (typeof code !== 'string') return code;
    var out = lower(code);
    if (lexicals) {
        var at = out.lastIndexOf('/*@vars');
        var vars = at < 0 ? [] : out.slice(at + 7, out.length - 2).split(' ');
        for (var i = 0; i < vars.length; i++)
            for (var j = 0; j < lexicals.length; j++)
                if (vars[i] && vars[i] === lexicals[j])
                    throw new SyntaxErr("Identifier '" + vars[i] + "' has already been declared");
    }
    return out;
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
