/* Unit tests of mcp-server/stash.c: a put is read back whole by its owner
 * only; URIs are distinct and unguessable in form; each bound (count, bytes,
 * age) evicts, least recently used first (a read refreshes); an entry over
 * the byte bound and a stash that is off keep nothing; forget drops one
 * owner's entries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/stash.h"

#include <string.h>

static struct mcp_stash *make(unsigned entries, uint64_t bytes, uint64_t ttl)
{
    struct mcp_stash_limits l = {entries, bytes, ttl};
    return mcp_stash_new(&l);
}

static int readable(struct mcp_stash *s, const char *owner, const char *uri, uint64_t now)
{
    size_t len;
    return mcp_stash_get(s, owner, uri, now, &len, NULL, NULL) != NULL;
}

static void test_put_get(void **state)
{
    (void) state;
    struct mcp_stash *s = make(4, 1000, 0);
    char uri[MCP_STASH_URI_MAX];
    assert_int_equal(mcp_stash_put(s, "7", "application/json", 0, "{\"a\":1}", 7, 0, uri), 0);
    assert_int_equal(strncmp(uri, MCP_STASH_PREFIX, strlen(MCP_STASH_PREFIX)), 0);
    assert_int_equal(strlen(uri), strlen(MCP_STASH_PREFIX) + 32);
    size_t len = 0;
    const char *mime = NULL;
    int blob = -1;
    const char *d = mcp_stash_get(s, "7", uri, 1, &len, &mime, &blob);
    assert_non_null(d);
    assert_int_equal(len, 7);
    assert_memory_equal(d, "{\"a\":1}", 7);
    assert_string_equal(mime, "application/json");
    assert_int_equal(blob, 0);
    assert_int_equal(mcp_stash_count(s), 1);
    assert_int_equal(mcp_stash_bytes(s), 7);
    mcp_stash_free(s);
}

static void test_owner_only(void **state)
{
    (void) state;
    struct mcp_stash *s = make(4, 1000, 0);
    char uri[MCP_STASH_URI_MAX];
    assert_int_equal(mcp_stash_put(s, "1", "text/plain", 0, "secret", 6, 0, uri), 0);
    assert_false(readable(s, "2", uri, 0));
    assert_true(readable(s, "1", uri, 0));
    char other[MCP_STASH_URI_MAX];
    memcpy(other, uri, sizeof other);
    other[strlen(other) - 1] ^= 1; /* one digit off */
    assert_false(readable(s, "1", other, 0));
    assert_false(readable(s, "1", MCP_STASH_PREFIX, 0));
    assert_false(readable(s, "1", "codemode://stash/0123456789abcdef0123456789abcdef0123456789", 0));
    mcp_stash_free(s);
}

/* An owner is its whole name: one that only shares a prefix, or differs in
 * its last byte, reads nothing (OAuth principals are long and alike). */
static void test_owner_whole_name(void **state)
{
    (void) state;
    struct mcp_stash *s = make(4, 1000, 0);
    char uri[MCP_STASH_URI_MAX];
    const char *alice = "principal oauth:https://idp.example/#alice";
    assert_int_equal(mcp_stash_put(s, alice, NULL, 0, "x", 1, 0, uri), 0);
    assert_true(readable(s, alice, uri, 0));
    assert_false(readable(s, "principal oauth:https://idp.example/#alic", uri, 0));
    assert_false(readable(s, "principal oauth:https://idp.example/#alicf", uri, 0));
    assert_false(readable(s, "principal oauth:https://idp.example/#alice2", uri, 0));
    mcp_stash_forget(s, "principal oauth:https://idp.example/#alic");
    assert_int_equal(mcp_stash_count(s), 1);
    mcp_stash_free(s);
}

static void test_distinct_uris(void **state)
{
    (void) state;
    struct mcp_stash *s = make(100, 1000, 0);
    char uris[50][MCP_STASH_URI_MAX];
    for (int i = 0; i < 50; i++)
        assert_int_equal(mcp_stash_put(s, "1", NULL, 0, "x", 1, 0, uris[i]), 0);
    for (int i = 0; i < 50; i++)
        for (int j = i + 1; j < 50; j++)
            assert_string_not_equal(uris[i], uris[j]);
    mcp_stash_free(s);
}

