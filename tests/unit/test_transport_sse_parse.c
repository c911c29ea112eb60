/* Unit tests of the SSE parser (transport/sse_parse.c): every stream is fed
 * whole, byte by byte, and split at every position, and must give the same
 * events each time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "transport/sse_parse.h"
#include "common/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Events rendered as text: "type|id|data\n" per event, "OVER type|total|head..tail\n". */
static void on_event(void *ud, const struct sse_event *e)
{
    struct buf *out = ud;
    assert_int_equal(strlen(e->data), e->len); /* NUL-terminated */
    buf_printf(out, "%s|%s|%s\n", e->type, e->id, e->data);
}

static void on_oversize(void *ud, const char *type, const char *head, size_t head_len,
                        const char *tail, size_t tail_len, size_t total)
{
    struct buf *out = ud;
    buf_printf(out, "OVER %s|%zu|%.*s..%.*s\n", type, total, (int) (head_len > 8 ? 8 : head_len),
               head, (int) (tail_len > 8 ? 8 : tail_len), tail + (tail_len > 8 ? tail_len - 8 : 0));
}

static const struct sse_parse_events events = {on_event, on_oversize};

/* Parses text in pieces: step 0 = whole; otherwise cut at `split` then bytes of `step`. */
static char *parse(const char *text, size_t len, size_t max, size_t split, size_t step,
                   int64_t *retry, char **last_id)
{
    struct sse_parser p;
    struct buf out;
    buf_init(&out, 0);
    buf_append(&out, "", 0);
    sse_parser_init(&p, max);
    if (step == 0) {
        sse_parser_feed(&p, text, len, &events, &out);
    } else {
        sse_parser_feed(&p, text, split, &events, &out);
        for (size_t i = split; i < len; i += step)
            sse_parser_feed(&p, text + i, len - i < step ? len - i : step, &events, &out);
    }
    if (retry)
        *retry = sse_parser_retry(&p);
    if (last_id)
        *last_id = strdup(sse_parser_last_id(&p));
    sse_parser_free(&p);
    return buf_steal(&out);
}

/* Checks every way of cutting the text gives `want`. */
static void expect_max(const char *text, size_t max, const char *want)
{
    size_t len = strlen(text);
    char *whole = parse(text, len, max, 0, 0, NULL, NULL);
    assert_string_equal(whole, want);
    free(whole);
    char *bytes = parse(text, len, max, 0, 1, NULL, NULL);
    assert_string_equal(bytes, want);
    free(bytes);
    for (size_t cut = 1; cut < len; cut++) {
        char *two = parse(text, len, max, cut, len, NULL, NULL);
        if (strcmp(two, want) != 0)
            fail_msg("cut at %zu: got\n%s\nwant\n%s", cut, two, want);
        free(two);
    }
}

static void expect(const char *text, const char *want)
{
    expect_max(text, 0, want);
}

static void test_basic(void **state)
{
    (void) state;
    expect("data: hello\n\n", "message||hello\n");
    expect("data: a\n\ndata: b\n\n", "message||a\nmessage||b\n");
    expect("data:no space\n\n", "message||no space\n");
    expect("data:  two spaces\n\n", "message|| two spaces\n"); /* only one is removed */
    expect("data: {\"jsonrpc\":\"2.0\",\"id\":1}\n\n", "message||{\"jsonrpc\":\"2.0\",\"id\":1}\n");
}

static void test_multiline_type_id(void **state)
{
    (void) state;
    expect("event: endpoint\ndata: /message?sessionId=1\n\n", "endpoint||/message?sessionId=1\n");
    expect("data: one\ndata: two\ndata:\ndata: four\n\n", "message||one\ntwo\n\nfour\n");
    /* The id persists until another one comes; the type does not. */
    expect("id: 7\nevent: x\ndata: a\n\ndata: b\n\nid: 8\ndata: c\n\n",
           "x|7|a\nmessage|7|b\nmessage|8|c\n");
    /* An id with a NUL is ignored; an empty id resets it. */
    expect("id: 1\ndata: a\n\nid: \ndata: b\n\n", "message|1|a\nmessage||b\n");
    char with_nul[] = "id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n";
    char *got = parse(with_nul, sizeof with_nul - 1, 0, 0, 0, NULL, NULL);
    assert_string_equal(got, "message|1|a\nmessage|1|b\n");
    free(got);
}

