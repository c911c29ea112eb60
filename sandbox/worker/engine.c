/* The Duktape heap of one execution: prelude loading, hardening of the global
 * object, and the protected entry points (start, settle, timers, outcome).
 * With the natives it puts on rt.host (base64.c, lazy_modules.c,
 * crypto_random.c) and rt.coll (collections.c), and the Date.parse hook
 * (date_parse.c), the only code that calls Duktape. */
#include "sandbox/worker/engine.h"
#include "sandbox/worker/base64.h"
#include "sandbox/worker/collections.h"
#include "sandbox/worker/crypto_random.h"
#include "sandbox/worker/lazy_modules.h"
#include "sandbox/worker/limits.h"
#include "sandbox/lower/lower.h"
#include "sandbox/lower/skill.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/utf8.h"

#include "duktape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if DUK_VERSION != 20700L
#error "mcp-codemode is built and tested against Duktape 2.7.0"
#endif

#define PROGRAM_FILE SANDBOX_PROGRAM_FILE

extern const char sandbox_prelude_js[];
extern const size_t sandbox_prelude_js_len;
void sandbox_request_interrupt(duk_context *ctx);
duk_ret_t sandbox_object_spread(duk_context *ctx); /* sandbox/duktape/fastpaths.inc */
void sandbox_lib_put_natives(duk_context *ctx);  /* the library methods in C, same file */

struct sandbox_engine {
    duk_context *ctx;
    struct sandbox_limits limits;
    struct sandbox_engine_host host;
    char *code; /* the program as given, for excerpts */
    size_t code_len;
    uint64_t timeout_ms;
    int js_settled;   /* the prelude reported the main promise settled */
    int c_error;      /* an outcome decided in C (syntax error, timeout, ...) */
    char err_name[64];
    char err_message[512];
    int err_line, err_column;
    int started;
    unsigned unhandled; /* unhandled promise rejections reported by the prelude */
    int tainted;           /* the run ended abnormally: its heap is not to be reused */
    size_t template_bytes; /* the heap's bytes as created (sandbox_engine_reset) */
    const char *builtins;  /* for the next start (sandbox_engine_set_builtins), borrowed */
};

/* --- small helpers ----------------------------------------------------------- */

static void set_error(struct sandbox_engine *e, const char *name, const char *message, int line,
                      int column)
{
    if (e->c_error)
        return;
    e->c_error = 1;
    snprintf(e->err_name, sizeof e->err_name, "%s", name);
    snprintf(e->err_message, sizeof e->err_message, "%s", message);
    e->err_line = line;
    e->err_column = column;
}

static void fatal_handler(void *udata, const char *msg)
{
    (void) udata;
    fprintf(stderr, "mcp-codemode: sandbox engine fatal error: %s\n", msg ? msg : "?");
    abort();
}

int64_t sandbox_engine_now_ms(void)
{
    return (int64_t) (sandbox_now_ns() / 1000000u);
}

long sandbox_engine_version(void)
{
    return (long) DUK_VERSION;
}

static struct sandbox_engine *engine_of(duk_context *ctx)
{
    duk_memory_functions mf;
    duk_get_memory_functions(ctx, &mf);
    return (struct sandbox_engine *) ((char *) mf.udata - offsetof(struct sandbox_engine, limits));
}

/* Pushes rt (kept in the global stash, out of reach of programs). */
static void push_rt(duk_context *ctx)
{
    duk_push_global_stash(ctx);
    duk_get_prop_string(ctx, -1, "rt");
    duk_remove(ctx, -2);
}

/* [ ... ] -> [ ... text ]: text from the host (JSON of call results, of the
 * catalog, of the built-ins), the one way host text enters the engine. The
 * host sends UTF-8 with U+0000 and lone surrogates as JSON escapes, which the
 * engine's JSON.parse decodes as Node's does; a character outside the BMP
 * is made a surrogate pair here (common/utf8.h), so that it is two code
 * units in the program, as in Node. ASCII and BMP text is pushed as it is. */
static void push_host_text(duk_context *ctx, const char *s, size_t len)
{
    size_t astral = len ? utf8_astral_count(s, len) : 0;
    if (astral == 0) {
        duk_push_lstring(ctx, len ? s : "", len);
        return;
    }
    char *pairs = xmalloc(len + 2 * astral);
    size_t n = utf8_astral_to_pairs(s, len, pairs);
    duk_push_lstring(ctx, pairs, n);
    free(pairs);
}

/* --- natives the prelude reaches through rt.host ------------------------------ */