static void test_evict_count_lru(void **state)
{
    (void) state;
    struct mcp_stash *s = make(2, 1000, 0);
    char a[MCP_STASH_URI_MAX], b[MCP_STASH_URI_MAX], c[MCP_STASH_URI_MAX];
    mcp_stash_put(s, "1", NULL, 0, "a", 1, 0, a);
    mcp_stash_put(s, "1", NULL, 0, "b", 1, 0, b);
    assert_true(readable(s, "1", a, 0)); /* a is now the most recently used */
    mcp_stash_put(s, "1", NULL, 0, "c", 1, 0, c);
    assert_int_equal(mcp_stash_count(s), 2);
    assert_true(readable(s, "1", a, 0));
    assert_false(readable(s, "1", b, 0));
    assert_true(readable(s, "1", c, 0));
    mcp_stash_free(s);
}

static void test_evict_bytes(void **state)
{
    (void) state;
    struct mcp_stash *s = make(10, 10, 0);
    char a[MCP_STASH_URI_MAX], b[MCP_STASH_URI_MAX], c[MCP_STASH_URI_MAX];
    mcp_stash_put(s, "1", NULL, 0, "aaaa", 4, 0, a);
    mcp_stash_put(s, "1", NULL, 0, "bbbb", 4, 0, b);
    mcp_stash_put(s, "1", NULL, 0, "cccc", 4, 0, c);
    assert_false(readable(s, "1", a, 0));
    assert_true(readable(s, "1", b, 0));
    assert_true(readable(s, "1", c, 0));
    assert_int_equal(mcp_stash_bytes(s), 8);
    mcp_stash_free(s);
}

static void test_too_big_or_off(void **state)
{
    (void) state;
    struct mcp_stash *s = make(10, 4, 0);
    char a[MCP_STASH_URI_MAX], b[MCP_STASH_URI_MAX];
    assert_int_equal(mcp_stash_put(s, "1", NULL, 0, "aaaa", 4, 0, a), 0);
    assert_int_equal(mcp_stash_put(s, "1", NULL, 0, "bbbbb", 5, 0, b), -1);
    assert_true(readable(s, "1", a, 0)); /* nothing was evicted for it */
    mcp_stash_free(s);
    s = make(0, 1000, 0);
    assert_int_equal(mcp_stash_put(s, "1", NULL, 0, "a", 1, 0, a), -1);
    assert_int_equal(mcp_stash_count(s), 0);
    mcp_stash_free(s);
}

static void test_evict_age(void **state)
{
    (void) state;
    struct mcp_stash *s = make(10, 1000, 100);
    char a[MCP_STASH_URI_MAX], b[MCP_STASH_URI_MAX];
    mcp_stash_put(s, "1", NULL, 0, "a", 1, 1000, a);
    mcp_stash_put(s, "1", NULL, 0, "b", 1, 1050, b);
    assert_true(readable(s, "1", a, 1099));
    assert_false(readable(s, "1", a, 1100)); /* a read does not extend the age */
    assert_true(readable(s, "1", b, 1100));
    char c[MCP_STASH_URI_MAX];
    mcp_stash_put(s, "1", NULL, 0, "c", 1, 1200, c); /* a put sweeps expired entries */
    assert_int_equal(mcp_stash_count(s), 1);
    mcp_stash_free(s);
}

static void test_forget(void **state)
{
    (void) state;
    struct mcp_stash *s = make(10, 1000, 0);
    char a[MCP_STASH_URI_MAX], b[MCP_STASH_URI_MAX], c[MCP_STASH_URI_MAX];
    mcp_stash_put(s, "1", NULL, 0, "a", 1, 0, a);
    mcp_stash_put(s, "2", NULL, 0, "b", 1, 0, b);
    mcp_stash_put(s, "1", NULL, 0, "c", 1, 0, c);
    mcp_stash_forget(s, "1");
    assert_int_equal(mcp_stash_count(s), 1);
    assert_int_equal(mcp_stash_bytes(s), 1);
    assert_true(readable(s, "2", b, 0));
    mcp_stash_free(s);
    mcp_stash_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_get),       cmocka_unit_test(test_owner_only),
        cmocka_unit_test(test_owner_whole_name),
        cmocka_unit_test(test_distinct_uris), cmocka_unit_test(test_evict_count_lru),
        cmocka_unit_test(test_evict_bytes),   cmocka_unit_test(test_too_big_or_off),
        cmocka_unit_test(test_evict_age),     cmocka_unit_test(test_forget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
