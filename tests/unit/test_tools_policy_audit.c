/* Unit tests of tools/policy/audit.c: one JSON object per line with time
 * and event first, the three argument modes (full, hash with the SHA-256 of
 * the compact JSON, none), the per-line cap of full (digest and head past
 * 4 KiB), tool names cut, reopening after the file was moved, an open
 * error, and execution and call ids. */
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

/* Full arguments past TOOLS_AUDIT_ARGUMENTS_MAX: the line has their digest,
 * size and head instead, so 1000 calls with 1 MB each stay small. */
static void test_full_is_capped(void **state)
{
    (void) state;
    unlink(path);
    char *err = NULL;
    struct tools_audit *a = tools_audit_open(path, TOOLS_AUDIT_ARGS_FULL, &err);
    assert_non_null(a);
    size_t big = 1000000;
    char *s = malloc(big + 1);
    memset(s, 'x', big);
    memcpy(s + 4084, "\xc3\xa9\xc3\xa9", 4); /* the second "é" across the cut */
    s[big] = '\0';
    cJSON *args = cJSON_CreateObject();
    cJSON_AddStringToObject(args, "data", s);
    cJSON *fits = cJSON_CreateObject();
    memset(s, 'y', TOOLS_AUDIT_ARGUMENTS_MAX - 10);
    s[TOOLS_AUDIT_ARGUMENTS_MAX - 10] = '\0'; /* {"v":"yyy"}: 4096 bytes */
    cJSON_AddStringToObject(fits, "v", s);
    for (int i = 0; i < 3; i++) {
        cJSON *ev = cJSON_CreateObject();
        tools_audit_add_tool(ev, "crm.x");
        tools_audit_add_arguments(a, ev, i < 2 ? args : fits);
        tools_audit_write(a, "tool_call", ev);
    }
    tools_audit_close(a);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_size < 3 * 5000); /* was 3 MB */
    char *text = slurp(path);
    cJSON *l = line_n(text, 1);
    assert_non_null(l);
    assert_null(cJSON_GetObjectItem(l, "arguments"));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(l, "argumentsTruncated")));
    assert_int_equal(cJSON_GetObjectItem(l, "argumentsBytes")->valuedouble, big + 11);
    assert_int_equal(strlen(cJSON_GetObjectItem(l, "argumentsSha256")->valuestring), 64);
    const char *head = cJSON_GetObjectItem(l, "argumentsHead")->valuestring;
    /* {"data":" is 9 bytes: the cut falls inside the second é and backs up */
    assert_int_equal(strlen(head), 4095);
    assert_memory_equal(head, "{\"data\":\"xxx", 12);
    assert_memory_equal(head + 4093, "\xc3\xa9", 2);
    cJSON_Delete(l);
    l = line_n(text, 2);
    assert_int_equal(
        strlen(cJSON_GetObjectItem(cJSON_GetObjectItem(l, "arguments"), "v")->valuestring),
        TOOLS_AUDIT_ARGUMENTS_MAX - 10);
    assert_null(cJSON_GetObjectItem(l, "argumentsTruncated"));
    cJSON_Delete(l);
    free(text);
    cJSON_Delete(args);
    cJSON_Delete(fits);
    free(s);
}

static void test_tool_name_cut(void **state)
{
    (void) state;
    size_t n = 100000;
    char *name = malloc(n + 1);
    memset(name, 'n', n);
    name[n] = '\0';
    cJSON *ev = cJSON_CreateObject();
    tools_audit_add_tool(ev, name);
    assert_int_equal(strlen(cJSON_GetObjectItem(ev, "tool")->valuestring),
                     TOOLS_AUDIT_ARGUMENTS_MAX);
    assert_int_equal(cJSON_GetObjectItem(ev, "toolBytes")->valuedouble, n);
    cJSON_Delete(ev);
    ev = cJSON_CreateObject();
    tools_audit_add_tool(ev, "crm.search");
    assert_string_equal(cJSON_GetObjectItem(ev, "tool")->valuestring, "crm.search");
    assert_null(cJSON_GetObjectItem(ev, "toolBytes"));
    cJSON_Delete(ev);
    free(name);
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
    char c[17], d[17];
    tools_audit_new_call_id(c);
    tools_audit_new_call_id(d);
    assert_int_equal(strspn(c, "0123456789abcdef"), 16);
    assert_int_equal(strlen(c), 16);
    assert_string_not_equal(c, d);
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
        cmocka_unit_test(test_lines_and_modes),    cmocka_unit_test(test_full_is_capped),
        cmocka_unit_test(test_tool_name_cut),      cmocka_unit_test(test_reopen),
        cmocka_unit_test(test_open_error_and_ids),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
