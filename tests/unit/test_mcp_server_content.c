/* Unit tests of mcp-server/execute/content.c: what counts as content (each block
 * type's required fields, arrays of blocks only), blocks copied with their
 * schema fields only, the text fallbacks of revisions without audio or
 * resource_link, the summary for structuredContent, and what content.stash
 * keeps of any value a program sends (malformed blocks included). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/execute/content.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_content(const char *json)
{
    cJSON *v = cJSON_Parse(json);
    int r = mcp_content_is_content(v);
    cJSON_Delete(v);
    return r;
}

static void test_is_content(void **state)
{
    (void) state;
    assert_true(is_content("{\"type\":\"text\",\"text\":\"a\"}"));
    assert_true(is_content("{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"}"));
    assert_true(is_content("{\"type\":\"audio\",\"data\":\"AA==\",\"mimeType\":\"audio/wav\"}"));
    assert_true(
        is_content("{\"type\":\"resource\",\"resource\":{\"uri\":\"x:y\",\"text\":\"t\"}}"));
    assert_true(is_content("{\"type\":\"resource_link\",\"uri\":\"x:y\",\"name\":\"n\"}"));
    assert_true(is_content("[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\",\"data\":\"\","
                           "\"mimeType\":\"image/png\"}]"));
    assert_false(is_content("[]"));
    assert_false(is_content("[{\"type\":\"text\",\"text\":\"a\"}, 1]"));
    assert_false(is_content("{\"type\":\"text\"}"));
    assert_false(is_content("{\"type\":\"image\",\"data\":\"AA==\"}"));
    assert_false(is_content("{\"type\":\"resource\",\"resource\":{\"uri\":\"x:y\",\"text\":\"t\","
                            "\"blob\":\"AA==\"}}"));
    assert_false(is_content("{\"type\":\"resource_link\",\"uri\":\"x:y\"}"));
    assert_false(is_content("{\"type\":\"video\",\"data\":\"AA==\",\"mimeType\":\"v/x\"}"));
    assert_false(is_content("{\"text\":\"a\"}"));
    assert_false(is_content("\"text\""));
    assert_false(is_content("null"));
}

static char *append(const char *json, enum mcp_revision rev)
{
    cJSON *v = cJSON_Parse(json), *out = cJSON_CreateArray();
    mcp_content_append(out, v, rev);
    char *s = cJSON_PrintUnformatted(out);
    cJSON_Delete(v);
    cJSON_Delete(out);
    return s;
}

static void test_copy_known_fields(void **state)
{
    (void) state;
    char *s =
        append("{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\",\"extra\":1}",
               MCP_2025_11_25);
    assert_string_equal(s, "[{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"}]");
    free(s);
}

static void test_fallbacks(void **state)
{
    (void) state;
    const char *audio = "{\"type\":\"audio\",\"data\":\"AAAA\",\"mimeType\":\"audio/wav\"}";
    char *s = append(audio, MCP_2024_11_05);
    assert_non_null(strstr(s, "\"type\":\"text\""));
    assert_non_null(strstr(s, "audio/wav"));
    assert_non_null(strstr(s, "2024-11-05 has no audio blocks"));
    free(s);
    s = append(audio, MCP_2025_03_26);
    assert_non_null(strstr(s, "\"type\":\"audio\""));
    free(s);
    const char *link = "{\"type\":\"resource_link\",\"uri\":\"codemode://stash/ab\",\"name\":\"n\","
                       "\"mimeType\":\"application/json\",\"size\":12}";
    s = append(link, MCP_2025_03_26);
    assert_non_null(strstr(s, "\"type\":\"text\""));
    assert_non_null(strstr(s, "codemode://stash/ab"));
    assert_non_null(strstr(s, "resources/read"));
    free(s);
    s = append(link, MCP_2025_06_18);
    assert_string_equal(s, "[{\"type\":\"resource_link\",\"uri\":\"codemode://stash/ab\",\"name\":"
                           "\"n\",\"mimeType\":\"application/json\",\"size\":12}]");
    free(s);
}

static void test_summary(void **state)
{
    (void) state;
    cJSON *v = cJSON_Parse("[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\",\"data\":"
                           "\"AAECAw==\",\"mimeType\":\"image/png\"},{\"type\":\"resource\","
                           "\"resource\":{\"uri\":\"x:y\",\"blob\":\"AAEC\"}}]");
    cJSON *sum = mcp_content_summary(v);
    char *s = cJSON_PrintUnformatted(sum);
    assert_string_equal(s, "[{\"type\":\"text\"},{\"type\":\"image\",\"mimeType\":\"image/png\","
                           "\"bytes\":4},{\"type\":\"resource\",\"uri\":\"x:y\",\"bytes\":3}]");
    free(s);
    cJSON_Delete(sum);
    cJSON_Delete(v);
}

/* mime|blob|data of what content.stash keeps of json. */
static char *stash_form(const char *json)
{
    cJSON *v = cJSON_Parse(json);
    const char *mime;
    int blob;
    char *owned, out[256];
    const char *data = mcp_content_stash_form(v, &mime, &blob, &owned);
    snprintf(out, sizeof out, "%s|%d|%s", mime, blob, data);
    free(owned);
    cJSON_Delete(v);
    return strdup(out);
}

static void expect_form(const char *json, const char *want)
{
    char *got = stash_form(json);
    assert_string_equal(got, want);
    free(got);
}

static void test_stash_form(void **state)
{
    (void) state;
    expect_form("{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"}",
                "image/png|1|AA==");
    /* a member named resource on an image is not where its bytes are */
    expect_form("{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\","
                "\"resource\":{}}",
                "image/png|1|AA==");
    expect_form("{\"type\":\"audio\",\"data\":\"AA==\",\"mimeType\":\"audio/wav\","
                "\"resource\":{\"text\":5}}",
                "audio/wav|1|AA==");
    expect_form("{\"type\":\"resource\",\"resource\":{\"uri\":\"x:y\",\"text\":\"t\"}}",
                "text/plain|0|t");
    expect_form("{\"type\":\"resource\",\"resource\":{\"uri\":\"x:y\",\"blob\":\"AA==\","
                "\"mimeType\":\"a/b\"}}",
                "a/b|1|AA==");
    expect_form("{\"type\":\"resource\",\"resource\":{\"uri\":\"x:y\",\"blob\":\"AA==\"}}",
                "application/octet-stream|1|AA==");
    /* not well-formed content: kept as JSON */
    expect_form("{\"type\":\"image\",\"resource\":{}}",
                "application/json|0|{\"type\":\"image\",\"resource\":{}}");
    expect_form("{\"type\":\"resource\",\"resource\":{}}",
                "application/json|0|{\"type\":\"resource\",\"resource\":{}}");
    expect_form("{\"type\":\"text\",\"text\":\"a\"}",
                "application/json|0|{\"type\":\"text\",\"text\":\"a\"}");
    expect_form("\"s\"", "text/plain|0|s");
    expect_form("[1]", "application/json|0|[1]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_content),
        cmocka_unit_test(test_copy_known_fields),
        cmocka_unit_test(test_fallbacks),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_stash_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
