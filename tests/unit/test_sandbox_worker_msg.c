/* Unit tests of sandbox/host/worker_msg.c: the kind of a worker line from its
 * head, the strict JSON check fed a byte (or a chunk) at a time with the
 * same answer as in one go, the members it records, and what it refuses
 * (bad grammar, bad UTF-8, depth, duplicate or too many members). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sandbox/host/worker_msg.h"
#include "sandbox/ipc.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_kind_from_head(void **state)
{
    (void) state;
    const char *call = "{\"t\":\"call\",\"id\":1}";
    assert_int_equal(worker_msg_kind(call, strlen(call)), WORKER_MSG_CALL);
    assert_int_equal(worker_msg_kind("{\"t\":\"log\",", 11), WORKER_MSG_LOG);
    assert_int_equal(worker_msg_kind("{\"t\":\"dropped\",\"n\":1}", 21), WORKER_MSG_DROPPED);
    assert_int_equal(worker_msg_kind("{\"t\":\"done\",\"outcome\"", 21), WORKER_MSG_DONE);
    /* a prefix of several heads, or of one: not yet known */
    assert_int_equal(worker_msg_kind("", 0), WORKER_MSG_PENDING);
    assert_int_equal(worker_msg_kind("{\"t\":\"d", 7), WORKER_MSG_PENDING);
    assert_int_equal(worker_msg_kind("{\"t\":\"done\"", 11), WORKER_MSG_PENDING);
    /* anything else, however valid as JSON, is not a worker's message */
    assert_int_equal(worker_msg_kind("{\"t\":\"done\"}", 12), WORKER_MSG_BAD);
    assert_int_equal(worker_msg_kind("{ \"t\":\"log\",", 12), WORKER_MSG_BAD);
    assert_int_equal(worker_msg_kind("{\"id\":1,\"t\":\"call\"", 18), WORKER_MSG_BAD);
    assert_int_equal(worker_msg_kind("{\"t\":\"result\",", 14), WORKER_MSG_BAD);
    assert_int_equal(worker_msg_kind("[", 1), WORKER_MSG_BAD);
    assert_string_equal(worker_msg_kind_name(WORKER_MSG_LOG), "log");
    assert_string_equal(worker_msg_kind_name(WORKER_MSG_BAD), "unknown");
}

/* The verdict on text, read in one go, and read in chunks of every size
 * from 1 to 7 (the same each time). */
static int scan(const char *text, struct worker_msg_scan *out)
{
    size_t len = strlen(text);
    worker_msg_scan_init(out);
    int whole = worker_msg_scan_end(out, text, len);
    for (size_t step = 1; step <= 7; step++) {
        struct worker_msg_scan s;
        worker_msg_scan_init(&s);
        int rc = 0;
        for (size_t n = step; n < len && rc == 0; n += step)
            rc = worker_msg_scan_feed(&s, text, n);
        if (rc == 0)
            rc = worker_msg_scan_end(&s, text, len);
        assert_int_equal(rc, whole);
        if (rc == 0)
            assert_memory_equal(s.m, out->m, sizeof s.m);
    }
    return whole;
}

static void test_valid_messages(void **state)
{
    (void) state;
    static const char *const ok[] = {
        "{}",
        " {\"a\" : [ 1 , -0.5e+3 , 0 , 10E2 , true , false , null , \"\" ] } ",
        "{\"t\":\"log\",\"level\":\"log\",\"text\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}",
        "{\"s\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud800\\u0000\"}",
        "{\"a\":{\"b\":{\"c\":[[],{}]}}}",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        struct worker_msg_scan s;
        if (scan(ok[i], &s) != 0)
            fail_msg("refused: %s", ok[i]);
    }
}

static void test_invalid_messages(void **state)
{
    (void) state;
    static const char *const bad[] = {
        "",
        "[]",               /* not an object */
        "1",
        "{",                /* cut */
        "{\"a\":1",
        "{\"a\":\"x}",
        "{}{}",             /* two */
        "{} x",
        "{\"a\":1,}",       /* trailing comma */
        "{\"a\":[1,]}",
        "{,}",
        "{\"a\"1}",
        "{a:1}",
        "{\"a\":01}",       /* leading zero */
        "{\"a\":-}",
        "{\"a\":1.}",
        "{\"a\":.5}",
        "{\"a\":1e}",
        "{\"a\":+1}",
        "{\"a\":NaN}",
        "{\"a\":tru}",
        "{\"a\":nul1}",
        "{\"a\":[1}",       /* mismatched */
        "{\"a\":{]}",
        "{\"a\":\"\\x\"}",  /* bad escapes */
        "{\"a\":\"\\u12g4\"}",
        "{\"a\":\"\t\"}",   /* raw control character */
        "{\"a\":\"\xc3\"}", /* cut UTF-8 */
        "{\"a\":\"\xc0\x80\"}",         /* overlong */
        "{\"a\":\"\xe0\x80\x80\"}",
        "{\"a\":\"\xed\xa0\x80\"}",     /* a surrogate */
        "{\"a\":\"\xf4\x90\x80\x80\"}", /* past U+10FFFF */
        "{\"a\":\"\xff\"}",
        "{\"a\":\"\x80\"}",
        "{\"a\":1,\"a\":2}",            /* duplicate member */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct worker_msg_scan s;
        if (scan(bad[i], &s) == 0)
            fail_msg("accepted: %s", bad[i]);
    }
}

