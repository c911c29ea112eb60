/* Fuzz target: the content and stash paths over values a worker sends
 * (mcp-server/execute/content.c). A worker is assumed compromised, so the value of a
 * `done` outcome or of a content.stash call may be any JSON: each input is
 * parsed as one such value. What content.stash keeps of it must be some
 * data with a MIME type; when it counts as content, every block written for
 * each revision must itself be well-formed content, and the summary one
 * entry per block. Never a crash or a leak. */
#include "fuzz.h"

#include "mcp-server/execute/content.h"
#include "common/json.h"

#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void) argc;
    (void) argv;
    fuzz_setup();
    return 0;
}

static void check_stash_form(const cJSON *v)
{
    const char *mime;
    int blob;
    char *owned;
    const char *data = mcp_content_stash_form(v, &mime, &blob, &owned);
    FUZZ_CHECK(data != NULL && mime != NULL, "content.stash kept nothing");
    FUZZ_CHECK(owned == NULL || owned == data, "owned data is not what is kept");
    FUZZ_CHECK(!blob || owned == NULL, "a blob is borrowed base64");
    free(owned);
}

static void check_content(const cJSON *v)
{
    size_t n = cJSON_IsArray(v) ? (size_t) cJSON_GetArraySize(v) : 1;
    for (int rev = 0; rev < MCP_REVISION_COUNT; rev++) {
        cJSON *out = cJSON_CreateArray();
        mcp_content_append(out, v, (enum mcp_revision) rev);
        FUZZ_CHECK((size_t) cJSON_GetArraySize(out) == n, "blocks lost or added");
        FUZZ_CHECK(mcp_content_is_content(out), "a block written for revision %d is malformed",
                   rev);
        cJSON_Delete(out);
    }
    cJSON *sum = mcp_content_summary(v);
    FUZZ_CHECK((size_t) cJSON_GetArraySize(sum) == n, "summary lost or added entries");
    cJSON_Delete(sum);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *v = json_parse((const char *) data, size);
    if (v == NULL)
        return 0;
    check_stash_form(v);
    if (mcp_content_is_content(v))
        check_content(v);
    cJSON_Delete(v);
    return 0;
}