/* [ ... s ] -> [ ... s' ]: s with each U+0000 as the bytes C0 80, the
 * host's internal form (common/utf8.h), so that a name holding a NUL
 * reaches the host whole and never equals a shorter name. */
static const char *push_internal_form(duk_context *ctx, duk_idx_t idx)
{
    duk_size_t len;
    const char *s = duk_require_lstring(ctx, idx, &len);
    size_t nuls = 0;
    for (const char *p = s; (p = memchr(p, '\0', len - (size_t) (p - s))) != NULL; p++)
        nuls++;
    if (nuls == 0) {
        duk_dup(ctx, idx);
        return s;
    }
    char *out = duk_push_fixed_buffer(ctx, len + nuls);
    for (size_t i = 0, o = 0; i < len; i++) {
        if (s[i] == '\0') {
            out[o++] = (char) 0xC0;
            out[o++] = (char) 0x80;
        } else
            out[o++] = s[i];
    }
    return duk_buffer_to_string(ctx, -1);
}

static duk_ret_t native_call(duk_context *ctx)
{
    struct sandbox_engine *e = engine_of(ctx);
    const char *op = duk_require_string(ctx, 0);
    const char *name = push_internal_form(ctx, 1);
    duk_size_t alen;
    const char *args = duk_require_lstring(ctx, 2, &alen);
    char msg[512] = "host calls are not available";
    long id = e->host.call ? e->host.call(e->host.ud, op, name, args, alen, msg, sizeof msg) : -1;
    if (id < 0)
        return duk_error(ctx, DUK_ERR_ERROR, "%s", msg);
    duk_push_number(ctx, (double) id);
    return 1;
}

static duk_ret_t native_log(duk_context *ctx)
{
    struct sandbox_engine *e = engine_of(ctx);
    const char *level = duk_require_string(ctx, 0);
    duk_size_t len;
    const char *text = duk_require_lstring(ctx, 1, &len);
    if (e->host.log)
        e->host.log(e->host.ud, level, text, len);
    return 0;
}

static duk_ret_t native_now(duk_context *ctx)
{
    duk_push_number(ctx, (double) sandbox_engine_now_ms());
    return 1;
}

static duk_ret_t native_unhandled(duk_context *ctx)
{
    engine_of(ctx)->unhandled++;
    return 0;
}

static duk_ret_t native_done(duk_context *ctx)
{
    engine_of(ctx)->js_settled = 1;
    return 0;
}

/* rt.host.memoryExhausted(): true once an allocation of this run was
 * refused at the heap limit (describeError names such an error out of
 * memory even when Duktape, out of memory while building it, threw its
 * DoubleError instead). */
static duk_ret_t native_memory_exhausted(duk_context *ctx)
{
    duk_push_boolean(ctx, engine_of(ctx)->limits.alloc_failed);
    return 1;
}

/* rt.host.lower(code): code given to eval or new Function, lowered to ES5
 * (LOWER_MODE_EVAL); a SyntaxError naming the line and column otherwise. */
static duk_ret_t native_lower(duk_context *ctx)
{
    duk_size_t len;
    const char *src = duk_require_lstring(ctx, 0, &len);
    struct buf out;
    struct lower_error err;
    buf_init(&out, 0); /* no limit: the worker's address-space limit bounds it */
    if (sandbox_lower(src, len, LOWER_MODE_EVAL, &out, &err) != 0) {
        buf_free(&out);
        return duk_error(ctx, DUK_ERR_SYNTAX_ERROR, "%s (line %d, column %d of the evaluated code)",
                         err.message, err.line, err.column);
    }
    duk_push_lstring(ctx, out.data ? out.data : "", out.len);
    buf_free(&out);
    return 1;
}

/* rt.host.compileSkill(name, code): a saved skill's code as its function
 * (sandbox/lower/skill.h), compiled under the file name "skills.<name>" so
 * that a run-time error's stack names the skill's line; a SyntaxError at the
 * line and column of the skill's own code otherwise. */
static duk_ret_t native_compile_skill(duk_context *ctx)
{
    const char *name = duk_require_string(ctx, 0);
    duk_size_t len;
    const char *code = duk_require_lstring(ctx, 1, &len);
    struct buf out;
    struct lower_error err;
    buf_init(&out, 0); /* no limit: the worker's address-space limit bounds it */
    if (sandbox_lower_skill(name, code, len, &out, &err) != 0) {
        buf_free(&out);
        return duk_error(ctx, DUK_ERR_SYNTAX_ERROR, "%s (line %d, column %d of skill %.64s)",
                         err.message, err.line, err.column, name);
    }
    duk_push_lstring(ctx, out.data ? out.data : "", out.len);
    buf_free(&out);
    duk_push_sprintf(ctx, "skills.%.64s", name);
    duk_compile(ctx, DUK_COMPILE_EVAL);
    duk_call(ctx, 0);
    return 1;
}

