/* Unit tests of sandbox/worker/engine.c: programs run in-process against a scripted
 * host that answers tool calls out of order, so concurrency is observable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/buf.h"
#include "sandbox/worker/engine.h"
#include "sandbox/worker/limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct call {
    long id;
    char op[16];
    char name[128];
    char args[512];
};

struct host {
    struct call calls[2048];
    int ncalls, nsettled;
    int max_pending;
    struct buf logs;
    long next_id;
};

static long host_call(void *ud, const char *op, const char *name, const char *args, size_t alen,
                      char *msg, size_t msgsz)
{
    struct host *h = ud;
    if (strcmp(name, "refuse.me") == 0) {
        snprintf(msg, msgsz, "refused by the test host");
        return -1;
    }
    struct call *c = &h->calls[h->ncalls++];
    c->id = ++h->next_id;
    snprintf(c->op, sizeof c->op, "%s", op);
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->args, sizeof c->args, "%.*s", (int) alen, args);
    int pending = h->ncalls - h->nsettled;
    if (pending > h->max_pending)
        h->max_pending = pending;
    return c->id;
}

static void host_log(void *ud, const char *level, const char *text, size_t len)
{
    struct host *h = ud;
    buf_printf(&h->logs, "%s:", level);
    buf_append(&h->logs, text, len); /* whole: text may hold NUL bytes */
    buf_append_char(&h->logs, '\n');
}

/* Answers the newest unanswered call first (the harshest order). */
static void answer_one(struct sandbox_engine *e, struct host *h)
{
    for (int i = h->ncalls - 1; i >= 0; i--) {
        struct call *c = &h->calls[i];
        if (c->id == 0)
            continue;
        long id = c->id;
        c->id = 0;
        h->nsettled++;
        char reply[700];
        if (strcmp(c->name, "t.fail") == 0) {
            snprintf(reply, sizeof reply,
                     "{\"name\":\"ToolError\",\"message\":\"it failed\",\"tool\":\"t.fail\"}");
            sandbox_engine_settle(e, id, 0, reply, strlen(reply));
        } else {
            snprintf(reply, sizeof reply, "{\"echo\":%s,\"n\":%d}", c->args, h->nsettled);
            sandbox_engine_settle(e, id, 1, reply, strlen(reply));
        }
        return;
    }
}

/* The catalog of run(): server t with echo and fail (answered by answer_one). */
#define T_CATALOG "{\"t\":{\"name\":\"t\",\"tools\":{\"echo\":\"echo\",\"fail\":\"fail\"}}}"

static char *run_with(const char *code, uint64_t timeout_ms, uint64_t mem, struct host *h)
{
    struct sandbox_engine_host eh = {h, host_call, host_log};
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &err);
    if (e == NULL)
        fail_msg("create: %s", err);
    struct sandbox_run_limits l = {timeout_ms, mem, 256};
    sandbox_engine_start(e, code, strlen(code), T_CATALOG, &l);
    while (sandbox_engine_state(e) == SANDBOX_RUNNING) {
        if (h->ncalls > h->nsettled) {
            answer_one(e, h);
            continue;
        }
        int64_t t = sandbox_engine_next_timer(e);
        if (t < 0) {
            sandbox_engine_abort(e, "Error", "stalled");
            break;
        }
        int64_t now = sandbox_engine_now_ms();
        if (t > now)
            usleep((useconds_t) (t - now) * 1000);
        sandbox_engine_run_timers(e);
    }
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    sandbox_engine_destroy(e);
    return buf_steal(&out);
}

static char *run(const char *code, struct host *h)
{
    return run_with(code, 5000, 64u << 20, h);
}

#define EXPECT_OUTCOME(code, expected)                                                             \
    do {                                                                                           \
        struct host h_ = {0};                                                                      \
        buf_init(&h_.logs, 0);                                                                     \
        char *o_ = run(code, &h_);                                                                 \
        assert_string_equal(o_, expected);                                                         \
        free(o_);                                                                                  \
        buf_free(&h_.logs);                                                                        \
    } while (0)

static void test_return_value(void **state)
{
    EXPECT_OUTCOME("return 1+1", "{\"ok\":true,\"value\":2}");
    EXPECT_OUTCOME("var a = {x: [1, 'two']}; return a;", "{\"ok\":true,\"value\":{\"x\":[1,\"two\"]}}");
    EXPECT_OUTCOME("var x = 1;", "{\"ok\":true}");
}

