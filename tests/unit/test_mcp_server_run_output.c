/* Unit tests of `run`'s output helpers: file extensions of --out
 * (mcp-server/run_output.h) and the dry run's plan lines
 * (mcp-server/execute/plan.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mcp-server/execute/plan.h"
#include "mcp-server/run_output.h"
#include "common/buf.h"
#include "common/json.h"

static void test_extensions(void **state)
{
    (void) state;
    char b[16];
    assert_string_equal(run_output_extension("image/png", b), "png");
    assert_string_equal(run_output_extension("image/jpeg", b), "jpg");
    assert_string_equal(run_output_extension("IMAGE/WEBP", b), "webp");
    assert_string_equal(run_output_extension("image/svg+xml", b), "svg");
    assert_string_equal(run_output_extension("audio/mpeg", b), "mp3");
    assert_string_equal(run_output_extension("audio/wav", b), "wav");
    assert_string_equal(run_output_extension("text/plain; charset=utf-8", b), "txt");
    assert_string_equal(run_output_extension("application/json", b), "json");
    /* never a path: anything but a short word is "bin" */
    assert_string_equal(run_output_extension("application/../../etc", b), "bin");
    assert_string_equal(run_output_extension("application/vnd.ms-excel", b), "bin");
    assert_string_equal(run_output_extension("nonsense", b), "bin");
    assert_string_equal(run_output_extension("image/", b), "bin");
    assert_string_equal(run_output_extension(NULL, b), "bin");
}

static char *plan_text(const char *planned_json, size_t max)
{
    cJSON *p = json_parse(planned_json, strlen(planned_json));
    struct buf b;
    buf_init(&b, 0);
    mcp_plan_append(&b, p, max);
    cJSON_Delete(p);
    return buf_steal(&b);
}

static void test_plan_lines(void **state)
{
    (void) state;
    char *t = plan_text("[{\"tool\":\"crm.update_item\",\"arguments\":{\"id\":\"a\"},\"decision\":\"ask\","
                        "\"decidedBy\":\"rule \\\"crm.update_item\\\"\"},"
                        "{\"tool\":\"crm.note\",\"arguments\":{},\"decision\":\"allow\","
                        "\"decidedBy\":\"codemode.policy.default\"},"
                        "{\"tool\":\"state.set\",\"arguments\":{\"key\":\"k\",\"value\":1},"
                        "\"decision\":\"allow\"}]",
                        0);
    assert_string_equal(t, "dry run: 3 planned calls (validated, not sent):\n"
                           "1. crm.update_item {\"id\":\"a\"}: would ask for approval (rule "
                           "\"crm.update_item\")\n"
                           "2. crm.note {}: would be sent (allowed by codemode.policy.default; not "
                           "read-only)\n"
                           "3. state.set {\"key\":\"k\",\"value\":1}: would be done (allowed by the "
                           "policy)");
    free(t);
    t = plan_text("[]", 0);
    assert_string_equal(t, "dry run: 0 planned calls (validated, not sent)");
    free(t);
    /* long arguments are cut on a character boundary; wrong types do not crash */
    t = plan_text("[{\"tool\":\"a.b\",\"arguments\":{\"s\":\"\xc3\xa9\xc3\xa9\xc3\xa9\"}},{\"tool\":5}]",
                  8);
    assert_string_equal(t, "dry run: 2 planned calls (validated, not sent):\n"
                           "1. a.b {\"s\":\"\xc3\xa9...\n2. ? {}");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_extensions),
        cmocka_unit_test(test_plan_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
