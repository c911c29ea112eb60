/* Unit tests of tools/policy/audit.c: one JSON object per line with time
 * and event first, the three argument modes (full, hash with the SHA-256 of
 * the compact JSON, none), reopening after the file was moved, an open
 * error, and execution ids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/policy/audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/mcp-audit-test-XXXXXX";
static char path[256], moved[256];

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (f == NULL)
        return strdup("");
    static char data[65536];
    size_t n = fread(data, 1, sizeof data - 1, f);
    fclose(f);
    data[n] = '\0';
    return strdup(data);
}

static int lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

static cJSON *line_n(const char *text, int n)
{
    const char *p = text;
    for (int i = 0; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    assert_non_null(p);
    const char *end = strchr(p, '\n');
    assert_non_null(end);
    return cJSON_ParseWithLength(p, (size_t) (end - p));
}

static void test_lines_and_modes(void **state)
{
    (void) state;
    const enum tools_audit_arguments modes[] = {TOOLS_AUDIT_ARGS_FULL, TOOLS_AUDIT_ARGS_HASH,
                                                TOOLS_AUDIT_ARGS_NONE};
    cJSON *args = cJSON_Parse("{\"q\":\"x\"}");
    for (int m = 0; m < 3; m++) {
        unlink(path);
        char *err = NULL;
        struct tools_audit *a = tools_audit_open(path, modes[m], &err);
        assert_non_null(a);
        cJSON *ev = cJSON_CreateObject();
        cJSON_AddStringToObject(ev, "executionId", "e1");
        tools_audit_add_arguments(a, ev, args);
        tools_audit_write(a, "tool_call", ev);
        tools_audit_close(a);
        char *text = slurp(path);
        cJSON *l = line_n(text, 0);
        assert_non_null(l);
        assert_string_equal(l->child->string, "time");
        assert_string_equal(l->child->next->string, "event");
        assert_string_equal(cJSON_GetObjectItem(l, "event")->valuestring, "tool_call");
        const char *t = cJSON_GetObjectItem(l, "time")->valuestring;
        assert_int_equal(strlen(t), 24); /* 2026-11-28T04:49:45.255Z */
        assert_int_equal(t[23], 'Z');
        cJSON *full = cJSON_GetObjectItem(l, "arguments");
        cJSON *hash = cJSON_GetObjectItem(l, "argumentsSha256");
        if (modes[m] == TOOLS_AUDIT_ARGS_FULL) {
            assert_string_equal(cJSON_GetObjectItem(full, "q")->valuestring, "x");
            assert_null(hash);
        } else if (modes[m] == TOOLS_AUDIT_ARGS_HASH) {
            assert_null(full);
            /* sha256sum of {"q":"x"} */
            assert_string_equal(hash->valuestring,
                                "a69fbbcf7209c6f659a75067c9fa03037c2ae23f55a6f854d5994209129bbbf6");
            assert_int_equal(cJSON_GetObjectItem(l, "argumentsBytes")->valueint, 9);
        } else {
            assert_null(full);
            assert_null(hash);
        }
        cJSON_Delete(l);
        free(text);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_mode & 0777, 0600);
    }
    cJSON_Delete(args);
}

static void test_reopen(void **state)
{
    (void) state;
    unlink(path);
    unlink(moved);
    char *err = NULL;
    struct tools_audit *a = tools_audit_open(path, TOOLS_AUDIT_ARGS_NONE, &err);
    tools_audit_write(a, "execution_start", NULL);
    assert_int_equal(rename(path, moved), 0);
    tools_audit_write(a, "execution_end", NULL); /* still the old file */
    tools_audit_reopen(a);
    tools_audit_write(a, "execution_start", NULL);
    tools_audit_close(a);
    char *old = slurp(moved), *fresh = slurp(path);
    assert_int_equal(lines(old), 2);
    assert_non_null(strstr(old, "\"event\":\"execution_end\""));
    assert_int_equal(lines(fresh), 1);
    assert_non_null(strstr(fresh, "\"event\":\"execution_start\""));
    free(old);
    free(fresh);
}

static void test_open_error_and_ids(void **state)
{
    (void) state;
    char *err = NULL;
    assert_null(tools_audit_open("/nonexistent-dir/a.jsonl", TOOLS_AUDIT_ARGS_HASH, &err));
    assert_string_equal(err, "audit log /nonexistent-dir/a.jsonl: No such file or directory");
    free(err);
    enum tools_audit_arguments m;
    assert_int_equal(tools_audit_arguments_parse("full", &m), 0);
    assert_int_equal(m, TOOLS_AUDIT_ARGS_FULL);
    assert_int_equal(tools_audit_arguments_parse("Hash", &m), -1);
    char a[33], b[33];
    tools_audit_new_id(a);
    tools_audit_new_id(b);
    assert_int_equal(strlen(a), 32);
    assert_int_equal(strspn(a, "0123456789abcdef"), 32);
    assert_string_not_equal(a, b);
    tools_audit_write(NULL, "x", cJSON_CreateObject()); /* no log: freed, nothing written */
}

static int setup(void **state)
{
    (void) state;
    if (mkdtemp(dir) == NULL)
        return -1;
    snprintf(path, sizeof path, "%s/audit.jsonl", dir);
    snprintf(moved, sizeof moved, "%s/audit.jsonl.1", dir);
    return 0;
}

static int teardown(void **state)
{
    (void) state;
    unlink(path);
    unlink(moved);
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_and_modes),
        cmocka_unit_test(test_reopen),
        cmocka_unit_test(test_open_error_and_ids),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
