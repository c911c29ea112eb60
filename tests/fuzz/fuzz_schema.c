/* Fuzz target: the JSON Schema compiler, validator and pattern engine
 * (tools/schema/). The first byte picks the mode: bit 0 the default draft
 * (2020-12 or draft-07), bit 1 the pattern engine alone. Schema mode: the
 * input holds a schema then an instance (two JSON texts one after the
 * other); the schema is compiled and the instance validated, with the
 * errors formatted. Pattern mode: "pattern\nsubject", the pattern compiled
 * and searched for with a small step budget. */
#include "fuzz.h"

#include "tools/schema/regex.h"
#include "tools/schema/schema.h"

#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    return 0;
}

static void run_regex(const char *s, size_t n)
{
    const char *nl = memchr(s, '\n', n);
    size_t plen = nl ? (size_t) (nl - s) : n;
    char *pattern = xstrndup(s, plen);
    if (strlen(pattern) != plen) { /* a NUL inside: patterns are C strings */
        free(pattern);
        return;
    }
    char *err = NULL;
    struct schema__regex *re = schema__regex_compile(pattern, &err);
    if (re == NULL) {
        FUZZ_CHECK(err != NULL, "no message for a pattern that did not compile");
        free(err);
    } else {
        const char *subject = nl ? nl + 1 : "";
        size_t slen = nl ? n - plen - 1 : 0;
        unsigned long budget = 100000;
        int m = schema__regex_search(re, subject, slen, &budget);
        FUZZ_CHECK(m >= -1 && m <= 1, "search returned %d", m);
        FUZZ_CHECK(budget <= 100000, "budget grew");
        schema__regex_free(re);
    }
    free(pattern);
}

static void run_schema(const char *s, size_t n, enum tools_schema_draft draft)
{
    const char *end = NULL;
    cJSON *schema = cJSON_ParseWithLengthOpts(s, n, &end, 0);
    if (schema == NULL)
        return;
    size_t used = (size_t) (end - s);
    cJSON *instance = cJSON_ParseWithLength(end, n - used);
    char *err = NULL;
    struct tools_schema *ts = tools_schema_compile_draft(schema, draft, &err);
    if (ts == NULL) {
        FUZZ_CHECK(err != NULL, "no message for a schema that did not compile");
        free(err);
    } else {
        FUZZ_CHECK(err == NULL, "message for a schema that compiled");
        tools_schema_unresolved(ts);
        const cJSON *inst = instance ? instance : schema; /* a schema is an instance too */
        struct tools_schema_result r;
        int ok = tools_schema_validate(ts, inst, &r);
        FUZZ_CHECK(ok == 0 || ok == 1, "validate returned %d", ok);
        FUZZ_CHECK(ok ? r.count == 0 && r.total == 0 : r.count > 0 && r.total >= r.count,
                   "valid %d with %zu/%zu errors", ok, r.count, r.total);
        for (size_t i = 0; i < r.count; i++)
            FUZZ_CHECK(r.errors[i].instance_path && r.errors[i].keyword && r.errors[i].message,
                       "error fields missing");
        char *text = tools_schema_result_format(&r);
        free(text);
        tools_schema_result_free(&r);
        FUZZ_CHECK(tools_schema_validate(ts, inst, NULL) == ok, "validation not repeatable");
        tools_schema_free(ts);
    }
    cJSON_Delete(schema);
    cJSON_Delete(instance);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *s = (const char *) data + 1;
    if (data[0] & 2)
        run_regex(s, size - 1);
    else
        run_schema(s, size - 1, data[0] & 1 ? TOOLS_SCHEMA_DRAFT_07 : TOOLS_SCHEMA_DRAFT_2020_12);
    return 0;
}