static void test_throw_reports_line(void **state)
{
    EXPECT_OUTCOME("var a = 1;\nthrow new TypeError('bad thing');",
                   "{\"ok\":false,\"error\":{\"name\":\"TypeError\",\"message\":\"bad thing\","
                   "\"line\":2,\"excerpt\":\"  1 | var a = 1;\\n> 2 | throw new TypeError('bad "
                   "thing');\"}}");
}

static void test_syntax_error(void **state)
{
    /* Reported by the lowering pass, before anything runs: line, column, caret. */
    EXPECT_OUTCOME("var a = 1;\nvar b = ;",
                   "{\"ok\":false,\"error\":{\"name\":\"SyntaxError\",\"message\":\"Unexpected "
                   "token ';'\",\"line\":2,\"column\":9,\"excerpt\":\"> 2 | var b = ;\\n"
                   "              ^\"}}");
}

static void test_tool_calls_overlap(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    char *o = run("var ps = [];\n"
                  "for (var i = 0; i < 5; i++) ps.push(tools.t.echo({i: i}));\n"
                  "return Promise.all(ps).then(function (r) { return r.map(function (x) { return "
                  "x.echo.i; }); });",
                  &h);
    assert_string_equal(o, "{\"ok\":true,\"value\":[0,1,2,3,4]}");
    assert_int_equal(h.max_pending, 5);
    assert_string_equal(h.calls[0].name, "t.echo");
    assert_string_equal(h.calls[0].op, "tool");
    free(o);
    buf_free(&h.logs);
}

/* Calls past maxConcurrent (256 here) wait in the prelude's queue and go out
 * oldest first as others settle; a second burst after the queue drained
 * queues again. */
static void test_calls_queue_past_the_limit(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    char *o = run("async function burst(base, n) {\n"
                  "  var ps = [];\n"
                  "  for (var i = 0; i < n; i++) ps.push(tools.t.echo({i: base + i}));\n"
                  "  var r = await Promise.all(ps);\n"
                  "  for (var j = 0; j < n; j++)\n"
                  "    if (r[j].echo.i !== base + j) throw new Error('order ' + j);\n"
                  "  return r.length;\n"
                  "}\n"
                  "return [await burst(0, 700), await burst(700, 300)];",
                  &h);
    assert_string_equal(o, "{\"ok\":true,\"value\":[700,300]}");
    assert_int_equal(h.ncalls, 1000);
    assert_int_equal(h.max_pending, 256);
    for (int i = 0; i < 1000; i++) { /* dispatched in program order */
        char want[32];
        snprintf(want, sizeof want, "{\"i\":%d}", i);
        assert_string_equal(h.calls[i].args, want);
    }
    free(o);
    buf_free(&h.logs);
}

static void test_await_in_coroutine(void **state)
{
    /* Hand-lowered async code, as the lowering pass will emit it. */
    EXPECT_OUTCOME("var r = __await(callTool('t.echo', {a: 1}));\n"
                   "var f = __async(function (x) { var v = __await(tools.t.echo({x: x})); return "
                   "v.echo.x * 2; });\n"
                   "var both = __await(Promise.all([f(2), f(3)]));\n"
                   "return [r.echo.a, both];",
                   "{\"ok\":true,\"value\":[1,[4,6]]}");
}

static void test_tool_error_caught(void **state)
{
    EXPECT_OUTCOME("try { __await(tools.t.fail({})); return 'no'; }\n"
                   "catch (e) { return [e.name, e.message, e instanceof ToolError, e.tool]; }",
                   "{\"ok\":true,\"value\":[\"ToolError\",\"it failed\",true,\"t.fail\"]}");
}

static void test_tool_error_uncaught_has_call_line(void **state)
{
    EXPECT_OUTCOME("var x = 1;\n__await(tools.t.fail({}));",
                   "{\"ok\":false,\"error\":{\"name\":\"ToolError\",\"message\":\"it failed\","
                   "\"line\":2,\"tool\":\"t.fail\",\"excerpt\":\"  1 | var x = 1;\\n> 2 | "
                   "__await(tools.t.fail({}));\"}}");
}

