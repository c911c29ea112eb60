/* Fuzz target: the result-type learner (tools/result_shape.c). The input is
 * JSON: an array is a sequence of results (each observed in turn), anything
 * else one result. No value may reach what is kept: the same results with
 * every string emptied, every number zeroed and every boolean flipped must
 * give the very same shape; every key kept must read as a name; the
 * canonical JSON stays within its bound and reads back to itself; learning
 * result by result (tools_shape_covers' fast path) gives what merging each
 * result's own shape gives; the JSON
 * Schema exists for every shape that saw something. The input is also read
 * as a stored row (tools_shape_from_json), which must refuse or round-trip. */
#include "fuzz.h"

#include "common/json.h"
#include "tools/result_shape.h"

#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void) argc;
    (void) argv;
    fuzz_setup();
    return 0;
}

/* Every value of v replaced by another of the same kind. */
static void blank_values(cJSON *v)
{
    if (cJSON_IsString(v)) {
        cJSON_SetValuestring(v, "");
    } else if (cJSON_IsNumber(v)) {
        cJSON_SetNumberValue(v, 0);
    } else if (cJSON_IsBool(v)) {
        v->type =
            (v->type & ~(cJSON_True | cJSON_False)) | (cJSON_IsTrue(v) ? cJSON_False : cJSON_True);
    }
    for (cJSON *c = v->child; c; c = c->next)
        blank_values(c);
}

static struct tools_shape *learn(const cJSON *results)
{
    struct tools_shape *s = tools_shape_new();
    if (cJSON_IsArray(results)) {
        for (const cJSON *r = results->child; r; r = r->next)
            tools_shape_observe(s, r);
    } else {
        tools_shape_observe(s, results);
    }
    return s;
}

/* Every key under "p" in a canonical shape reads as a name. */
static void check_keys(const cJSON *j)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "p");
    for (const cJSON *e = p ? p->child : NULL; e; e = e->next) {
        FUZZ_CHECK(tools_shape_key_is_name(e->string, strlen(e->string)), "key kept: %s",
                   e->string);
        check_keys(e);
    }
    const cJSON *i = cJSON_GetObjectItemCaseSensitive(j, "i");
    if (i)
        check_keys(i);
}

static void check_stored(const char *text)
{
    struct tools_shape *s = tools_shape_from_json(text);
    if (s == NULL)
        return;
    char *once = tools_shape_to_json(s);
    struct tools_shape *again = tools_shape_from_json(once);
    FUZZ_CHECK(again != NULL, "its own JSON refused: %s", once);
    char *twice = tools_shape_to_json(again);
    FUZZ_CHECK(strcmp(once, twice) == 0, "not canonical: %s / %s", once, twice);
    FUZZ_CHECK(strlen(once) <= TOOLS_SHAPE_MAX_BYTES, "over the byte bound");
    free(twice);
    free(once);
    tools_shape_free(again);
    tools_shape_free(s);
}

/* The same results learned without the fast path (each one's shape alone,
 * merged): tools_shape_covers must never skip a change. */
static struct tools_shape *learn_slowly(const cJSON *results)
{
    struct tools_shape *s = tools_shape_new();
    const cJSON *one = cJSON_IsArray(results) ? results->child : results;
    for (; one; one = cJSON_IsArray(results) ? one->next : NULL) {
        struct tools_shape *x = tools_shape_new();
        tools_shape_observe(x, one);
        tools_shape_merge(s, x);
        tools_shape_free(x);
    }
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = xstrndup((const char *) data, size);
    check_stored(text);
    cJSON *results = json_parse(text, strlen(text));
    free(text);
    if (results == NULL)
        return 0;
    struct tools_shape *s = learn(results);
    struct tools_shape *slow = learn_slowly(results);
    FUZZ_CHECK(tools_shape_equal(s, slow), "the fast path skipped a change");
    tools_shape_free(slow);
    blank_values(results);
    struct tools_shape *blank = learn(results);
    char *a = tools_shape_to_json(s), *b = tools_shape_to_json(blank);
    FUZZ_CHECK(strcmp(a, b) == 0, "a value changed the shape:\n%s\n%s", a, b);
    FUZZ_CHECK(strlen(a) <= TOOLS_SHAPE_MAX_BYTES, "over the byte bound: %zu", strlen(a));
    cJSON *j = json_parse(a, strlen(a));
    FUZZ_CHECK(j != NULL, "not JSON: %s", a);
    check_keys(j);
    cJSON_Delete(j);
    struct tools_shape *back = tools_shape_from_json(a);
    FUZZ_CHECK(back != NULL, "its own JSON refused: %s", a);
    FUZZ_CHECK(tools_shape_equal(back, s), "does not read back: %s", a);
    cJSON *schema = tools_shape_schema(s);
    FUZZ_CHECK((schema != NULL) == !tools_shape_empty(s), "schema of %s", a);
    cJSON_Delete(schema);
    tools_shape_free(back);
    free(a);
    free(b);
    tools_shape_free(blank);
    tools_shape_free(s);
    cJSON_Delete(results);
    return 0;
}