/* performance.now() with millisecond resolution: no finer clock for programs. */
static duk_ret_t native_perf_now(duk_context *ctx)
{
    duk_push_number(ctx, (double) sandbox_engine_now_ms());
    return 1;
}

/* --- creation: prelude and hardening ------------------------------------------ */

static void put_native(duk_context *ctx, const char *name, duk_c_function fn, duk_idx_t nargs)
{
    duk_push_c_function(ctx, fn, nargs);
    duk_put_prop_string(ctx, -2, name);
}

/* [ ] -> [ rt ]: the private runtime object handed to the prelude. */
static void push_new_rt(duk_context *ctx)
{
    duk_push_object(ctx);
    duk_get_global_string(ctx, "Duktape");
    duk_get_prop_string(ctx, -1, "Thread");
    duk_get_prop_string(ctx, -1, "resume");
    duk_put_prop_string(ctx, -4, "resume");
    duk_get_prop_string(ctx, -1, "yield");
    duk_put_prop_string(ctx, -4, "yield");
    duk_get_prop_string(ctx, -1, "current");
    duk_put_prop_string(ctx, -4, "current");
    duk_put_prop_string(ctx, -3, "Thread");
    duk_get_prop_string(ctx, -1, "act");
    duk_put_prop_string(ctx, -3, "act");
    duk_pop(ctx);
    duk_push_string(ctx, DUK_HIDDEN_SYMBOL("codemode"));
    duk_put_prop_string(ctx, -2, "HIDDEN");
    duk_push_string(ctx, PROGRAM_FILE);
    duk_put_prop_string(ctx, -2, "PROGRAM");
    put_native(ctx, "objectSpread", sandbox_object_spread, 2);
    sandbox_collections_put_natives(ctx);
    duk_push_object(ctx);
    put_native(ctx, "call", native_call, 3);
    put_native(ctx, "log", native_log, 2);
    put_native(ctx, "now", native_now, 0);
    put_native(ctx, "done", native_done, 0);
    put_native(ctx, "unhandled", native_unhandled, 0);
    put_native(ctx, "memoryExhausted", native_memory_exhausted, 0);
    put_native(ctx, "lower", native_lower, 1);
    put_native(ctx, "compileSkill", native_compile_skill, 2);
    sandbox_base64_put_natives(ctx);
    sandbox_lazy_put_native(ctx);
    sandbox_crypto_put_natives(ctx);
    sandbox_lib_put_natives(ctx);
    duk_put_prop_string(ctx, -2, "host");
}

static const char *const removed_globals[] = {"Duktape", "CBOR", "Buffer", "print", "alert",
                                              NULL};

/* Removes engine internals from the global object (research/duktape.md §4). */
static void harden(duk_context *ctx)
{
    duk_get_global_string(ctx, "Duktape");
    duk_get_prop_string(ctx, -1, "Thread");
    duk_get_prop_string(ctx, -1, "prototype");
    duk_del_prop_string(ctx, -1, "constructor");
    duk_pop_3(ctx);
    duk_push_global_object(ctx);
    for (int i = 0; removed_globals[i]; i++)
        duk_del_prop_string(ctx, -1, removed_globals[i]);
    duk_push_object(ctx);
    put_native(ctx, "now", native_perf_now, 0);
    duk_put_prop_string(ctx, -2, "performance");
    duk_pop(ctx);
}

static duk_ret_t load_prelude(duk_context *ctx, void *udata)
{
    (void) udata;
    duk_push_lstring(ctx, sandbox_prelude_js, sandbox_prelude_js_len);
    duk_push_string(ctx, "prelude.js");
    duk_compile(ctx, DUK_COMPILE_EVAL);
    duk_call(ctx, 0);          /* -> the prelude function (G, rt) */
    duk_push_global_object(ctx);
    push_new_rt(ctx);
    duk_dup_top(ctx);
    duk_push_global_stash(ctx);
    duk_swap_top(ctx, -2);
    duk_put_prop_string(ctx, -2, "rt");
    duk_pop(ctx);
    duk_call(ctx, 2);
    duk_pop(ctx);
    harden(ctx);
    duk_gc(ctx, 0); /* the template heap is copied into every worker: keep it lean */
    return 0;
}

