/* Fuzz target: the downstream client's Server-Sent Events parser
 * (transport/sse_parse.c), fed in fragments chosen by the input, with a
 * small data cap so oversized events happen. Every event must keep the
 * parser's promises (NUL-terminated data of the stated length, caps). */
#include "fuzz.h"

#include "transport/sse_parse.h"

#include <string.h>

static size_t cap;

static void on_event(void *ud, const struct sse_event *e)
{
    (void) ud;
    FUZZ_CHECK(e->type && e->data && e->id, "event fields missing");
    FUZZ_CHECK(e->data[e->len] == '\0', "data not NUL-terminated");
    FUZZ_CHECK(cap == 0 || e->len <= cap, "event over the cap: %zu", e->len);
    FUZZ_CHECK(strlen(e->id) <= SSE_PARSE_MAX_ID, "id over its cap");
    FUZZ_CHECK(!memchr(e->type, '\n', strlen(e->type)) && !memchr(e->type, '\r', strlen(e->type)),
               "line end inside the event type");
}

static void on_oversize(void *ud, const char *type, const char *head, size_t head_len,
                        const char *tail, size_t tail_len, size_t total)
{
    (void) ud;
    FUZZ_CHECK(type && head && tail, "oversize fields missing");
    FUZZ_CHECK(head_len <= SSE_PARSE_EXCERPT && tail_len <= SSE_PARSE_EXCERPT, "excerpt too long");
    FUZZ_CHECK(total > cap && head_len <= total && tail_len <= total, "sizes inconsistent");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t frag = data[0] ? data[0] : size;
    cap = data[1] & 1 ? 0 : (size_t) (data[1] >> 1) * 64 + 1;
    data += 2;
    size -= 2;
    struct sse_parser p;
    sse_parser_init(&p, cap);
    static const struct sse_parse_events ev = {on_event, on_oversize};
    for (size_t off = 0; off < size; off += frag) {
        size_t n = size - off < frag ? size - off : frag;
        sse_parser_feed(&p, (const char *) data + off, n, &ev, NULL);
    }
    FUZZ_CHECK(strlen(sse_parser_last_id(&p)) <= SSE_PARSE_MAX_ID, "last id over its cap");
    int64_t retry = sse_parser_retry(&p);
    FUZZ_CHECK(retry >= -1, "retry %lld", (long long) retry);
    sse_parser_free(&p);
    return 0;
}
