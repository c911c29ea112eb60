/* Unit tests of tools/catalog.c and tools/result_map.c: names and policy,
 * resolution with suggestions, the worker catalog, search, describe, and the
 * mapping of downstream results and argument violations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "tools/catalog.h"
#include "tools/declarations/declarations.h"
#include "tools/result_map.h"
#include "tools/schema/schema.h"
#include "mcp-server/config/config.h"
#include "common/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *weather_tools =
    "[{\"name\":\"get-weather\",\"description\":\"Current weather for a city. Uses metric "
    "units.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},"
    "\"days\":{\"type\":\"integer\",\"minimum\":1}},\"required\":[\"city\"]}},"
    "{\"name\":\"get_weather\",\"description\":\"Legacy alias\",\"inputSchema\":{\"type\":"
    "\"object\"}},"
    "{\"name\":\"forecast\",\"description\":\"Forecast\",\"inputSchema\":{\"type\":\"object\"},"
    "\"outputSchema\":{\"type\":\"object\",\"properties\":{\"temp\":{\"type\":\"number\"}},"
    "\"required\":[\"temp\"]}},"
    "{\"name\":\"delete_all\",\"inputSchema\":{\"type\":\"object\"}},"
    "{\"name\":\"research\",\"inputSchema\":{\"type\":\"object\"},\"execution\":{\"taskSupport\":"
    "\"required\"}}]";

struct fx {
    cJSON *weather, *kv;
    struct tools_server_config policy;
    char *deny[2];
    struct tools_catalog *c;
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    f->weather = cJSON_Parse(weather_tools);
    f->kv = cJSON_Parse("[{\"name\":\"get\",\"inputSchema\":{\"type\":\"object\"}},"
                        "{\"name\":\"set\",\"inputSchema\":{\"type\":\"object\"}}]");
    f->deny[0] = "delete_*";
    f->policy.deny_tools = f->deny;
    struct tools_catalog_server servers[] = {
        {.name = "my-weather", .policy = &f->policy, .tools = f->weather},
        {.name = "kv", .tools = f->kv},
        {.name = "empty", .unavailable = "it is not running"},
    };
    f->c = tools_catalog_build(servers, 3, TOOLS_DECLARATIONS_BUDGET_DEFAULT);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    tools_catalog_release(f->c);
    cJSON_Delete(f->weather);
    cJSON_Delete(f->kv);
    free(f);
    return 0;
}

static void test_names_policy_tasks(void **state)
{
    struct fx *f = *state;
    /* delete_all denied, research task-only: 3 weather tools + 2 kv */
    assert_int_equal(tools_catalog_count(f->c), 5);
    char *w = tools_catalog_worker_json(f->c, NULL, 1);
    assert_string_equal(w, "{\"my_weather\":{\"name\":\"my-weather\",\"tools\":{\"forecast\":"
                           "\"forecast\",\"get_weather\":\"get_weather\",\"get_weather_2\":\"get-"
                           "weather\"}},\"kv\":{\"name\":\"kv\",\"tools\":{\"get\":\"get\",\"set\":"
                           "\"set\"}},\"empty\":{\"name\":\"empty\",\"problem\":\"it is not "
                           "running\",\"tools\":{}}}");
    free(w);
    char *d = tools_catalog_declarations_full(f->c);
    assert_non_null(strstr(d, "// Not callable from programs: my-weather.research (runs only as a task)"));
    assert_null(strstr(d, "delete_all"));
    free(d);
}

static void test_resolve(void **state)
{
    struct fx *f = *state;
    char *why = NULL;
    const struct tools_catalog_tool *t = tools_catalog_resolve(f->c, "my-weather.get-weather", &why);
    assert_non_null(t);
    assert_string_equal(t->id, "get_weather_2");
    t = tools_catalog_resolve(f->c, "my_weather.get_weather_2", &why);
    assert_non_null(t);
    assert_string_equal(t->name, "get-weather");
    t = tools_catalog_resolve(f->c, "my_weather.get_weather", &why);
    assert_string_equal(t->name, "get_weather");
    assert_null(tools_catalog_resolve(f->c, "my-weather.delete_all", &why));
    assert_non_null(strstr(why, "Unknown tool \"my-weather.delete_all\""));
    free(why);
    why = NULL;
    assert_null(tools_catalog_resolve(f->c, "my_weather.forcast", &why));
    assert_string_equal(why, "Unknown tool \"my_weather.forcast\". Did you mean: my_weather.forecast?");
    free(why);
    why = NULL;
    assert_null(tools_catalog_resolve(f->c, "forecast", &why));
    assert_string_equal(why, "Unknown tool \"forecast\" (name it as \"server.tool\"). Did you mean: "
                             "my_weather.forecast?");
    free(why);
    why = NULL;
    assert_null(tools_catalog_resolve(f->c, "empty.anything", &why));
    assert_string_equal(why, "The tools of server \"empty\" are not available: it is not running");
    free(why);
}