struct sandbox_engine *sandbox_engine_create(const struct sandbox_engine_host *host, char **err)
{
    struct sandbox_engine *e = xcalloc(1, sizeof *e);
    sandbox_limits_init(&e->limits, 0);
    if (host)
        e->host = *host;
    e->ctx = duk_create_heap(sandbox_limits_alloc, sandbox_limits_realloc, sandbox_limits_free,
                             &e->limits, fatal_handler);
    if (e->ctx == NULL) {
        *err = xstrdup("cannot create the JavaScript heap");
        sandbox_limits_release(&e->limits);
        free(e);
        return NULL;
    }
    if (duk_safe_call(e->ctx, load_prelude, NULL, 0, 1) != DUK_EXEC_SUCCESS) {
        duk_get_prop_string(e->ctx, -1, "stack");
        const char *s = duk_safe_to_string(e->ctx, -1);
        size_t n = strlen(s) + 64;
        *err = xmalloc(n);
        snprintf(*err, n, "prelude failed: %s", s);
        duk_destroy_heap(e->ctx);
        sandbox_limits_release(&e->limits);
        free(e);
        return NULL;
    }
    duk_pop(e->ctx);
    e->template_bytes = e->limits.mem_used;
    return e;
}

void sandbox_engine_destroy(struct sandbox_engine *e)
{
    if (e == NULL)
        return;
    duk_destroy_heap(e->ctx);
    sandbox_limits_release(&e->limits);
    free(e->code);
    free(e);
}

void sandbox_engine_set_host(struct sandbox_engine *e, const struct sandbox_engine_host *host)
{
    e->host = *host;
}

/* --- protected calls into rt ----------------------------------------------------- */

/* Decides what an error that escaped into C means: timeout and memory
 * exhaustion are reported in C (JS can no longer run); anything else ends the
 * execution through rt.fail so the prelude describes it. Pops the error. */
static duk_ret_t fail_with_top(duk_context *ctx, void *udata)
{
    (void) udata;
    push_rt(ctx);
    duk_get_prop_string(ctx, -1, "fail");
    duk_swap_top(ctx, -2);          /* [err fail rt] */
    duk_push_object(ctx);
    duk_dup(ctx, -4);
    duk_put_prop_string(ctx, -2, "error");
    duk_call_method(ctx, 1);
    return 0;
}

/* The program line of the error at the stack top (0 when it is not the
 * program's). Reads properties in a protected call: a getter could throw. */
static duk_ret_t read_error_line(duk_context *ctx, void *udata)
{
    int *line = udata;
    if (!duk_is_object(ctx, -1))
        return 0;
    duk_get_prop_string(ctx, -1, "fileName");
    if (duk_is_string(ctx, -1) && strcmp(duk_get_string(ctx, -1), PROGRAM_FILE) == 0) {
        duk_get_prop_string(ctx, -2, "lineNumber");
        *line = duk_is_number(ctx, -1) ? (int) duk_get_int(ctx, -1) : 0;
    }
    return 0;
}

static int error_line(duk_context *ctx)
{
    int line = 0;
    duk_dup_top(ctx);
    duk_safe_call(ctx, read_error_line, &line, 1, 0);
    return line;
}

static void handle_escape(struct sandbox_engine *e)
{
    duk_context *ctx = e->ctx;
    e->tainted = 1;
    if (e->limits.timed_out) {
        char msg[160];
        snprintf(msg, sizeof msg, "execution timed out after %llu ms",
                 (unsigned long long) e->timeout_ms);
        set_error(e, "TimeoutError", msg, (int) e->limits.timeout_line, 0);
    } else if (e->limits.alloc_failed && duk_is_error(ctx, -1)) {
        char msg[160];
        snprintf(msg, sizeof msg, "out of memory: the program exceeded its %llu MiB heap limit",
                 (unsigned long long) (e->limits.mem_cap >> 20));
        set_error(e, "RangeError", msg, error_line(ctx), 0);
    } else if (duk_safe_call(ctx, fail_with_top, NULL, 1, 1) != DUK_EXEC_SUCCESS) {
        set_error(e, "Error", duk_safe_to_string(ctx, -1), 0, 0);
    }
    duk_pop(ctx);
}

/* Calls rt[name](args...) with nargs values from the stack top, then drains
 * the microtask queue, all protected. Consumes the arguments. */
