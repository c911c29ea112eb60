/* Server-Sent Events parser (see sse_parse.h): a byte-level state machine.
 * Field names are matched as they arrive; field values stream straight into
 * their destination, so a huge data line never sits in a line buffer, and
 * the data cap is checked as bytes come. */
#include "transport/sse_parse.h"

#include <stdlib.h>
#include <string.h>

#define MAX_RETRY_MS 86400000 /* a day: longer retry values are clamped */

void sse_parser_init(struct sse_parser *p, size_t max)
{
    memset(p, 0, sizeof *p);
    p->max = max;
    buf_init(&p->value, 0);
    buf_init(&p->data, 0);
    buf_init(&p->type, 0);
    buf_init(&p->last_id, 0);
    p->retry_ms = -1;
}

void sse_parser_free(struct sse_parser *p)
{
    buf_free(&p->value);
    buf_free(&p->data);
    buf_free(&p->type);
    buf_free(&p->last_id);
}

const char *sse_parser_last_id(const struct sse_parser *p)
{
    return p->last_id.data ? p->last_id.data : "";
}

int64_t sse_parser_retry(const struct sse_parser *p)
{
    return p->retry_ms;
}

/* --- data and its cap ------------------------------------------------------------------------- */

static void tail_append(struct sse_parser *p, const char *s, size_t n)
{
    if (n >= SSE_PARSE_EXCERPT) {
        memcpy(p->tail, s + n - SSE_PARSE_EXCERPT, SSE_PARSE_EXCERPT);
        p->tail_pos = SSE_PARSE_EXCERPT;
        return;
    }
    if (p->tail_pos + n > SSE_PARSE_EXCERPT) {
        size_t drop = p->tail_pos + n - SSE_PARSE_EXCERPT;
        memmove(p->tail, p->tail + drop, p->tail_pos - drop);
        p->tail_pos -= drop;
    }
    memcpy(p->tail + p->tail_pos, s, n);
    p->tail_pos += n;
}

static void head_append(struct sse_parser *p, const char *s, size_t n)
{
    size_t room = SSE_PARSE_EXCERPT - p->head_len;
    size_t k = n < room ? n : room;
    memcpy(p->head + p->head_len, s, k);
    p->head_len += k;
}

/* The data just went over the cap: keep its ends, drop the rest. */
static void go_over(struct sse_parser *p)
{
    p->over = 1;
    p->head_len = p->tail_pos = 0;
    if (p->data.len) {
        head_append(p, p->data.data, p->data.len);
        tail_append(p, p->data.data, p->data.len);
    }
    buf_free(&p->data);
}

static void data_append(struct sse_parser *p, const char *s, size_t n)
{
    p->data_total += n;
    if (!p->over && p->max && p->data_total > p->max + 1) /* + the last "\n" */
        go_over(p);
    if (p->over) {
        head_append(p, s, n);
        tail_append(p, s, n);
    } else {
        buf_append(&p->data, s, n);
    }
}

/* --- fields ----------------------------------------------------------------------------------- */

static enum sse_parse_field classify(const struct sse_parser *p)
{
    static const struct {
        const char *name;
        enum sse_parse_field f;
    } names[] = {
        {"data", SSE_F_DATA}, {"event", SSE_F_EVENT}, {"id", SSE_F_ID}, {"retry", SSE_F_RETRY}};
    if (p->name_len > sizeof p->name)
        return SSE_F_IGNORE;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == p->name_len &&
            memcmp(names[i].name, p->name, p->name_len) == 0)
            return names[i].f;
    return SSE_F_IGNORE; /* comments (empty name) and unknown fields */
}

static void value_append(struct sse_parser *p, const char *s, size_t n)
{
    if (p->field == SSE_F_DATA) {
        data_append(p, s, n);
    } else if (p->field != SSE_F_IGNORE) {
        size_t room = SSE_PARSE_MAX_ID - p->value.len;
        buf_append(&p->value, s, n < room ? n : room);
    }
}

static void set_retry(struct sse_parser *p, const char *v, size_t n)
{
    uint64_t ms = 0;
    if (n == 0)
        return;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9')
            return;
        if (ms < MAX_RETRY_MS)
            ms = ms * 10 + (uint64_t) (v[i] - '0');
    }
    p->retry_ms = (int64_t) (ms < MAX_RETRY_MS ? ms : MAX_RETRY_MS);
}

