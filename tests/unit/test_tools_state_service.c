/* Unit tests of tools/state/service.c and decl.c: what the host answers
 * each state and skills operation (JSON of the value, or of an error with
 * its name and code), per-principal and server scopes, the checks of
 * skills.save (name, description, schema, code), a skill's arguments
 * validated before its code is given, the worker's run-message part, the
 * declarations (valid shape, skills with their schema types), search, the
 * changed callback after save and delete, and skills' owners: who sees,
 * calls, replaces and deletes whose skill under each skills scope. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/state/service.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64], path[128];
static int changes;

static void changed(void *ud)
{
    (void) ud;
    changes++;
}

static int setup(void **st)
{
    (void) st;
    snprintf(dir, sizeof dir, "/tmp/test_service_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/state.db", dir);
    changes = 0;
    return 0;
}

static int teardown(void **st)
{
    (void) st;
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

static char *admins[] = {"root", NULL};

static struct tools_state_service *service_scoped(int per_principal, int skills_per_principal)
{
    struct tools_state_service_options o = {.state = 1,
                                            .skills = 1,
                                            .per_principal = per_principal,
                                            .skills_per_principal = skills_per_principal,
                                            .skill_admins = admins,
                                            .store = {path, 0, 0, 100},
                                            .skills_changed = changed};
    return tools_state_service_new(&o);
}

static struct tools_state_service *service(int per_principal)
{
    return service_scoped(per_principal, 1);
}

/* Runs one call with args given as JSON text; returns ok and the reply in *out (malloc'd). */
static int call(struct tools_state_service *s, const char *op, const char *name,
                const char *principal, const char *args, char **out)
{
    cJSON *a = args ? json_parse(args, strlen(args)) : NULL;
    struct buf b;
    buf_init(&b, 0);
    int ok = tools_state_service_call(s, op, name, principal, a, &b);
    cJSON_Delete(a);
    *out = buf_steal(&b);
    return ok;
}

static void expect(struct tools_state_service *s, const char *op, const char *name,
                   const char *principal, const char *args, int want_ok, const char *want)
{
    char *out;
    int ok = call(s, op, name, principal, args, &out);
    if (ok != want_ok || strstr(out, want) == NULL)
        fail_msg("%s.%s(%s): got %d %s, wanted %d with %s", op, name, args ? args : "", ok, out,
                 want_ok, want);
    free(out);
}

static void test_off(void **st)
{
    (void) st;
    struct tools_state_service_options o = {.store = {path, 0, 0, 0}};
    assert_null(tools_state_service_new(&o));
    assert_null(tools_state_service_worker_json(NULL, NULL));
}

static void test_state_ops(void **st)
{
    (void) st;
    struct tools_state_service *s = service(1);
    expect(s, "state", "get", "a", "{\"key\":\"k\"}", 1, "{\"found\":false}");
    expect(s, "state", "set", "a", "{\"key\":\"k\",\"value\":{\"x\":[1,2]}}", 1, "1");
    expect(s, "state", "get", "a", "{\"key\":\"k\"}", 1,
           "{\"found\":true,\"version\":1,\"value\":{\"x\":[1,2]}}");
    expect(s, "state", "get", "b", "{\"key\":\"k\"}", 1, "{\"found\":false}"); /* per principal */
    expect(s, "state", "set", "a", "{\"key\":\"k\",\"value\":2,\"ifVersion\":0}", 0,
           "\"name\":\"StateConflictError\"");
    expect(s, "state", "set", "a", "{\"key\":\"k\",\"value\":2,\"ifVersion\":1}", 1, "2");
    expect(s, "state", "set", "a", "{\"key\":\"k\",\"value\":2,\"ifVersion\":-1}", 0,
           "\"code\":\"invalid\"");
    expect(s, "state", "set", "a", "{\"key\":\"k\",\"value\":2,\"ifVersion\":1.5}", 0,
           "\"code\":\"invalid\"");
    expect(s, "state", "set", "a", "{\"key\":\"k\"}", 0, "undefined and functions");
    expect(s, "state", "get", "a", "{\"key\":7}", 0, "\"code\":\"invalid\"");
    expect(s, "state", "list", "a", "{\"prefix\":\"\"}", 1, "[\"k\"]");
    expect(s, "state", "delete", "a", "{\"key\":\"k\"}", 1, "true");
    expect(s, "state", "delete", "a", "{\"key\":\"k\"}", 1, "false");
    tools_state_service_free(s);
}

static void test_server_scope(void **st)
{
    (void) st;
    struct tools_state_service *s = service(0);
    expect(s, "state", "set", "a", "{\"key\":\"shared\",\"value\":true}", 1, "1");
    expect(s, "state", "get", "b", "{\"key\":\"shared\"}", 1, "\"found\":true");
    tools_state_service_free(s);
}