struct rt_call {
    const char *name;
    int nargs;
};

static duk_ret_t rt_call_and_drain(duk_context *ctx, void *udata)
{
    struct rt_call *c = udata;
    push_rt(ctx);
    duk_get_prop_string(ctx, -1, c->name);
    duk_swap_top(ctx, -2);
    for (int i = 0; i < c->nargs; i++)
        duk_dup(ctx, -2 - c->nargs);
    duk_call_method(ctx, c->nargs);
    duk_pop(ctx);
    push_rt(ctx);
    duk_get_prop_string(ctx, -1, "drain");
    duk_swap_top(ctx, -2);
    duk_call_method(ctx, 0);
    duk_pop(ctx);
    return 0;
}

static void call_rt(struct sandbox_engine *e, const char *name, int nargs)
{
    if (e->c_error || e->limits.timed_out) {
        duk_pop_n(e->ctx, nargs);
        return;
    }
    struct rt_call c = {name, nargs};
    if (duk_safe_call(e->ctx, rt_call_and_drain, &c, nargs, 1) != DUK_EXEC_SUCCESS)
        handle_escape(e);
    else
        duk_pop(e->ctx);
}

/* --- start ----------------------------------------------------------------------- */

/* Lowers the program (modern JS and TypeScript) to ES5: a function
 * expression whose body is the program, line for line. A syntax error or
 * an unsupported construct ends the execution before anything runs. */
static int prepare_source(struct sandbox_engine *e, struct buf *out)
{
    struct lower_error err;
    if (sandbox_lower(e->code, e->code_len, LOWER_MODE_MAIN, out, &err) == 0)
        return 0;
    set_error(e, "SyntaxError", err.message, err.line, err.column);
    return -1;
}

static duk_ret_t compile_program(duk_context *ctx, void *udata)
{
    struct buf *src = udata;
    duk_push_lstring(ctx, src->data, src->len);
    duk_push_string(ctx, PROGRAM_FILE);
    duk_compile(ctx, DUK_COMPILE_EVAL);
    duk_call(ctx, 0);
    if (!duk_is_function(ctx, -1))
        return duk_error(ctx, DUK_ERR_TYPE_ERROR, "program did not compile to a function");
    return 1;
}

static void syntax_error(struct sandbox_engine *e)
{
    duk_context *ctx = e->ctx;
    int line = 0;
    duk_get_prop_string(ctx, -1, "lineNumber");
    if (duk_is_number(ctx, -1))
        line = duk_get_int(ctx, -1);
    duk_pop(ctx);
    duk_get_prop_string(ctx, -1, "message");
    char msg[512];
    snprintf(msg, sizeof msg, "%s", duk_safe_to_string(ctx, -1));
    duk_pop(ctx);
    /* Duktape appends " (line N)" to compile errors: the line is reported apart. */
    char *tail = strstr(msg, " (line ");
    if (tail)
        *tail = '\0';
    duk_get_prop_string(ctx, -1, "name");
    char name[64];
    snprintf(name, sizeof name, "%s", duk_safe_to_string(ctx, -1));
    duk_pop(ctx);
    set_error(e, name, msg, line, 0);
}

static void push_limits_and_tools(struct sandbox_engine *e, const char *catalog,
                                  const struct sandbox_run_limits *l)
{
    duk_context *ctx = e->ctx;
    push_rt(ctx);
    duk_push_uint(ctx, l->max_concurrent ? l->max_concurrent : 256);
    duk_put_prop_string(ctx, -2, "maxConcurrent");
    duk_push_number(ctx, (double) (l->memory_bytes >> 20));
    duk_put_prop_string(ctx, -2, "memoryLimitMb");
    duk_pop(ctx);
    push_host_text(ctx, catalog ? catalog : "", catalog ? strlen(catalog) : 0);
}

/* The prelude installs the empty catalog when the template is built
 * (50_tools.js), and every engine starts from that template once: installing
 * it again would only rebuild the same `tools` proxy (~50 us of a worker's
 * ~700 us per call without downstream servers). */
static int catalog_is_empty(const char *catalog)
{
    return catalog == NULL || catalog[0] == '\0' || strcmp(catalog, "{}") == 0;
}

static duk_ret_t install_tools(duk_context *ctx, void *udata)
{
    (void) udata;
    push_rt(ctx);
    duk_get_prop_string(ctx, -1, "installTools");
    duk_swap_top(ctx, -2);
    duk_dup(ctx, -3);
    duk_call_method(ctx, 1);
    return 0;
}

