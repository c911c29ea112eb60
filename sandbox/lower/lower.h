/* The lowering pass: modern JavaScript and TypeScript syntax to ES5.1 for
 * Duktape, line-preserving (every output token stays on its input line, so
 * engine line numbers are the user's). Pure C, no Duktape: it runs in the
 * worker before compilation, and in `mcp-codemode lower`.
 *
 * Lowered: let/const (block scope, per-iteration bindings captured by
 * closures through catch scopes, never an IIFE), arrows (this, arguments,
 * new.target, super captured), templates and tagged templates, destructuring
 * everywhere, spread/rest (calls, new, arrays, objects), default parameters,
 * for-of (arrays as index loops, other iterables through the iterator
 * protocol, closed on break/return/throw), classes (fields, static blocks,
 * private #names and #x in o, accessors, extends built-ins, super), super in
 * object-literal methods and {__proto__: p} literals, optional
 * chaining, ??, ??=/||=/&&=, numeric separators, optional catch binding,
 * async functions/arrows/methods (coroutines: __spawn/__await, awaits stay
 * in place), generators and async generators (coroutines), for await,
 * regular expressions (named groups, the s flag, the u flag's code points as
 * surrogate pairs; y, lookbehind and \p{} are errors), function name inference. TypeScript: types, interfaces, type
 * aliases, generics, as/satisfies/!, declare, abstract, access modifiers,
 * parameter properties, enums (with reverse mapping), overloads, import type
 * and export type are erased; other import/export are errors.
 *
 * The lowered code calls helpers named __* defined by
 * sandbox/prelude/60_lang.js (and __spawn/__await from 20_async.js).
 *
 * Code given to a direct eval(...) and to new Function(...) is lowered at
 * run time (LOWER_MODE_EVAL, through __evalCode and the prelude's Function);
 * an indirect eval is not, and an await cannot cross either. Known limits:
 * let/const/class at the top of direct-eval code share the caller's scope
 * like var (sloppy mode);
 * the temporal dead zone is enforced where it is static (a read before the
 * declaration in the same function, or in its own initialiser) and for reads
 * and plain assignments in closures written before the declaration (the
 * binding holds __TDZ until declared); a closure written after the
 * declaration but called before it runs (a hoisted function) reads undefined;
 * function .length counts parameters after the first default; for-of over
 * an array ignores a replaced Array.prototype[Symbol.iterator]; a field
 * initialiser or a multi-line destructuring default may report the line of
 * the constructor / the initialiser instead of its own. */
#ifndef SANDBOX_LOWER_H
#define SANDBOX_LOWER_H

#include <stddef.h>

struct buf;

enum lower_mode {
    /* The execute_code program: the source is the body of an async function.
     * Output is one ES5 expression, `(function () { ...body... })`, whose
     * first line is the source's first line and whose `})` ends the last
     * line (the output has exactly the source's number of lines). Top-level
     * await/return work; without a top-level return, a final expression
     * statement's value is returned (function declarations after it do not
     * count); a program that is a single function or arrow expression (or a
     * single function declaration) is called and its result returned. A
     * program that is no async body but a valid script using `await` as a
     * name (var await = 1) is lowered as that script. The
     * runtime must run the function as an async body (a coroutine), so that
     * the top-level __await calls can suspend. */
    LOWER_MODE_MAIN,
    /* A plain script (tests, the prelude's own checks): statements in, statements out. */
    LOWER_MODE_SCRIPT,
    /* Code given to eval or new Function at run time: a script whose
     * generated names ($e1, x$e2) cannot collide with those of the lowered
     * program around a direct eval, whose `var`s share its scope. */
    LOWER_MODE_EVAL
};

struct lower_error {
    int line;           /* 1-based */
    int column;         /* 1-based, in code points */
    char message[256];  /* "Unexpected token '}'", "Unsupported: regular expression lookbehind" */
    char excerpt[512];  /* the source line, then a caret line under the column */
};

/* Lowers src (len bytes of UTF-8) and appends the ES5 text to out. Returns 0,
 * or -1 with *err filled (syntax error, unsupported construct, input nested
 * more than 1000 levels or larger than 16 MiB, out of memory) and out left
 * as it was. Never crashes or overflows the C stack on any input; memory is
 * bounded by a cap on the internal arena. err may be NULL. Thread-safe (no
 * global state). */
int sandbox_lower(const char *src, size_t len, enum lower_mode mode, struct buf *out,
                  struct lower_error *err);

#endif