/* The line is the call's, not the await's: a call made in a nested function
 * and awaited elsewhere (or through Promise.all) points at the call. */
static void test_tool_error_line_is_the_call_site(void **state)
{
    EXPECT_OUTCOME("var f = function () {\n"
                   "    return tools.t.fail({});\n"
                   "};\n"
                   "var p = f();\n"
                   "__await(Promise.all([p]));",
                   "{\"ok\":false,\"error\":{\"name\":\"ToolError\",\"message\":\"it failed\","
                   "\"line\":2,\"tool\":\"t.fail\",\"excerpt\":\"  1 | var f = function () {\\n> 2 "
                   "|     return tools.t.fail({});\"}}");
}

static void test_refused_call_rejects(void **state)
{
    EXPECT_OUTCOME("try { __await(callTool('refuse.me', {})); } catch (e) { return e.message; }",
                   "{\"ok\":true,\"value\":\"refused by the test host\"}");
}

static void test_console_format(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    char *o = run("var c = {a: 1}; c.self = c;\n"
                  "console.log('s', 1, {b: [1, 2]}, null, undefined, new Error('boom'));\n"
                  "console.warn(c); console.error(function foo() {}); console.info(true);",
                  &h);
    assert_string_equal(o, "{\"ok\":true}");
    assert_string_equal(h.logs.data,
                        "log:s 1 {\"b\":[1,2]} null undefined Error: boom\n"
                        "warn:{\"a\":1,\"self\":\"[Circular]\"}\n"
                        "error:[Function: foo]\n"
                        "info:true\n");
    free(o);
    buf_free(&h.logs);
}

static void test_microtask_order(void **state)
{
    /* Matches Node: a1 b1 sync a2 b2 t1 a3 t2 (research/duktape.md §1.3). */
    EXPECT_OUTCOME("var out = [];\n"
                   "var a = __async(function () { out.push('a1'); __await(null); out.push('a2'); "
                   "__await(null); out.push('a3'); });\n"
                   "var b = __async(function () { out.push('b1'); __await(null); out.push('b2'); "
                   "});\n"
                   "a(); b(); out.push('sync');\n"
                   "Promise.resolve().then(function () { out.push('t1'); }).then(function () { "
                   "out.push('t2'); });\n"
                   "__await(sleep(1));\n"
                   "return out.join(' ');",
                   "{\"ok\":true,\"value\":\"a1 b1 sync a2 b2 t1 a3 t2\"}");
}

static void test_timers(void **state)
{
    EXPECT_OUTCOME("var out = [];\n"
                   "setTimeout(function () { out.push('b'); }, 20);\n"
                   "setTimeout(function () { out.push('a'); }, 5);\n"
                   "var id = setTimeout(function () { out.push('never'); }, 10); clearTimeout(id);\n"
                   "__await(sleep(40));\n"
                   "return out;",
                   "{\"ok\":true,\"value\":[\"a\",\"b\"]}");
}

/* An unhandled rejection is a warning and a count; the program runs on and
 * its own outcome is the result. */
static void test_unhandled_rejection(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    struct sandbox_engine_host eh = {&h, host_call, host_log};
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &err);
    struct sandbox_run_limits l = {5000, 64u << 20, 256};
    const char *code =
        "Promise.reject(new Error('lost'));\nPromise.reject(2).catch(function () {});\n"
        "Promise.reject('x'); return 1;";
    sandbox_engine_start(e, code, strlen(code), NULL, &l);
    assert_int_equal(sandbox_engine_state(e), SANDBOX_DONE);
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    assert_string_equal(out.data, "{\"ok\":true,\"value\":1}");
    assert_string_equal(h.logs.data, "warn:Unhandled promise rejection: Error: lost\n"
                                     "warn:Unhandled promise rejection: x\n");
    assert_int_equal(sandbox_engine_unhandled(e), 2);
    buf_free(&out);
    sandbox_engine_destroy(e);
    buf_free(&h.logs);
}

