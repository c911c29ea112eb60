/* Unit tests of common/json_lines.c: small lines are heard at once with their
 * tree; a big line is parsed off the loop and every line after it waits, so
 * the owner hears them in the order they came; a queue freed inside its
 * callback or while a parse runs hears nothing more and leaks nothing; big
 * parses of several queues run one at a time; a big tree is released off the
 * loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "common/json_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uv_loop_t loop;

struct heard {
    char order[64];
    size_t n;
    int parsed_ok; /* every tree matched its text's first number */
    int free_at;   /* free the queue when this many lines were heard (0: never) */
    struct json_lines *q;
};

/* The lines are arrays whose first element names them: [n, ...]. */
static void heard_cb(void *ud, char *text, size_t len, cJSON *tree, int tag)
{
    struct heard *h = ud;
    (void) len;
    int want = atoi(text + 1);
    if (tag == 1) /* pushed with parse 0 */
        h->parsed_ok &= tree == NULL;
    else
        h->parsed_ok &= cJSON_IsArray(tree) && cJSON_GetArrayItem(tree, 0) &&
                        cJSON_GetArrayItem(tree, 0)->valueint == want;
    h->order[h->n++] = (char) ('0' + want);
    cJSON_Delete(tree);
    if (h->free_at && (int) h->n == h->free_at) {
        json_lines_free(h->q);
        h->q = NULL;
    }
}

/* "[n,0,0,...]" of about `bytes` bytes. */
static char *line_of(int n, size_t bytes)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "[%d", n);
    while (b.len + 3 < bytes)
        buf_append_str(&b, ",0");
    buf_append_char(&b, ']');
    return buf_steal(&b);
}

static void push(struct json_lines *q, int n, size_t bytes, int parse)
{
    char *t = line_of(n, bytes);
    json_lines_push(q, t, strlen(t), parse, parse ? 0 : 1);
    memset(t, 'x', strlen(t)); /* the queue kept its own copy if it needed one */
    free(t);
}

static void drain(void)
{
    uv_run(&loop, UV_RUN_DEFAULT);
}

static void test_small_lines_at_once(void **state)
{
    (void) state;
    struct heard h = {.parsed_ok = 1};
    h.q = json_lines_new(&loop, 1024, heard_cb, &h);
    push(h.q, 1, 10, 1);
    push(h.q, 2, 10, 0);
    assert_string_equal(h.order, "12"); /* inside the calls */
    assert_int_equal(json_lines_waiting(h.q), 0);
    assert_true(h.parsed_ok);
    json_lines_free(h.q);
    drain();
}

static void test_big_line_keeps_order(void **state)
{
    (void) state;
    struct heard h = {.parsed_ok = 1};
    h.q = json_lines_new(&loop, 1024, heard_cb, &h);
    push(h.q, 1, 10, 1);
    push(h.q, 2, 200000, 1); /* off the loop */
    push(h.q, 3, 10, 1);     /* waits behind it */
    push(h.q, 4, 10, 0);
    push(h.q, 5, 300000, 1);
    push(h.q, 6, 10, 1);
    assert_string_equal(h.order, "1");
    assert_int_equal(json_lines_waiting(h.q), 5);
    drain();
    assert_string_equal(h.order, "123456");
    assert_true(h.parsed_ok);
    assert_int_equal(json_lines_waiting(h.q), 0);
    push(h.q, 7, 10, 1); /* idle again: at once */
    assert_string_equal(h.order, "1234567");
    json_lines_free(h.q);
    drain();
}

static void test_free_inside_callback(void **state)
{
    (void) state;
    struct heard h = {.parsed_ok = 1, .free_at = 2};
    h.q = json_lines_new(&loop, 1024, heard_cb, &h);
    push(h.q, 1, 200000, 1);
    push(h.q, 2, 10, 1);
    push(h.q, 3, 10, 1);
    push(h.q, 4, 200000, 1);
    drain();
    assert_string_equal(h.order, "12"); /* nothing after the free */
    assert_null(h.q);
}

static void test_free_while_parsing(void **state)
{
    (void) state;
    struct heard h = {.parsed_ok = 1};
    h.q = json_lines_new(&loop, 1024, heard_cb, &h);
    push(h.q, 1, 400000, 1);
    push(h.q, 2, 10, 1);
    json_lines_free(h.q); /* the parse finishes on its thread and is dropped */
    drain();
    assert_int_equal(h.n, 0);
}

/* Big parses of two queues run one at a time; each queue keeps its order. */
static void test_two_queues_share_the_slot(void **state)
{
    (void) state;
    struct heard a = {.parsed_ok = 1}, b = {.parsed_ok = 1};
    a.q = json_lines_new(&loop, 1024, heard_cb, &a);
    b.q = json_lines_new(&loop, 1024, heard_cb, &b);
    push(a.q, 1, 200000, 1);
    push(b.q, 5, 200000, 1);
    push(a.q, 2, 10, 1);
    push(b.q, 6, 200000, 1);
    push(a.q, 3, 200000, 1);
    json_lines_free(b.q); /* its waiting parse is dropped, a's go on */
    b.q = NULL;
    drain();
    assert_string_equal(a.order, "123");
    assert_true(a.parsed_ok);
    assert_int_equal(b.n, 0);
    json_lines_free(a.q);
    drain();
}

static void test_not_json(void **state)
{
    (void) state;
    struct heard h = {.parsed_ok = 1};
    h.q = json_lines_new(&loop, 1024, heard_cb, &h);
    char *t = line_of(1, 200000);
    t[strlen(t) - 1] = ','; /* no closing bracket */
    json_lines_push(h.q, t, strlen(t), 1, 0);
    free(t);
    drain();
    assert_int_equal(h.n, 1);
    assert_false(h.parsed_ok); /* the tree was NULL */
    json_lines_free(h.q);
    drain();
}

static void test_release_off_loop(void **state)
{
    (void) state;
    char *t = line_of(1, 500000);
    json_release_off_loop(&loop, cJSON_Parse(t));
    json_release_off_loop(&loop, NULL);
    free(t);
    drain(); /* LeakSanitizer sees the tree freed */
}

static int setup(void **state)
{
    (void) state;
    alloc_install_cjson_hooks();
    return uv_loop_init(&loop);
}

static int teardown(void **state)
{
    (void) state;
    drain();
    return uv_loop_close(&loop);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_small_lines_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_big_line_keeps_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_free_inside_callback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_free_while_parsing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_two_queues_share_the_slot, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_json, setup, teardown),
        cmocka_unit_test_setup_teardown(test_release_off_loop, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
