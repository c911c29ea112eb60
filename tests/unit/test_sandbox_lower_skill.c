/* Unit tests of a skill's lowering (sandbox/lower/skill.h): the wrapper
 * keeps the code's lines one below their own, and errors come back at the
 * code's line and column with the code's excerpt, including an error past
 * the end of the code (the wrapper's closing line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/buf.h"
#include "sandbox/lower/skill.h"

static struct lower_error skill_error(const char *code)
{
    struct buf out;
    struct lower_error err;
    buf_init(&out, 0);
    assert_int_equal(sandbox_lower_skill("s", code, strlen(code), &out, &err), -1);
    assert_int_equal(out.len, 0);
    buf_free(&out);
    return err;
}

static void test_lines_kept_below_the_wrapper(void **state)
{
    (void) state;
    const char *code = "const a = args.n;\nconst b = a * 2;\nreturn b;";
    struct buf out;
    buf_init(&out, 0);
    assert_int_equal(sandbox_lower_skill("double_it", code, strlen(code), &out, NULL), 0);
    assert_non_null(strstr(out.data, "skill_double_it"));
    /* line n of the code is line n + SANDBOX_SKILL_LINE_OFFSET of the output */
    int line = 1;
    const char *ret = strstr(out.data, "return b");
    assert_non_null(ret);
    for (const char *q = out.data; q < ret; q++)
        line += *q == '\n';
    assert_int_equal(line, 3 + SANDBOX_SKILL_LINE_OFFSET);
    buf_free(&out);
}

static void test_error_at_the_codes_line_and_column(void **state)
{
    (void) state;
    struct lower_error e = skill_error("const a = 1;\nreturn a +;\n");
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 11);
    assert_string_equal(e.message, "Unexpected token ';'");
    assert_string_equal(e.excerpt, "return a +;\n          ^");
    e = skill_error("return 1 +;");
    assert_int_equal(e.line, 1);
    assert_int_equal(e.column, 11);
}

static void test_error_past_the_end_of_the_code(void **state)
{
    (void) state;
    struct lower_error e = skill_error("if (args.x) {\n  return 1;\n\n  \n");
    assert_int_equal(e.line, 2); /* the last line that is not blank */
    assert_int_equal(e.column, 12);
    assert_null(strstr(e.message, "'}'"));
    assert_null(strstr(e.message, "')'"));
    assert_non_null(strstr(e.message, "Unexpected end of input"));
    assert_string_equal(e.excerpt, "  return 1;\n           ^");
    e = skill_error("return `abc");
    assert_int_equal(e.line, 1);
    assert_string_equal(e.message, "Unterminated template literal");
}

static void test_no_name_or_a_bad_one_is_anonymous(void **state)
{
    (void) state;
    struct buf out;
    buf_init(&out, 0);
    assert_int_equal(sandbox_lower_skill("x){}; evil(", "return 1", 8, &out, NULL), 0);
    assert_null(strstr(out.data, "evil"));
    buf_free(&out);
    buf_init(&out, 0);
    assert_int_equal(sandbox_lower_skill(NULL, "return 1", 8, &out, NULL), 0);
    buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_kept_below_the_wrapper),
        cmocka_unit_test(test_error_at_the_codes_line_and_column),
        cmocka_unit_test(test_error_past_the_end_of_the_code),
        cmocka_unit_test(test_no_name_or_a_bad_one_is_anonymous),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