/* A name holding U+0000 reaches the host whole, in the internal form. */
static void test_call_name_with_nul(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    char *o = run("callTool('t.e\\u0000x', {'k\\u0000': '\\ud800'}).catch(function () {});\n"
                  "console.log('a\\u0000b');",
                  &h);
    assert_int_equal(h.ncalls, 1);
    assert_string_equal(h.calls[0].name, "t.e\xC0\x80x");
    /* the engine's JSON text: the worker makes it valid UTF-8 (json_append_engine_text) */
    assert_string_equal(h.calls[0].args, "{\"k\\u0000\":\"\xED\xA0\x80\"}");
    assert_memory_equal(h.logs.data, "log:a\0b\n", 8);
    free(o);
    buf_free(&h.logs);
}

/* Text from the host has UTF-16 semantics in the program: U+1F600 as raw
 * UTF-8 is a surrogate pair (length 2) equal to the literal, a lone surrogate
 * escape stays one unit, \u0000 stays inside; the catalog's names too. */
static void test_host_text_is_utf16(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    struct sandbox_engine_host eh = {&h, host_call, host_log};
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &err);
    struct sandbox_run_limits l = {5000, 64u << 20, 256};
    const char *cat = "{\"t\":{\"name\":\"t\",\"tools\":{\"g_\":\"g_\xF0\x9F\x98\x80\"}}}";
    const char *code =
        "var s = await callTool('t.x', {});\n"
        "var f = tools.t['g_\\ud83d\\ude00'];\n"
        "return [s.length, s.charCodeAt(1), s.codePointAt(1), s === 'a\\ud83d\\ude00\\ud800\\u0000\\ud840\\udc00',\n"
        "        s.slice(0, 2), typeof f, Object.keys(await callTool('t.y', {}))[0].length];";
    sandbox_engine_start(e, code, strlen(code), cat, &l);
    assert_int_equal(h.ncalls, 1);
    const char *reply = "\"a\xF0\x9F\x98\x80\\ud800\\u0000\xF0\xA0\x80\x80\"";
    sandbox_engine_settle(e, h.calls[0].id, 1, reply, strlen(reply));
    assert_int_equal(h.ncalls, 2);
    const char *keyed = "{\"\xF0\x9F\x98\x80\":1}";
    sandbox_engine_settle(e, h.calls[1].id, 1, keyed, strlen(keyed));
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    /* on the way out, the half of a pair that slice kept is an escape, as in Node */
    assert_string_equal(out.data, "{\"ok\":true,\"value\":[7,55357,128512,true,\"a\\ud83d\","
                                  "\"function\",2]}");
    buf_free(&out);
    sandbox_engine_destroy(e);
    buf_free(&h.logs);
}

static void test_stall(void **state)
{
    EXPECT_OUTCOME("__await(new Promise(function () {}));",
                   "{\"ok\":false,\"error\":{\"name\":\"Error\",\"message\":\"stalled\"}}");
}

static void test_infinite_loop_times_out(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    uint64_t t0 = sandbox_now_ns();
    char *o = run_with("var i = 0;\nwhile (true) { i++; }", 200, 64u << 20, &h);
    uint64_t ms = (sandbox_now_ns() - t0) / 1000000u;
    assert_string_equal(o, "{\"ok\":false,\"error\":{\"name\":\"TimeoutError\",\"message\":"
                           "\"execution timed out after 200 ms\",\"line\":2,\"excerpt\":\"  1 | "
                           "var i = 0;\\n> 2 | while (true) { i++; }\"}}");
    assert_true(ms >= 190 && ms < 2000);
    free(o);
    buf_free(&h.logs);
}

static void test_catch_cannot_swallow_timeout(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    char *o = run_with("for (;;) { try { while (true) {} } catch (e) { } }", 100, 64u << 20, &h);
    assert_non_null(strstr(o, "\"name\":\"TimeoutError\""));
    free(o);
    buf_free(&h.logs);
}

static void test_memory_bomb(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    char *o = run_with("var a = []; while (true) a.push('x'.repeat(100000) + a.length);", 10000,
                       16u << 20, &h);
    assert_non_null(strstr(o, "\"name\":\"RangeError\",\"message\":\"out of memory"));
    free(o);
    buf_free(&h.logs);
}

/* A Map or Set that outgrows the memory limit ends the run with the same
 * RangeError, whichever of its table or its entries' array failed to grow. */
