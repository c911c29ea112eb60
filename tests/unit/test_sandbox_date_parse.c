/* Unit tests of sandbox/worker/date_parse.c: the forms V8 reads beyond ISO 8601
 * give the time values Node gives (recorded with TZ=UTC), zones and
 * offsets shift them, out-of-range fields and garbage are refused, and
 * nothing reads past a string however it ends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sandbox/worker/date_parse.h"

#include <stdlib.h>
#include <string.h>

static double parse(const char *s)
{
    double ms = -1;
    assert_int_equal(sandbox_date_parse(s, &ms), 1);
    return ms;
}

static void refused(const char *s)
{
    double ms = 12345;
    if (sandbox_date_parse(s, &ms) != 0)
        fail_msg("'%s' parsed as %.0f", s, ms);
    assert_true(ms == 12345); /* untouched */
}

static void test_v8_forms(void **state)
{
    (void) state;
    assert_true(parse("Tue Mar 05 2024 14:07:09 GMT+0000 (Coordinated Universal Time)") ==
                1709647629000.0);
    assert_true(parse("Tue, 05 Mar 2024 14:07:09 GMT") == 1709647629000.0);
    assert_true(parse("March 5, 2024") == 1709596800000.0);
    assert_true(parse("5 March 2024") == 1709596800000.0);
    assert_true(parse("Tuesday, March 5, 2024") == 1709596800000.0);
    assert_true(parse("2024/03/05 10:00") == 1709632800000.0);
    assert_true(parse("3/5/2024, 2:07:09 PM") == 1709647629000.0);
    assert_true(parse("03/05/24") == 1709596800000.0);
    assert_true(parse("12/31/1999 23:59:59") == 946684799000.0);
    assert_true(parse("March 2024") == 1709251200000.0);
    assert_true(parse("Mar 5 2024 12:00 AM") == 1709596800000.0);
    assert_true(parse("Mar 5 2024 12:30 PM") == 1709641800000.0);
    assert_true(parse("12:00 AM Mar 5 2024") == 1709596800000.0);
    assert_true(parse("Mar 5, 2024 10:00:30.5") == 1709632830500.0);
    assert_true(parse("Mar Apr 5 2024") == 1712275200000.0); /* the last month named */
}

static void test_zones_and_offsets(void **state)
{
    (void) state;
    assert_true(parse("Mar 5, 2024 10:00 GMT+0530") == 1709613000000.0);
    assert_true(parse("05 Mar 2024 14:07 +0100") == 1709644020000.0);
    assert_true(parse("Mar 5, 2024 10:00 EST") == 1709650800000.0);
    assert_true(parse("Mar 5, 2024 10:00 PDT") == 1709658000000.0);
    assert_true(parse("Thu, 01 Jan 1970 00:00:00 GMT-0500") == 18000000.0);
    assert_true(parse("Jan 1 1970 00:00 UTC+05:30") == -19800000.0);
    assert_true(parse("2024-03-05 10:00:00 UTC") == 1709632800000.0);
}

static void test_refusals(void **state)
{
    (void) state;
    refused("");
    refused("not a date");
    refused("March 32, 2024");
    refused("13/01/2024");
    refused("Mar 5, 2024 25:00");
    refused("Mar 5, 2024 13:00 PM");
    refused("Mar 5, 2024 10:61");
    refused("1 2 3 4");
    refused("March");
    refused("Mar 5 2024 10:00 +99999");
    refused("Mar 5 2024 +0100"); /* an offset needs a time or a zone before it */
    refused("Mar 5 2024 10:00 \xc3\xa9");
    refused("Mar 5 275761");
    refused(NULL);
}

static void test_inputs_without_an_end(void **state)
{
    (void) state;
    double ms;
    /* an unclosed comment and a string of digits longer than any field */
    assert_int_equal(sandbox_date_parse("Mar 5 2024 (never closed", &ms), 1);
    char *digits = malloc(5001);
    memset(digits, '9', 5000);
    digits[5000] = '\0';
    assert_int_equal(sandbox_date_parse(digits, &ms), 0);
    free(digits);
    assert_int_equal(sandbox_date_parse("10:", &ms), 0);
    assert_int_equal(sandbox_date_parse("Mar 5 2024 10:00 +", &ms), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v8_forms),
        cmocka_unit_test(test_zones_and_offsets),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_inputs_without_an_end),
    };
    return cmocka_run_group_tests_name("sandbox_date_parse", tests, NULL, NULL);
}