static void test_search_and_describe(void **state)
{
    struct fx *f = *state;
    char *s = tools_catalog_search(f->c, "weather city", 10, NULL);
    assert_non_null(strstr(s, "{\"name\":\"my_weather.get_weather_2\",\"summary\":\"Current weather "
                              "for a city.\"}"));
    assert_int_equal(strncmp(s, "[{\"name\":\"my_weather.get_weather", 31), 0);
    free(s);
    s = tools_catalog_search(f->c, "zzz", 10, NULL);
    assert_string_equal(s, "[]");
    free(s);
    char *why = NULL;
    const struct tools_catalog_tool *t = tools_catalog_resolve(f->c, "kv.set", &why);
    char *d = tools_catalog_describe(f->c, t);
    assert_non_null(strstr(d, "set(args"));
    assert_null(strstr(d, "get(args"));
    free(d);
}

static char *map(struct fx *f, const char *tool, const char *result_json, int *ok)
{
    char *why = NULL;
    const struct tools_catalog_tool *t = tools_catalog_resolve(f->c, tool, &why);
    cJSON *r = cJSON_Parse(result_json);
    struct buf b;
    buf_init(&b, 0);
    *ok = tools_result_map(t, r, &b);
    cJSON_Delete(r);
    return buf_steal(&b);
}

static void test_result_mapping(void **state)
{
    struct fx *f = *state;
    int ok;
    char *s = map(f, "kv.get", "{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"a\\\": [1, 2]}\"}]}", &ok);
    assert_true(ok);
    assert_string_equal(s, "{\"a\":[1,2]}");
    free(s);
    s = map(f, "kv.get", "{\"content\":[{\"type\":\"text\",\"text\":\"plain words\"}]}", &ok);
    assert_string_equal(s, "\"plain words\"");
    free(s);
    s = map(f, "kv.get", "{\"content\":[{\"type\":\"text\",\"text\":\"12 apples\"}]}", &ok);
    assert_string_equal(s, "\"12 apples\"");
    free(s);
    s = map(f, "kv.get", "{\"content\":[{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"},"
                         "{\"type\":\"text\",\"text\":\"x\"}]}", &ok);
    assert_string_equal(s, "[{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"},"
                           "{\"type\":\"text\",\"text\":\"x\"}]");
    free(s);
    s = map(f, "my_weather.forecast", "{\"content\":[],\"structuredContent\":{\"temp\":21.5}}", &ok);
    assert_true(ok);
    assert_string_equal(s, "{\"temp\":21.5}");
    free(s);
    s = map(f, "my_weather.forecast", "{\"content\":[],\"structuredContent\":{\"t\":1}}", &ok);
    assert_false(ok);
    assert_non_null(strstr(s, "my-weather.forecast returned structuredContent that does not match "
                              "its outputSchema"));
    free(s);
    s = map(f, "kv.get", "{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"no such key\"}]}",
            &ok);
    assert_false(ok);
    assert_string_equal(s, "{\"name\":\"ToolError\",\"message\":\"no such key\",\"tool\":\"kv.get\","
                           "\"result\":{\"isError\":true,\"content\":[{\"type\":\"text\",\"text\":\"no "
                           "such key\"}]}}");
    free(s);
}

static void test_argument_error(void **state)
{
    struct fx *f = *state;
    char *why = NULL;
    const struct tools_catalog_tool *t = tools_catalog_resolve(f->c, "my-weather.get-weather", &why);
    cJSON *args = cJSON_Parse("{\"days\":0}");
    struct tools_schema_result r;
    assert_false(tools_schema_validate(t->input, args, &r));
    struct buf b;
    buf_init(&b, 0);
    tools_result_argument_error(t, &r, &b);
    cJSON *e = cJSON_Parse(b.data);
    assert_string_equal(cJSON_GetObjectItem(e, "name")->valuestring, "ToolArgumentError");
    assert_string_equal(cJSON_GetObjectItem(e, "tool")->valuestring, "my-weather.get-weather");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(e, "violations")), 2);
    assert_non_null(strstr(cJSON_GetObjectItem(e, "message")->valuestring,
                           "Invalid arguments for my-weather.get-weather (nothing was sent):"));
    cJSON_Delete(e);
    cJSON_Delete(args);
    tools_schema_result_free(&r);
    buf_free(&b);
}

/* A catalog of the fixture's servers with a budget and preferred patterns. */
static struct tools_catalog *build_with(struct fx *f, size_t budget, char *const *preferred)
{
    struct tools_catalog_server servers[] = {
        {.name = "my-weather", .policy = &f->policy, .tools = f->weather, .preferred = preferred},
        {.name = "kv", .tools = f->kv, .preferred = preferred},
    };
    return tools_catalog_build(servers, 2, budget);
}