static void test_collection_memory_bomb(void **state)
{
    static const char *const programs[] = {
        "var m = new Map(); for (var i = 0; ; i++) m.set(i, 'v' + i);",
        "var s = new Set(); for (var i = 0; ; i++) s.add('k' + i);",
        "var m = new Map(), it = m.keys(); for (var i = 0; ; i++) { m.set({}, i); if (i % 3 === 0) "
        "m.delete(i); it.next(); }",
    };
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
        struct host h = {0};
        buf_init(&h.logs, 0);
        char *o = run_with(programs[i], 20000, 16u << 20, &h);
        assert_non_null(strstr(o, "\"name\":\"RangeError\",\"message\":\"out of memory"));
        free(o);
        buf_free(&h.logs);
    }
}

/* Iterators over a Map that is compacted, cleared and refilled while the
 * collector runs keep their place: the keys they give are those a fresh
 * walk of the final map would give after their position (checked in JS). */
static void test_collection_iterators_survive_gc(void **state)
{
    EXPECT_OUTCOME(
        "var m = new Map(), its = [], seen = [];"
        "for (var i = 0; i < 5000; i++) m.set('k' + i, i);"
        "for (var j = 0; j < 10; j++) { var it = m.values(); for (var n = 0; n < j * 300; n++) it.next(); its.push(it); }"
        "for (var i = 0; i < 4900; i++) m.delete('k' + i);"
        "for (var g = 0; g < 2000; g++) { var junk = []; for (var q = 0; q < 50; q++) junk.push({q: q}); }"
        "for (var i = 0; i < 100; i++) m.set('n' + i, 10000 + i);"
        "var ok = true; for (var j = 0; j < its.length; j++) { var got = [], s;"
        "  while (!(s = its[j].next()).done) got.push(s.value);"
        "  ok = ok && got.length === 200 && got[0] === 4900 && got[199] === 10099; }"
        "m.clear(); m.set('x', 1); var it2 = m.keys(); m.clear(); m.set('y', 2);"
        "return [ok, it2.next().value, it2.next().done, m.size];",
        "{\"ok\":true,\"value\":[true,\"y\",true,1]}");
}

/* Appending to a string grows it in place (sandbox/duktape 0023): 3.4 MB built
 * from 100,000 appends, by '+=' on a local, on a variable of the enclosing
 * function (from a callback), on a property, and by a join, well inside a
 * 4 s limit; each append copied the whole string before (hundreds of
 * gigabytes of copying). */
static void test_append_is_linear(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    char *o = run_with("let a = '';\n"
                       "for (let i = 0; i < 100000; i++) a += `${i % 10},a row of text, thirty-one bytes\\n`;\n"
                       "let b = '';\n"
                       "[...Array(100000).keys()].forEach((i) => { b += i % 10 + ',a row of text, thirty-one bytes\\n'; });\n"
                       "const c = [...Array(100000).keys()].map((i) => i % 10 + ',a row of text, thirty-one bytes').join('\\n') + '\\n';\n"
                       "const o = { t: '' }; for (let i = 0; i < 100000; i++) o.t += i % 10 + ',a row of text, thirty-one bytes\\n';\n"
                       "return [a.length, a === b, b === c, c === o.t, a.slice(-34, -1)];",
                       4000, 256u << 20, &h);
    assert_string_equal(o, "{\"ok\":true,\"value\":[3400000,true,true,true,\"9,a row of text, thirty-one bytes\"]}");
    free(o);
    buf_free(&h.logs);
}

/* A string that doubles, or grows by appends, in place still ends at the
 * memory limit with the usual RangeError; a program that catches it sees
 * Duktape's allocation error and the string as it was before the append. */
static void test_append_memory_limit(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    char *o = run_with("let s = 'x'.repeat(1000); for (;;) s += s;", 10000, 16u << 20, &h);
    assert_non_null(strstr(o, "\"name\":\"RangeError\",\"message\":\"out of memory"));
    free(o);
    o = run_with("let s = ''; const chunk = 'y'.repeat(4096);\n"
                 "try { for (;;) s += chunk; } catch (e) { return [e.message, s.length > 4e6, s.length % 4096]; }",
                 10000, 16u << 20, &h);
    assert_string_equal(o, "{\"ok\":true,\"value\":[\"alloc failed\",true,0]}");
    free(o);
    buf_free(&h.logs);
}

