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
/* uses: flags ("-" for none; "s" when the caller may use super.x, a method or
 * field initialiser: the code reads the caller's __evalSuper; "a" when
 * `arguments` is not allowed, a class field initialiser or static block), then
 * " #m" for each #name of the caller's classes (the code reads the caller's
 * __evalPriv_m). The lowering ends the text with a comment naming what it
 * declares and uses. */
var SyntaxErr = SyntaxError;
function declared(out) {
    var at = out.lastIndexOf('/*@vars');
    return at < 0 ? [] : out.slice(at + 7, out.length - 2).split(' ');
}
def(G, '__evalCode', function (code, lexicals, uses) {
    if (typeof code !== 'string') return code;
    var out = lower(code), vars = declared(out), i, j;
    var flags = uses ? uses.split(' ')[0] : '', privates = uses ? ' ' + uses + ' ' : '';
    for (i = 0; i < vars.length; i++) {
        if (vars[i] === '@super' && flags.indexOf('s') < 0)
            throw new SyntaxErr("'super' keyword unexpected here");
        if (vars[i] === '@args' && flags.indexOf('a') >= 0)
            throw new SyntaxErr("'arguments' is not allowed in class field initializer or static initialization block");
        if (vars[i].charAt(0) === '@' && vars[i].charAt(1) === '#' &&
            privates.indexOf(' ' + vars[i].slice(1) + ' ') < 0)
            throw new SyntaxErr("Private field '" + vars[i].slice(1) + "' must be declared in an enclosing class");
        if (lexicals)
            for (j = 0; j < lexicals.length; j++)
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
    var out = lower('(function anonymous(' + params.join(',') + '\n) {\n' + body + '\n})');
    var used = declared(out);
    for (var i = 0; i < used.length; i++) {
        if (used[i] === '@super') throw new SyntaxErr("'super' keyword unexpected here");
        if (used[i].charAt(0) === '@' && used[i].charAt(1) === '#')
            throw new SyntaxErr("Private field '" + used[i].slice(1) + "' must be declared in an enclosing class");
    }
    return globalEval(out);
};
rt.defineProperty(LoweringFunction, 'prototype', {
    value: FunctionProto, writable: false, enumerable: false, configurable: false,
});
def(FunctionProto, 'constructor', LoweringFunction);
def(G, 'Function', LoweringFunction);
