/* Unit tests of transport/frame.c: line framing fed whole, byte by byte and
 * in random chunks; CRLF; empty lines; the size cap and id recovery. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "transport/frame.h"
#include "transport/jsonrpc.h"
#include "common/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct seen {
    struct buf lines;  /* each line followed by '|' */
    struct buf over;   /* "total:prefix|" per oversize line */
};

static void on_line(void *ud, char *line, size_t len)
{
    struct seen *s = ud;
    assert_int_equal(strlen(line), len);
    buf_append(&s->lines, line, len);
    buf_append_char(&s->lines, '|');
}

static void on_over(void *ud, const char *prefix, size_t plen, size_t total)
{
    struct seen *s = ud;
    buf_printf(&s->over, "%zu:%.*s|", total, (int) (plen > 20 ? 20 : plen), prefix);
}

static const struct frame_events ev = {on_line, on_over};

/* Feeds input in chunks of `step` bytes (0 = all at once). */
static void feed(const char *input, size_t max, size_t step, struct seen *s)
{
    struct frame_reader r;
    frame_reader_init(&r, max);
    buf_init(&s->lines, 0);
    buf_init(&s->over, 0);
    size_t n = strlen(input);
    if (step == 0)
        step = n ? n : 1;
    for (size_t i = 0; i < n; i += step)
        frame_reader_feed(&r, input + i, i + step > n ? n - i : step, &ev, s);
    frame_reader_free(&r);
}

static void check(const char *input, size_t max, const char *lines, const char *over)
{
    for (size_t step = 0; step <= 7; step++) {
        struct seen s;
        feed(input, max, step, &s);
        assert_string_equal(s.lines.data ? s.lines.data : "", lines);
        assert_string_equal(s.over.data ? s.over.data : "", over);
        buf_free(&s.lines);
        buf_free(&s.over);
    }
}

static void test_lines(void **state)
{
    check("a\nbc\n", 100, "a|bc|", "");
    check("a\r\nbc\r\n", 100, "a|bc|", "");
    check("\n\r\n\na\n", 100, "a|", "");
    check("partial", 100, "", "");
    check("x\ny\nz", 100, "x|y|", "");
}

static void test_cr_inside_line_is_content(void **state)
{
    check("a\rb\n", 100, "a\rb|", "");
}

static void test_cap(void **state)
{
    check("12345\n123456\nok\n", 5, "12345|ok|", "6:123456|");
    /* exactly the cap with CRLF is fine */
    check("12345\r\n", 5, "12345|", "");
    check("{\"id\":7,\"x\":\"yyyyyyyyyyyyyyyyyyyy\"}\nnext\n", 10, "next|",
          "35:{\"id\":7,\"x\":\"yyyyyyy|");
}

static void test_oversize_id_recovery(void **state)
{
    struct seen s;
    char big[2000];
    memset(big, 'z', sizeof big);
    big[sizeof big - 1] = '\0';
    char *input = malloc(3000);
    snprintf(input, 3000, "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"params\":\"%s\"}\n", big);
    struct frame_reader r;
    frame_reader_init(&r, 100);
    buf_init(&s.lines, 0);
    buf_init(&s.over, 0);
    frame_reader_feed(&r, input, strlen(input), &ev, &s);
    assert_non_null(s.over.data);
    char *id = rpc_recover_id(r.prefix, r.prefix_len);
    assert_non_null(id);
    assert_string_equal(id, "\"a\\\"b\"");
    free(id);
    frame_reader_free(&r);
    buf_free(&s.lines);
    buf_free(&s.over);
    free(input);
}

static void test_random_chunks_many_messages(void **state)
{
    struct buf in, expect;
    buf_init(&in, 0);
    buf_init(&expect, 0);
    for (int i = 0; i < 500; i++) {
        buf_printf(&in, "{\"n\":%d}%s", i, i % 3 ? "\n" : "\r\n");
        buf_printf(&expect, "{\"n\":%d}|", i);
    }
    srand(1);
    struct frame_reader r;
    frame_reader_init(&r, 1000);
    struct seen s;
    buf_init(&s.lines, 0);
    buf_init(&s.over, 0);
    size_t i = 0;
    while (i < in.len) {
        size_t step = 1 + (size_t) (rand() % 50);
        if (i + step > in.len)
            step = in.len - i;
        frame_reader_feed(&r, in.data + i, step, &ev, &s);
        i += step;
    }
    assert_string_equal(s.lines.data, expect.data);
    frame_reader_free(&r);
    buf_free(&s.lines);
    buf_free(&s.over);
    buf_free(&in);
    buf_free(&expect);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_cr_inside_line_is_content),
        cmocka_unit_test(test_cap),
        cmocka_unit_test(test_oversize_id_recovery),
        cmocka_unit_test(test_random_chunks_many_messages),
    };
    return cmocka_run_group_tests_name("transport_frame", tests, NULL, NULL);
}
