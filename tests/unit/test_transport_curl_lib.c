/* Unit tests for transport/curl_lib.c: a library that cannot be loaded, or
 * that lacks libcurl's functions, gives NULL and a sentence naming it and
 * the reason, and a later call can still load the real libcurl. The
 * library is chosen with MCP_CODEMODE_LIBCURL, as a user would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "transport/curl_lib.h"

#include <stdlib.h>
#include <string.h>

static void test_missing_library(void **state)
{
    (void) state;
    char err[512] = "";
    setenv("MCP_CODEMODE_LIBCURL", "/nonexistent/libcurl.so.4", 1);
    assert_null(curl_lib_load(err, sizeof err));
    assert_non_null(strstr(err, "cannot load /nonexistent/libcurl.so.4 "
                                "(needed for HTTP and SSE servers): "));
    assert_non_null(strstr(err, "No such file or directory"));
}

static void test_library_without_curl(void **state)
{
    (void) state;
    char err[512] = "";
    setenv("MCP_CODEMODE_LIBCURL", "libm.so.6", 1);
    assert_null(curl_lib_load(err, sizeof err));
    assert_string_equal(err, "cannot load libm.so.6 (needed for HTTP and SSE servers): "
                             "missing symbol: curl_global_init");
}

static void test_no_room_for_the_reason(void **state)
{
    (void) state;
    setenv("MCP_CODEMODE_LIBCURL", "/nonexistent/libcurl.so.4", 1);
    assert_null(curl_lib_load(NULL, 0));
}

/* Last: once loaded the library stays. */
static void test_real_library_after_failures(void **state)
{
    (void) state;
    char err[512] = "";
    unsetenv("MCP_CODEMODE_LIBCURL");
    const struct curl_lib *l = curl_lib_load(err, sizeof err);
    assert_non_null(l);
    assert_string_equal(err, "");
    CURL *e = l->easy_init();
    assert_non_null(e);
    l->easy_cleanup(e);
    setenv("MCP_CODEMODE_LIBCURL", "/nonexistent/libcurl.so.4", 1);
    assert_ptr_equal(curl_lib_load(err, sizeof err), l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_library),
        cmocka_unit_test(test_library_without_curl),
        cmocka_unit_test(test_no_room_for_the_reason),
        cmocka_unit_test(test_real_library_after_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