/* [ ... text ] -> [ ... ]: rt.installBuiltins(text) (sandbox/prelude/55_state.js). */
static duk_ret_t install_builtins(duk_context *ctx, void *udata)
{
    (void) udata;
    push_rt(ctx);
    duk_get_prop_string(ctx, -1, "installBuiltins");
    duk_swap_top(ctx, -2);
    duk_dup(ctx, -3);
    duk_call_method(ctx, 1);
    return 0;
}

void sandbox_engine_set_builtins(struct sandbox_engine *e, const char *json)
{
    e->builtins = json;
}

/* Installs the built-in namespaces the host turned on for this run: 0, or
 * -1 with the outcome set. */
static int start_builtins(struct sandbox_engine *e)
{
    const char *json = e->builtins;
    e->builtins = NULL;
    if (json == NULL)
        return 0;
    push_host_text(e->ctx, json, strlen(json));
    int rc = duk_safe_call(e->ctx, install_builtins, NULL, 1, 1);
    duk_pop(e->ctx);
    if (rc == DUK_EXEC_SUCCESS)
        return 0;
    set_error(e, "Error", "cannot install the state and skills namespaces", 0, 0);
    return -1;
}

void sandbox_engine_start(struct sandbox_engine *e, const char *code, size_t len,
                          const char *catalog_json, const struct sandbox_run_limits *limits)
{
    duk_context *ctx = e->ctx;
    e->started = 1;
    e->code = xstrndup(code, len);
    e->code_len = len;
    e->timeout_ms = limits->timeout_ms;
    e->limits.mem_cap = limits->memory_bytes;
    e->limits.mem_peak = e->limits.mem_used; /* this run's peak, not the template build's */
    sandbox_limits_set_deadline(&e->limits, limits->timeout_ms);

    push_limits_and_tools(e, catalog_json, limits);
    if (!catalog_is_empty(catalog_json) &&
        duk_safe_call(ctx, install_tools, NULL, 1, 1) != DUK_EXEC_SUCCESS) {
        set_error(e, "Error", "cannot install the tool catalog", 0, 0);
        duk_pop(ctx);
        return;
    }
    duk_pop(ctx);
    if (start_builtins(e) != 0)
        return;

    struct buf src;
    buf_init(&src, 0);
    if (prepare_source(e, &src) != 0) {
        buf_free(&src);
        return;
    }
    int rc = duk_safe_call(ctx, compile_program, &src, 0, 1);
    buf_free(&src);
    if (rc != DUK_EXEC_SUCCESS) {
        if (e->limits.timed_out || e->limits.alloc_failed)
            handle_escape(e);
        else {
            syntax_error(e);
            duk_pop(ctx);
        }
        return;
    }
    call_rt(e, "runMain", 1);
}

/* --- events ------------------------------------------------------------------------ */

void sandbox_engine_settle(struct sandbox_engine *e, long id, int ok, const char *json, size_t len)
{
    duk_push_number(e->ctx, (double) id);
    duk_push_boolean(e->ctx, ok);
    push_host_text(e->ctx, json ? json : "", json ? len : 0);
    call_rt(e, "settle", 3);
}

static duk_ret_t next_timer(duk_context *ctx, void *udata)
{
    (void) udata;
    push_rt(ctx);
    duk_get_prop_string(ctx, -1, "nextTimer");
    duk_swap_top(ctx, -2);
    duk_call_method(ctx, 0);
    return 1;
}

int64_t sandbox_engine_next_timer(struct sandbox_engine *e)
{
    if (e->c_error || e->limits.timed_out)
        return -1;
    int64_t t = -1;
    if (duk_safe_call(e->ctx, next_timer, NULL, 0, 1) == DUK_EXEC_SUCCESS)
        t = (int64_t) duk_get_number_default(e->ctx, -1, -1);
    duk_pop(e->ctx);
    return t;
}

void sandbox_engine_run_timers(struct sandbox_engine *e)
{
    duk_push_number(e->ctx, (double) sandbox_engine_now_ms());
    call_rt(e, "runTimers", 1);
}

static duk_ret_t inflight(duk_context *ctx, void *udata)
{
    (void) udata;
    push_rt(ctx);
    duk_get_prop_string(ctx, -1, "inflight");
    duk_swap_top(ctx, -2);
    duk_call_method(ctx, 0);
    return 1;
}