static void finish_field(struct sse_parser *p)
{
    const char *v = p->value.data ? p->value.data : "";
    size_t n = p->value.len;
    switch (p->field) {
    case SSE_F_DATA:
        data_append(p, "\n", 1);
        p->has_data = 1;
        break;
    case SSE_F_EVENT:
        buf_reset(&p->type);
        buf_append(&p->type, v, n);
        break;
    case SSE_F_ID:
        if (memchr(v, '\0', n) == NULL) {
            buf_reset(&p->last_id);
            buf_append(&p->last_id, v, n);
        }
        break;
    case SSE_F_RETRY:
        set_retry(p, v, n);
        break;
    default:
        break;
    }
}

/* --- events ----------------------------------------------------------------------------------- */

static void reset_event(struct sse_parser *p)
{
    buf_free(&p->data);
    buf_reset(&p->type);
    p->data_total = 0;
    p->has_data = p->over = 0;
    p->head_len = p->tail_pos = 0;
}

static void dispatch(struct sse_parser *p, const struct sse_parse_events *ev, void *ud)
{
    const char *type = p->type.len ? p->type.data : "message";
    if (!p->has_data) {
        reset_event(p);
        return;
    }
    if (p->over) {
        size_t tail = p->tail_pos, total = p->data_total - 1;
        if (tail && p->tail[tail - 1] == '\n')
            tail--;
        /* the head ends with that last "\n" too when it holds the whole event */
        size_t head = p->head_len < total ? p->head_len : total;
        if (ev->oversize)
            ev->oversize(ud, type, p->head, head, p->tail, tail, total);
    } else {
        struct sse_event e = {type, p->data.data, p->data.len - 1, sse_parser_last_id(p)};
        p->data.data[e.len] = '\0'; /* the last "\n" */
        ev->event(ud, &e);
    }
    reset_event(p);
}

static void end_line(struct sse_parser *p, const struct sse_parse_events *ev, void *ud)
{
    if (!p->in_value && p->name_len == 0) {
        dispatch(p, ev, ud);
        return;
    }
    if (!p->in_value)
        p->field = classify(p); /* a field without a colon: empty value */
    finish_field(p);
    buf_reset(&p->value);
    p->name_len = 0;
    p->in_value = p->skip_sp = 0;
    p->field = SSE_F_NONE;
}

/* Skips a UTF-8 byte order mark at the very start; returns the bytes used. */
static size_t skip_bom(struct sse_parser *p, const char *data, size_t len)
{
    static const char bom[] = "\xEF\xBB\xBF";
    size_t i = 0;
    while (p->started < 3 && i < len && data[i] == bom[p->started]) {
        p->started++;
        i++;
    }
    if (i < len || p->started == 3)
        p->started = 4; /* decided */
    return i;
}

void sse_parser_feed(struct sse_parser *p, const char *data, size_t len,
                     const struct sse_parse_events *ev, void *ud)
{
    size_t i = p->started < 4 ? skip_bom(p, data, len) : 0;
    while (i < len) {
        char c = data[i];
        if (p->cr && c == '\n') { /* the LF of a CRLF */
            p->cr = 0;
            i++;
            continue;
        }
        p->cr = 0;
        if (c == '\r' || c == '\n') {
            end_line(p, ev, ud);
            p->cr = c == '\r';
            i++;
        } else if (!p->in_value && c == ':') {
            p->field = classify(p);
            p->in_value = p->skip_sp = 1;
            i++;
        } else if (!p->in_value) {
            if (p->name_len < sizeof p->name)
                p->name[p->name_len] = c;
            p->name_len += p->name_len <= sizeof p->name;
            i++;
        } else {
            size_t j = i;
            while (j < len && data[j] != '\r' && data[j] != '\n')
                j++;
            const char *run = data + i;
            size_t n = j - i;
            if (p->skip_sp && n > 0) {
                p->skip_sp = 0;
                if (*run == ' ') {
                    run++;
                    n--;
                }
            }
            value_append(p, run, n);
            i = j;
        }
    }
}