static const char add_skill[] =
    "{\"name\":\"add\",\"description\":\"Adds.\",\"inputSchema\":{\"type\":\"object\","
    "\"properties\":{\"a\":{\"type\":\"number\"}},\"required\":[\"a\"]},\"code\":\"return "
    "args.a + 1\"}";

static void test_skills_save_checks(void **st)
{
    (void) st;
    struct tools_state_service *s = service(1);
    expect(s, "skills", "save", NULL, "{\"name\":\"1x\",\"description\":\"d\",\"code\":\"\"}", 0,
           "must be an identifier");
    expect(s, "skills", "save", NULL, "{\"name\":\"list\",\"description\":\"d\",\"code\":\"\"}", 0,
           "reserved name");
    expect(s, "skills", "save", NULL, "{\"name\":\"while\",\"description\":\"d\",\"code\":\"\"}", 0,
           "identifier");
    expect(s, "skills", "save", NULL, "{\"name\":\"ok\",\"code\":\"\"}", 0, "description");
    expect(s, "skills", "save", NULL, "{\"name\":\"ok\",\"description\":\"d\"}", 0, "code");
    expect(s, "skills", "save", NULL,
           "{\"name\":\"ok\",\"description\":\"d\",\"code\":\"\",\"inputSchema\":[]}", 0,
           "inputSchema");
    expect(s, "skills", "save", NULL,
           "{\"name\":\"ok\",\"description\":\"d\",\"code\":\"\",\"inputSchema\":{\"$ref\":"
           "\"#/nope\"}}",
           0, "not a usable JSON Schema");
    expect(s, "skills", "save", NULL, "[1]", 0, "expected an object");
    assert_int_equal(changes, 0);
    expect(s, "skills", "list", NULL, NULL, 1, "[]");
    tools_state_service_free(s);
}

static void test_skills_lifecycle(void **st)
{
    (void) st;
    struct tools_state_service *s = service(1);
    expect(s, "skills", "save", NULL, add_skill, 1, "{\"name\":\"add\"}");
    assert_int_equal(changes, 1);
    char *w = tools_state_service_worker_json(s, NULL);
    assert_string_equal(w, "{\"state\":true,\"skills\":[\"add\"]}");
    free(w);
    expect(s, "skill", "add", NULL, "{\"a\":1}", 1, "{\"code\":\"return args.a + 1\"}");
    expect(s, "skill", "add", NULL, "{\"a\":\"x\"}", 0, "ToolArgumentError");
    expect(s, "skill", "add", NULL, NULL, 0, "ToolArgumentError"); /* {} lacks a */
    expect(s, "skill", "nope", NULL, "{}", 0, "Unknown skill");
    expect(s, "skills", "list", NULL, NULL, 1, "\"description\":\"Adds.\"");
    struct buf d;
    buf_init(&d, 0);
    tools_state_service_declarations(s, NULL, &d);
    assert_non_null(strstr(d.data, "declare const state: {"));
    assert_non_null(strstr(d.data, "\n  add(args: { a: number }): Promise<unknown>;\n};\n"));
    buf_free(&d);
    cJSON *hits = cJSON_CreateArray();
    tools_state_service_search(s, NULL, "ADDS", hits);
    tools_state_service_search(s, NULL, "nothing like it", hits);
    assert_int_equal(cJSON_GetArraySize(hits), 1);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(hits, 0), "name")->valuestring,
                        "skills.add");
    cJSON_Delete(hits);
    tools_state_service_free(s);
    /* a new service (a restart) finds the skill in the file */
    s = service(1);
    w = tools_state_service_worker_json(s, NULL);
    assert_string_equal(w, "{\"state\":true,\"skills\":[\"add\"]}");
    free(w);
    expect(s, "skills", "delete", NULL, "{\"name\":\"add\"}", 1, "true");
    assert_int_equal(changes, 2);
    expect(s, "skills", "delete", NULL, "{\"name\":\"add\"}", 1, "false");
    assert_int_equal(changes, 2);
    tools_state_service_free(s);
}

static const char skill_b[] = "{\"name\":\"job\",\"description\":\"B's.\",\"code\":\"return 'b'\"}";
static const char skill_e[] = "{\"name\":\"job\",\"description\":\"Evil.\",\"code\":\"return 'e'\"}";
static const char skill_s[] = "{\"name\":\"shared\",\"description\":\"S.\",\"code\":\"return 's'\"}";

static void worker_json_is(struct tools_state_service *s, const char *principal, const char *want)
{
    char *w = tools_state_service_worker_json(s, principal);
    assert_string_equal(w, want);
    free(w);
}

/* scope "principal": each principal sees its own skills and the server's;
 * another's is invisible and cannot be replaced or deleted through the name. */