static void test_declarations_budget_and_report(void **state)
{
    struct fx *f = *state;
    /* the default budget: everything with its docs, and check says so */
    char *d = tools_catalog_declarations(f->c);
    assert_non_null(strstr(d, "/** Current weather for a city. Uses metric units. */\n"));
    assert_non_null(strstr(d, "// Not callable from programs: my-weather.research"));
    free(d);
    struct buf r;
    buf_init(&r, 0);
    tools_catalog_declarations_report(f->c, &r, 0);
    assert_non_null(strstr(r.data, "declarations: 5 tools, about "));
    assert_non_null(strstr(r.data, "(budget 12000), every tool with its docs\n"));
    /* budget 0: names alone, and the report lists every tool by level */
    struct tools_catalog *c = build_with(f, 0, NULL);
    d = tools_catalog_declarations(c);
    assert_non_null(strstr(d, "    get_weather_2: AnyTool;\n"));
    buf_reset(&r);
    tools_catalog_declarations_report(c, &r, 0);
    assert_non_null(strstr(r.data, "(budget 0), 5 reduced: 5 name\n  name: kv.get kv.set "
                                   "my_weather.forecast my_weather.get_weather "
                                   "my_weather.get_weather_2\n"));
    free(d);
    tools_catalog_release(c);
    /* preferred tools keep their detail longest; then server order */
    char *kv_first[] = {"kv.*", NULL};
    int split = 0;
    for (size_t budget = 1200; budget > 0; budget -= 10) {
        for (int pref = 0; pref < 2; pref++) {
            c = build_with(f, budget, pref ? kv_first : NULL);
            d = tools_catalog_declarations(c);
            int kv_name = strstr(d, "    get: AnyTool;") != NULL;
            int weather_name = strstr(d, "    forecast: AnyTool;") != NULL;
            if (pref) {
                assert_true(!kv_name || weather_name);
                split |= weather_name && !kv_name;
            } else {
                assert_true(!weather_name || kv_name);
            }
            free(d);
            tools_catalog_release(c);
        }
    }
    assert_true(split);
    buf_free(&r);
}

/* A server whose tools are not known until a login: declared as any name,
 * "login" in the worker catalog, found by tools_catalog_login_server and by
 * search; a server that has tools is never login_only. */
static void test_login_only_server(void **state)
{
    struct fx *f = *state;
    struct tools_catalog_server servers[] = {
        {.name = "kv", .tools = f->kv, .login_only = 1}, /* listed: not login_only */
        {.name = "my-notes",
         .login_only = 1,
         .unavailable = "it needs a login; run: mcp-codemode login my-notes"},
    };
    struct tools_catalog *c = tools_catalog_build(servers, 2, TOOLS_DECLARATIONS_BUDGET_DEFAULT);
    char *w = tools_catalog_worker_json(c, NULL, 0);
    assert_string_equal(w, "{\"kv\":{\"name\":\"kv\",\"tools\":{\"get\":\"get\",\"set\":"
                           "\"set\"}},\"my_notes\":{\"name\":\"my-notes\",\"login\":true,"
                           "\"tools\":{}}}");
    free(w);
    assert_int_equal(tools_catalog_login_server(c, "my-notes.anything"), 1);
    assert_int_equal(tools_catalog_login_server(c, "my_notes.echo"), 1);
    assert_int_equal(tools_catalog_login_server(c, "kv.nope"), -1);
    assert_int_equal(tools_catalog_login_server(c, "my_notes"), -1); /* no tool named */
    char *why = NULL;
    assert_null(tools_catalog_resolve(c, "my_notes.echo", &why));
    assert_string_equal(why, "The tools of server \"my-notes\" are not available: it needs a "
                             "login; run: mcp-codemode login my-notes");
    free(why);
    char *d = tools_catalog_declarations(c);
    assert_non_null(strstr(d, "  my_notes: {\n    [tool: string]: (args?: object) => "
                              "Promise<unknown>;\n  };\n"));
    assert_non_null(strstr(d, "Needs login: the tools of server \"my-notes\""));
    free(d);
    d = tools_catalog_declarations_server(c, "my_notes");
    assert_non_null(d);
    assert_null(strstr(d, "kv"));
    free(d);
    struct buf r;
    buf_init(&r, 0);
    tools_catalog_declarations_report(c, &r, 0);
    assert_non_null(strstr(r.data, "declarations: 2 tools, about "));
    assert_non_null(strstr(r.data, "\n  declared as any tool name until a login lists their "
                                   "tools: my_notes\n"));
    buf_free(&r);
    char *s = tools_catalog_search(c, "notes", 10, NULL);
    assert_string_equal(s,
                        "[{\"name\":\"my_notes.*\",\"summary\":\"Needs login: its tools are "
                        "not known yet; calling any tools.my_notes.NAME(args) logs in first\"}]");
    free(s);
    s = tools_catalog_search(c, "get", 10, NULL);
    assert_null(strstr(s, "my_notes"));
    free(s);
    tools_catalog_release(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_names_policy_tasks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resolve, setup, teardown),
        cmocka_unit_test_setup_teardown(test_search_and_describe, setup, teardown),
        cmocka_unit_test_setup_teardown(test_result_mapping, setup, teardown),
        cmocka_unit_test_setup_teardown(test_argument_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_declarations_budget_and_report, setup, teardown),
        cmocka_unit_test_setup_teardown(test_login_only_server, setup, teardown),
    };
    return cmocka_run_group_tests_name("tools_catalog", tests, NULL, NULL);
}