static void test_internals_removed(void **state)
{
    EXPECT_OUTCOME("return [typeof Duktape, typeof CBOR, typeof Buffer, typeof print, typeof "
                   "performance.now, performance.now() % 1, typeof __await];",
                   "{\"ok\":true,\"value\":[\"undefined\",\"undefined\",\"undefined\","
                   "\"undefined\",\"function\",0,\"function\"]}");
}

static void test_tools_names(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    struct sandbox_engine_host eh = {&h, host_call, host_log};
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &err);
    struct sandbox_run_limits l = {5000, 64u << 20, 256};
    const char *cat = "{\"my_server\":{\"name\":\"my-server\",\"tools\":{\"get_weather\":\"get-"
                      "weather\"}}}";
    const char *code = "tools.my_server.get_weather({});\n"
                       "tools['my-server']['get-weather']({});\n"
                       "var nope = typeof tools.my_server.nope;\n"
                       "return [Object.keys(tools), Object.keys(tools.my_server), typeof "
                       "tools.then, nope];";
    sandbox_engine_start(e, code, strlen(code), cat, &l);
    assert_int_equal(h.ncalls, 2);
    /* named by the server's id, which has no dot, then the tool's original name */
    assert_string_equal(h.calls[0].name, "my_server.get-weather");
    assert_string_equal(h.calls[1].name, "my_server.get-weather");
    while (h.ncalls > h.nsettled)
        answer_one(e, &h);
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    assert_string_equal(out.data,
                        "{\"ok\":true,\"value\":[[\"my_server\"],[\"get_weather\"],\"undefined\",\"undefined\"]}");
    buf_free(&out);
    sandbox_engine_destroy(e);
    buf_free(&h.logs);
}

/* An empty catalog is not installed again (the template's is used): tools
 * must behave as with a catalog installed at the start. */
static void test_tools_with_empty_catalog(void **state)
{
    (void) state;
    const char *cats[] = {"{}", "", NULL};
    for (size_t i = 0; i < 3; i++) {
        struct host h = {0};
        buf_init(&h.logs, 0);
        struct sandbox_engine_host eh = {&h, host_call, host_log};
        char *err = NULL;
        struct sandbox_engine *e = sandbox_engine_create(&eh, &err);
        struct sandbox_run_limits l = {5000, 64u << 20, 256};
        const char *code = "const r = [typeof tools.some_server];\n"
                           "try { tools.some_server.do_it({a: 1}); } catch (e) { r.push(e.message); }\n"
                           "return [Object.keys(tools), typeof tools.then, r];";
        sandbox_engine_start(e, code, strlen(code), cats[i], &l);
        while (h.ncalls > h.nsettled)
            answer_one(e, &h);
        assert_int_equal(h.ncalls, 0);
        struct buf out;
        buf_init(&out, 0);
        sandbox_engine_outcome(e, 1 << 20, &out);
        assert_string_equal(out.data, "{\"ok\":true,\"value\":[[],\"undefined\",[\"undefined\","
                                      "\"Unknown tool \\\"some_server.do_it\\\". No downstream "
                                      "tools are available.\"]]}");
        buf_free(&out);
        sandbox_engine_destroy(e);
        buf_free(&h.logs);
    }
}

/* `tools` and each server are filled on the first trap that reaches them:
 * whatever a program does first must see the whole catalog (each case runs
 * in a fresh engine). */
static char *run_catalog(const char *code, const char *cat)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    struct sandbox_engine_host eh = {&h, host_call, host_log};
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &err);
    if (e == NULL)
        fail_msg("create: %s", err);
    struct sandbox_run_limits l = {5000, 64u << 20, 256};
    sandbox_engine_start(e, code, strlen(code), cat, &l);
    while (h.ncalls > h.nsettled)
        answer_one(e, &h);
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    sandbox_engine_destroy(e);
    buf_free(&h.logs);
    return buf_steal(&out);
}