static void test_line_ends(void **state)
{
    (void) state;
    expect("data: a\r\n\r\ndata: b\r\n\r\n", "message||a\nmessage||b\n");
    expect("data: a\r\rdata: b\r\r", "message||a\nmessage||b\n");
    expect("data: a\r\ndata: b\n\r\n", "message||a\nb\n");
    expect("data: x\r\n\ndata: y\n\r", "message||x\nmessage||y\n");
}

static void test_comments_and_unknown(void **state)
{
    (void) state;
    expect(": keep-alive\n\n:\r\n\r\ndata: a\n\n", "message||a\n");
    expect("foo: bar\ndata: a\nverylongfieldname: x\n\n", "message||a\n");
    /* An event with no data line is not dispatched; "data" alone is an empty line. */
    expect("event: x\nid: 3\n\n", "");
    expect("data\n\n", "message||\n");
    expect("data:\n\n", "message||\n"); /* a priming event: id and empty data */
    expect("id: p1\ndata:\n\n", "message|p1|\n");
    expect("Data: a\n\n", ""); /* field names are case-sensitive */
}

static void test_bom_and_incomplete(void **state)
{
    (void) state;
    expect("\xEF\xBB\xBF"
           "data: a\n\n",
           "message||a\n");
    expect("data: a\n\ndata: unfinished\n", "message||a\n");
    expect("data: a\n\ndata: unfinished", "message||a\n");
}

static void test_retry(void **state)
{
    (void) state;
    int64_t retry;
    char *id, *got;
    const char *t = "retry: 2500\nid: last\ndata: a\n\n";
    got = parse(t, strlen(t), 0, 0, 0, &retry, &id);
    assert_int_equal(retry, 2500);
    assert_string_equal(id, "last");
    free(got);
    free(id);
    t = "retry: 12x\n\nretry:\n\n";
    got = parse(t, strlen(t), 0, 0, 0, &retry, NULL);
    assert_int_equal(retry, -1); /* not digits only: ignored */
    free(got);
    t = "retry: 999999999999999999999\n\n";
    got = parse(t, strlen(t), 0, 0, 0, &retry, NULL);
    assert_int_equal(retry, 86400000);
    free(got);
}

static void test_oversize(void **state)
{
    (void) state;
    /* 10-byte cap: "0123456789" fits, the 26-letter event does not. */
    expect_max("data: 0123456789\n\ndata: abcdefghijklmnopqrstuvwxyz\n\ndata: ok\n\n", 10,
               "message||0123456789\nOVER message|26|abcdefgh..stuvwxyz\nmessage||ok\n");
    /* Two data lines that only together exceed the cap: the "\n" counts. */
    expect_max("event: e\ndata: 01234\ndata: 56789\n\n", 10, "OVER e|11|01234\n56..34\n56789\n");
    /* An event just over the cap: head and tail are its data, without the
     * "\n" that ends its last line (found by tests/fuzz/fuzz_sse). */
    expect_max("data: ab\n\n", 1, "OVER message|2|ab..ab\n");
    expect_max("data: a\ndata: b\n\n", 2, "OVER message|3|a\nb..a\nb\n");
    /* A huge event: only its ends are kept. */
    size_t n = 1 << 20;
    char *big = malloc(n + 16);
    memcpy(big, "data: ", 6);
    for (size_t i = 0; i < n; i++)
        big[6 + i] = (char) ('a' + i % 26);
    memcpy(big + 6 + n, "\n\n", 3);
    char *got = parse(big, n + 8, 1000, 0, 0, NULL, NULL);
    char want[128];
    snprintf(want, sizeof want, "OVER message|%zu|abcdefgh..%.8s\n", n, big + 6 + n - 8);
    assert_string_equal(got, want);
    free(got);
    got = parse(big, n + 8, 1000, 3, 4099, NULL, NULL);
    assert_string_equal(got, want);
    free(got);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_multiline_type_id),
        cmocka_unit_test(test_line_ends),
        cmocka_unit_test(test_comments_and_unknown),
        cmocka_unit_test(test_bom_and_incomplete),
        cmocka_unit_test(test_retry),
        cmocka_unit_test(test_oversize),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