static void test_members_recorded(void **state)
{
    (void) state;
    const char *t = "{\"t\":\"done\",\"outcome\":{\"ok\":true,\"value\":[1,[2,3],{\"x\":4}],"
                    "\"whole\":\"w\"},\"stats\":{\"toolCalls\":0},\"reuse\":true}";
    struct worker_msg_scan s;
    assert_int_equal(scan(t, &s), 0);
    const struct worker_msg_member *o = worker_msg_member(&s, t, -1, "outcome");
    assert_non_null(o);
    assert_int_equal(t[o->at], '{');
    assert_int_equal(t[o->at + o->len - 1], '}');
    int oi = worker_msg_index(&s, o);
    const struct worker_msg_member *v = worker_msg_member(&s, t, oi, "value");
    assert_non_null(v);
    assert_int_equal(v->len, strlen("[1,[2,3],{\"x\":4}]"));
    assert_memory_equal(t + v->at, "[1,[2,3],{\"x\":4}]", v->len);
    assert_int_equal(v->values, 7); /* the array, 1, [2,3], 2, 3, {x}, 4 */
    assert_int_equal(worker_msg_member(&s, t, oi, "ok")->len, 4);
    assert_memory_equal(t + worker_msg_member(&s, t, oi, "whole")->at, "\"w\"", 3);
    assert_memory_equal(t + worker_msg_member(&s, t, -1, "reuse")->at, "true", 4);
    const struct worker_msg_member *st = worker_msg_member(&s, t, -1, "stats");
    assert_memory_equal(t + st->at, "{\"toolCalls\":0}", st->len);
    /* members of other objects are not recorded, nor looked up elsewhere */
    assert_null(worker_msg_member(&s, t, worker_msg_index(&s, st), "toolCalls"));
    assert_null(worker_msg_member(&s, t, -1, "value"));
    assert_null(worker_msg_member(&s, t, oi, "x"));
    /* a number at the end of a member is recorded up to its last digit */
    const char *n = "{\"t\":\"dropped\",\"n\":12345}";
    assert_int_equal(scan(n, &s), 0);
    assert_int_equal(worker_msg_member(&s, n, -1, "n")->len, 5);
    /* the same key deeper down is no duplicate */
    const char *d = "{\"a\":{\"a\":{\"a\":1,\"b\":[{\"a\":2}]}}}";
    assert_int_equal(scan(d, &s), 0);
}

/* The worker counts a call's argument values with json_text_values before it
 * sends them (sandbox_call_argument_values); the host counts them as it scans:
 * the two counts agree, or a worker within the limit would be stopped. */
static void test_values_counted_alike(void **state)
{
    (void) state;
    static const char *const args[] = {
        "{}", "[]", "1", "\"s\"", "null", "[1,2,3]", "{\"a\":1,\"b\":[true,false,null]}",
        "[[],{},[[]],{\"x\":{}}]", "{\"k,[\":\"v,{\\\"]\"}", "[\"a\\\\\",\"b\"]",
        "{\"a\":[1,{\"b\":[2,[3,{\"c\":\"]}\"}]]}]}",
    };
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        char t[256];
        snprintf(t, sizeof t, "{\"t\":\"call\",\"id\":1,\"op\":\"tool\",\"name\":\"a.b\",\"args\":%s}",
                 args[i]);
        struct worker_msg_scan s;
        assert_int_equal(scan(t, &s), 0);
        const struct worker_msg_member *a = worker_msg_member(&s, t, -1, "args");
        assert_non_null(a);
        if (json_text_values(args[i], strlen(args[i])) != a->values)
            fail_msg("%s: json_text_values %llu, the scan %zu", args[i],
                     json_text_values(args[i], strlen(args[i])), a->values);
    }
    assert_int_equal(json_text_values("", 0), 0);
    assert_int_equal(json_text_values(" [ 1 , { } ] ", 13), 3);
    assert_int_equal(sandbox_call_argument_values(4u << 20), 262144);
    assert_int_equal(sandbox_call_argument_values(1000), 4096);
}

static void test_limits(void **state)
{
    (void) state;
    struct worker_msg_scan s;
    /* nesting: up to the cap, not past it */
    size_t depth = WORKER_MSG_MAX_DEPTH - 2;
    char *deep = malloc(2 * depth + 16);
    char *p = deep;
    p += sprintf(p, "{\"a\":");
    for (size_t i = 0; i < depth; i++)
        *p++ = '[';
    for (size_t i = 0; i < depth; i++)
        *p++ = ']';
    strcpy(p, "}");
    worker_msg_scan_init(&s);
    assert_int_equal(worker_msg_scan_end(&s, deep, strlen(deep)), 0);
    p = deep + 5;
    for (size_t i = 0; i < depth + 1; i++)
        *p++ = '[';
    for (size_t i = 0; i < depth + 1; i++)
        *p++ = ']';
    strcpy(p, "}");
    worker_msg_scan_init(&s);
    assert_int_equal(worker_msg_scan_end(&s, deep, strlen(deep)), -1);
    free(deep);
    /* recorded members: at most WORKER_MSG_MAX_MEMBERS */
    char many[1024];
    p = many;
    *p++ = '{';
    for (int i = 0; i <= WORKER_MSG_MAX_MEMBERS; i++)
        p += sprintf(p, "%s\"k%d\":%d", i ? "," : "", i, i);
    strcpy(p, "}");
    worker_msg_scan_init(&s);
    assert_int_equal(worker_msg_scan_end(&s, many, strlen(many)), -1);
    /* an error is sticky: more bytes do not make it valid */
    const char *t = "{\"a\":x}";
    worker_msg_scan_init(&s);
    assert_int_equal(worker_msg_scan_feed(&s, t, 6), -1);
    assert_int_equal(worker_msg_scan_end(&s, "{}", 2), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_from_head),
        cmocka_unit_test(test_valid_messages),
        cmocka_unit_test(test_invalid_messages),
        cmocka_unit_test(test_members_recorded),
        cmocka_unit_test(test_values_counted_alike),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