unsigned sandbox_engine_inflight(struct sandbox_engine *e)
{
    unsigned n = 0;
    if (duk_safe_call(e->ctx, inflight, NULL, 0, 1) == DUK_EXEC_SUCCESS)
        n = (unsigned) duk_get_uint_default(e->ctx, -1, 0);
    duk_pop(e->ctx);
    return n;
}

enum sandbox_engine_state sandbox_engine_state(struct sandbox_engine *e)
{
    return e->c_error || e->js_settled || !e->started ? SANDBOX_DONE : SANDBOX_RUNNING;
}

void sandbox_engine_abort(struct sandbox_engine *e, const char *name, const char *message)
{
    e->tainted = 1;
    set_error(e, name, message, 0, 0);
}

int sandbox_engine_reusable(const struct sandbox_engine *e)
{
    return e->started && !e->tainted && !e->limits.timed_out && !e->limits.alloc_failed;
}

void sandbox_engine_reset(struct sandbox_engine *e)
{
    sandbox_limits_reset(&e->limits, e->template_bytes);
    free(e->code);
    e->code = NULL;
    e->code_len = 0;
    e->timeout_ms = 0;
    e->js_settled = e->c_error = e->started = e->tainted = 0;
    e->unhandled = 0;
    e->err_name[0] = e->err_message[0] = '\0';
    e->err_line = e->err_column = 0;
}

void sandbox_engine_extend_deadline(struct sandbox_engine *e, uint64_t ms)
{
    sandbox_limits_extend_deadline(&e->limits, ms);
}

void sandbox_engine_request_interrupt(struct sandbox_engine *e)
{
    if (e)
        sandbox_request_interrupt(e->ctx);
}

unsigned sandbox_engine_unhandled(const struct sandbox_engine *e)
{
    return e->unhandled;
}

size_t sandbox_engine_mem_peak(struct sandbox_engine *e)
{
    return e->limits.mem_peak;
}

/* --- outcome ------------------------------------------------------------------------ */

/* The text of 1-based line `n` of the program (no newline), or NULL. */
static const char *line_at(const struct sandbox_engine *e, int n, size_t *len)
{
    const char *p = e->code, *end = e->code + e->code_len;
    for (int i = 1; i < n && p < end; i++) {
        const char *nl = memchr(p, '\n', (size_t) (end - p));
        if (nl == NULL)
            return NULL;
        p = nl + 1;
    }
    if (p > end || (p == end && n > 1))
        return NULL;
    const char *nl = memchr(p, '\n', (size_t) (end - p));
    *len = (size_t) ((nl ? nl : end) - p);
    if (*len && p[*len - 1] == '\r')
        (*len)--;
    return p;
}

/* A two-line excerpt: the line before and the failing line, or the failing
 * line and a caret under the column. */
static void excerpt(const struct sandbox_engine *e, int line, int column, struct buf *out)
{
    size_t len;
    const char *cur = line_at(e, line, &len);
    if (cur == NULL)
        return;
    if (len > 200)
        len = 200;
    if (column <= 0 && line > 1) {
        size_t plen;
        const char *prev = line_at(e, line - 1, &plen);
        if (prev)
            buf_printf(out, "  %d | %.*s\n", line - 1, (int) (plen > 200 ? 200 : plen), prev);
    }
    buf_printf(out, "> %d | %.*s", line, (int) len, cur);
    if (column > 0) {
        int width = snprintf(NULL, 0, "> %d | ", line);
        buf_append_char(out, '\n');
        for (int i = 0; i < width + column - 1; i++)
            buf_append_char(out, ' ');
        buf_append_char(out, '^');
    }
}

static int c_outcome(struct sandbox_engine *e, struct buf *out)
{
    buf_append_str(out, "{\"ok\":false,\"error\":{\"name\":");
    json_append_string(out, e->err_name, strlen(e->err_name));
    buf_append_str(out, ",\"message\":");
    json_append_string(out, e->err_message, strlen(e->err_message));
    if (e->err_line > 0) {
        buf_printf(out, ",\"line\":%d", e->err_line);
        if (e->err_column > 0)
            buf_printf(out, ",\"column\":%d", e->err_column);
        struct buf ex;
        buf_init(&ex, 0);
        excerpt(e, e->err_line, e->err_column, &ex);
        if (ex.len) {
            buf_append_str(out, ",\"excerpt\":");
            json_append_string(out, ex.data, ex.len);
        }
        buf_free(&ex);
    }
    return buf_append_str(out, "}}");
}