static void test_tools_lazy_first_use(void **state)
{
    (void) state;
    const char *cat = "{\"my_server\":{\"name\":\"my-server\",\"tools\":{\"get_weather\":\"get-"
                      "weather\",\"b\":\"b\"}},\"kv\":{\"name\":\"kv\",\"tools\":{}}}";
    static const char *const cases[][2] = {
        {"return ['my_server' in tools, 'nope' in tools, 'get_weather' in tools.my_server, "
         "'x' in tools.kv];",
         "[true,false,true,false]"},
        {"return Object.keys(tools.my_server).concat(Object.getOwnPropertyNames(tools));",
         "[\"get_weather\",\"b\",\"my_server\",\"my-server\",\"kv\"]"},
        {"var r = []; for (var k in tools) r.push(k);\n"
         "for (var k2 in tools['my-server']) r.push(k2); return r;",
         "[\"my_server\",\"kv\",\"get_weather\",\"b\"]"},
        {"'use strict'; var r = [];\n"
         "try { delete tools.my_server; } catch (e) { r.push(e.name); }\n"
         "try { tools.kv = 1; } catch (e) { r.push(e.name); }\n"
         "try { tools.my_server.b = 1; } catch (e) { r.push(e.name); }\n"
         "return r.concat([typeof tools.kv, typeof tools.my_server.b]);",
         "[\"TypeError\",\"TypeError\",\"TypeError\",\"object\",\"function\"]"},
        {"tools.my_server.extra = 2; return [tools.my_server.extra, delete tools.my_server.extra, "
         "'extra' in tools.my_server, Object.keys(tools.my_server)];",
         "[2,true,false,[\"get_weather\",\"b\"]]"},
        {"return [JSON.stringify(tools), tools.my_server['get-weather'] === "
         "tools['my-server'].get_weather, typeof tools.other, typeof tools.kv.thing];",
         "[\"{\\\"my_server\\\":{},\\\"kv\\\":{}}\",true,\"undefined\",\"undefined\"]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *o = run_catalog(cases[i][0], cat);
        char want[512];
        snprintf(want, sizeof want, "{\"ok\":true,\"value\":%s}", cases[i][1]);
        assert_string_equal(o, want);
        free(o);
    }
}

static void test_result_truncated(void **state)
{
    struct host h = {0};
    buf_init(&h.logs, 0);
    struct sandbox_engine_host eh = {&h, host_call, host_log};
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &err);
    struct sandbox_run_limits l = {5000, 64u << 20, 256};
    const char *code = "return 'x'.repeat(100);";
    sandbox_engine_start(e, code, strlen(code), NULL, &l);
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 10, &out);
    assert_string_equal(out.data, "{\"ok\":true,\"truncated\":{\"bytes\":102,\"limit\":10},"
                                  "\"value\":\"\\\"xxxxxxxxx\"}");
    buf_free(&out);
    sandbox_engine_destroy(e);
    buf_free(&h.logs);
}

int main(void)
{
    sandbox_limits_stack_init(4u << 20);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_return_value),
        cmocka_unit_test(test_throw_reports_line),
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_tool_calls_overlap),
        cmocka_unit_test(test_calls_queue_past_the_limit),
        cmocka_unit_test(test_await_in_coroutine),
        cmocka_unit_test(test_tool_error_caught),
        cmocka_unit_test(test_tool_error_uncaught_has_call_line),
        cmocka_unit_test(test_tool_error_line_is_the_call_site),
        cmocka_unit_test(test_refused_call_rejects),
        cmocka_unit_test(test_console_format),
        cmocka_unit_test(test_microtask_order),
        cmocka_unit_test(test_timers),
        cmocka_unit_test(test_unhandled_rejection),
        cmocka_unit_test(test_call_name_with_nul),
        cmocka_unit_test(test_host_text_is_utf16),
        cmocka_unit_test(test_stall),
        cmocka_unit_test(test_infinite_loop_times_out),
        cmocka_unit_test(test_catch_cannot_swallow_timeout),
        cmocka_unit_test(test_memory_bomb),
        cmocka_unit_test(test_collection_memory_bomb),
        cmocka_unit_test(test_collection_iterators_survive_gc),
        cmocka_unit_test(test_append_is_linear),
        cmocka_unit_test(test_append_memory_limit),
        cmocka_unit_test(test_internals_removed),
        cmocka_unit_test(test_tools_names),
        cmocka_unit_test(test_tools_with_empty_catalog),
        cmocka_unit_test(test_tools_lazy_first_use),
        cmocka_unit_test(test_result_truncated),
    };
    return cmocka_run_group_tests_name("sandbox_engine", tests, NULL, NULL);
}