static void test_skills_owned_per_principal(void **st)
{
    (void) st;
    struct tools_state_service *s = service(1);
    expect(s, "skills", "save", "bob", skill_b, 1, "{\"name\":\"job\"}");
    expect(s, "skills", "save", NULL, skill_s, 1, "{\"name\":\"shared\"}"); /* the CLI */
    expect(s, "skills", "list", "eve", NULL, 1, "[{\"name\":\"shared\"");
    expect(s, "skill", "job", "eve", "{}", 0, "Unknown skill");
    worker_json_is(s, "eve", "{\"state\":true,\"skills\":[\"shared\"]}");
    worker_json_is(s, "bob", "{\"state\":true,\"skills\":[\"job\",\"shared\"]}");
    expect(s, "skills", "delete", "eve", "{\"name\":\"job\"}", 1, "false");
    /* eve's own "job" is hers alone: bob's still runs bob's code */
    expect(s, "skills", "save", "eve", skill_e, 1, "{\"name\":\"job\"}");
    expect(s, "skill", "job", "bob", "{}", 1, "return 'b'");
    expect(s, "skill", "job", "eve", "{}", 1, "return 'e'");
    /* the server's skill: everyone calls it, only the CLI or an admin changes it */
    expect(s, "skills", "save", "eve",
           "{\"name\":\"shared\",\"description\":\"x\",\"code\":\"return 'e'\"}", 0,
           "\"code\":\"forbidden\"");
    expect(s, "skills", "delete", "eve", "{\"name\":\"shared\"}", 0, "\"code\":\"forbidden\"");
    expect(s, "skill", "shared", "bob", "{}", 1, "return 's'");
    expect(s, "skills", "delete", "root", "{\"name\":\"shared\"}", 1, "true");
    expect(s, "skills", "delete", "bob", "{\"name\":\"job\"}", 1, "true");
    expect(s, "skill", "job", "eve", "{}", 1, "return 'e'");
    struct buf d;
    buf_init(&d, 0);
    tools_state_service_declarations(s, "bob", &d);
    assert_null(strstr(d.data, "job("));
    buf_reset(&d);
    tools_state_service_declarations(s, "eve", &d);
    assert_non_null(strstr(d.data, "job("));
    buf_free(&d);
    assert_null(tools_state_service_describe(s, "bob", "job"));
    tools_state_service_free(s);
}

/* scope "server": everyone sees every skill; only its owner or an admin
 * replaces or deletes it. */
static void test_skills_owned_server_scope(void **st)
{
    (void) st;
    struct tools_state_service *s = service_scoped(1, 0);
    expect(s, "skills", "save", "bob", skill_b, 1, "{\"name\":\"job\"}");
    expect(s, "skills", "list", "eve", NULL, 1, "\"name\":\"job\"");
    expect(s, "skill", "job", "eve", "{}", 1, "return 'b'");
    expect(s, "skills", "save", "eve", skill_e, 0, "\"code\":\"forbidden\"");
    expect(s, "skills", "delete", "eve", "{\"name\":\"job\"}", 0, "\"code\":\"forbidden\"");
    expect(s, "skill", "job", "eve", "{}", 1, "return 'b'"); /* not swapped */
    expect(s, "skills", "save", "bob", skill_e, 1, "{\"name\":\"job\"}"); /* its owner may */
    expect(s, "skills", "save", "root", skill_b, 1, "{\"name\":\"job\"}"); /* an admin may */
    expect(s, "skill", "job", "eve", "{}", 1, "return 'b'");
    expect(s, "skills", "list", NULL, NULL, 1, "\"owner\":\"bob\""); /* kept its owner */
    expect(s, "skills", "delete", "bob", "{\"name\":\"job\"}", 1, "true");
    tools_state_service_free(s);
}

static void test_storage_error(void **st)
{
    (void) st;
    FILE *f = fopen(path, "w");
    fputs("garbage garbage garbage garbage garbage garbage garbage garbage garbage garbage", f);
    fclose(f);
    struct tools_state_service *s = service(1); /* logs that the skills were not loaded */
    expect(s, "state", "get", "a", "{\"key\":\"k\"}", 0, "\"code\":\"storage\"");
    expect(s, "skills", "list", NULL, NULL, 0, "\"name\":\"StateError\"");
    unlink(path);
    expect(s, "state", "get", "a", "{\"key\":\"k\"}", 1, "\"found\":false");
    tools_state_service_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_off, setup, teardown),
        cmocka_unit_test_setup_teardown(test_state_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server_scope, setup, teardown),
        cmocka_unit_test_setup_teardown(test_skills_save_checks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_skills_lifecycle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_skills_owned_per_principal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_skills_owned_server_scope, setup, teardown),
        cmocka_unit_test_setup_teardown(test_storage_error, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