static duk_ret_t get_outcome(duk_context *ctx, void *udata)
{
    (void) udata;
    push_rt(ctx);
    duk_get_prop_string(ctx, -1, "outcome");
    duk_swap_top(ctx, -2);
    duk_call_method(ctx, 0);
    return 1;
}

/* Appends an error description from the prelude, adding the excerpt. */
static int js_error_outcome(struct sandbox_engine *e, const char *json, size_t len, struct buf *out)
{
    buf_append_str(out, "{\"ok\":false,\"error\":");
    /* Insert the excerpt before the closing brace of the description. */
    if (len < 2 || json[len - 1] != '}')
        return buf_append_str(out, "{\"name\":\"Error\",\"message\":\"malformed error\"}}");
    json_append_engine_text(out, json, len - 1);
    duk_context *ctx = e->ctx;
    (void) ctx;
    int line = 0;
    const char *lp = strstr(json, "\"line\":");
    if (lp)
        line = atoi(lp + 7);
    if (line > 0) {
        struct buf ex;
        buf_init(&ex, 0);
        excerpt(e, line, 0, &ex);
        if (ex.len) {
            buf_append_str(out, ",\"excerpt\":");
            json_append_string(out, ex.data, ex.len);
        }
        buf_free(&ex);
    }
    return buf_append_str(out, "}}");
}

/* Past max, the preview (the first max bytes of the JSON, as a string);
 * when the whole JSON is at most max_whole bytes it follows as "whole", for
 * the host to keep (mcp-server/stash.c). */
static int value_outcome(const char *json, size_t len, size_t max, size_t max_whole,
                         struct buf *out)
{
    if (json == NULL)
        return buf_append_str(out, "{\"ok\":true}");
    if (max && len > max) {
        size_t cut = max;
        while (cut > 0 && ((unsigned char) json[cut] & 0xC0) == 0x80)
            cut--;
        buf_printf(out, "{\"ok\":true,\"truncated\":{\"bytes\":%zu,\"limit\":%zu},\"value\":", len,
                   max);
        json_append_string(out, json, cut);
        if (len <= max_whole) {
            buf_append_str(out, ",\"whole\":");
            json_append_engine_text(out, json, len);
        }
        return buf_append_str(out, "}");
    }
    buf_append_str(out, "{\"ok\":true,\"value\":");
    json_append_engine_text(out, json, len);
    return buf_append_str(out, "}");
}

int sandbox_engine_outcome(struct sandbox_engine *e, size_t max_value_bytes, struct buf *out)
{
    return sandbox_engine_outcome_whole(e, max_value_bytes, 0, out);
}

int sandbox_engine_outcome_whole(struct sandbox_engine *e, size_t max_value_bytes,
                                 size_t max_whole_bytes, struct buf *out)
{
    duk_context *ctx = e->ctx;
    if (!e->c_error && e->limits.timed_out) {
        char msg[160];
        snprintf(msg, sizeof msg, "execution timed out after %llu ms",
                 (unsigned long long) e->timeout_ms);
        set_error(e, "TimeoutError", msg, (int) e->limits.timeout_line, 0);
    }
    if (e->c_error)
        return c_outcome(e, out);
    if (duk_safe_call(ctx, get_outcome, NULL, 0, 1) != DUK_EXEC_SUCCESS) {
        duk_pop(ctx);
        e->tainted = 1;
        if (e->limits.timed_out)
            set_error(e, "TimeoutError", "execution timed out while producing the result", 0, 0);
        else
            set_error(e, "RangeError", "out of memory while producing the result", 0, 0);
        return c_outcome(e, out);
    }
    duk_get_prop_index(ctx, -1, 0);
    int ok = duk_get_boolean(ctx, -1);
    duk_pop(ctx);
    duk_get_prop_index(ctx, -1, 1);
    duk_size_t len = 0;
    const char *json = duk_is_string(ctx, -1) ? duk_get_lstring(ctx, -1, &len) : NULL;
    int rc;
    if (ok)
        rc = value_outcome(json, len, max_value_bytes, max_whole_bytes, out);
    else if (max_value_bytes && len > max_value_bytes) /* the host takes no more */
        rc = buf_printf(out,
                        "{\"ok\":false,\"error\":{\"name\":\"RangeError\",\"message\":\"the "
                        "program threw an error whose description is %zu bytes of JSON, over the "
                        "limit of %zu bytes (maxResultBytes)\"}}",
                        (size_t) len, max_value_bytes);
    else
        rc = js_error_outcome(e, json ? json : "", len, out);
    duk_pop_2(ctx);
    return rc;
}
