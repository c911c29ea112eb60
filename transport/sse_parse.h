/* An incremental parser of Server-Sent Events streams (text/event-stream,
 * the WHATWG event-stream interpretation): CR, LF and CRLF line ends split
 * anywhere across reads, a leading BOM, comments, multi-line data, event
 * types, ids and retry. Each event's data is capped; an event over the cap
 * is reported with its first and last bytes, never kept whole. */
#ifndef TRANSPORT_SSE_PARSE_H
#define TRANSPORT_SSE_PARSE_H

#include "common/buf.h"

#include <stddef.h>
#include <stdint.h>

#define SSE_PARSE_EXCERPT 4096 /* bytes of an oversized event kept at each end */
#define SSE_PARSE_MAX_ID  1024 /* longer ids are cut to this */

struct sse_event {
    const char *type; /* the event field, or "message" */
    const char *data; /* the data lines joined with "\n"; NUL-terminated, writable */
    size_t len;
    const char *id; /* the last event id so far ("" when none) */
};

struct sse_parse_events {
    /* One complete event (the data is valid during the call). Events with
     * no data line are not reported (the spec drops them); an event with
     * an empty data line ("data:") is, with len 0. */
    void (*event)(void *ud, const struct sse_event *e);
    /* An event whose data was over the cap: its type, its first and last
     * bytes (each at most SSE_PARSE_EXCERPT) and its total length. May be
     * NULL: the event is then dropped silently. */
    void (*oversize)(void *ud, const char *type, const char *head, size_t head_len,
                     const char *tail, size_t tail_len, size_t total);
};

enum sse_parse_field { SSE_F_NONE, SSE_F_DATA, SSE_F_EVENT, SSE_F_ID, SSE_F_RETRY, SSE_F_IGNORE };

struct sse_parser {
    size_t max;            /* cap on one event's data */
    int started, cr;       /* BOM checked; the last byte was CR */
    int in_value, skip_sp; /* after the colon; the next space is the separator */
    char name[8];          /* field name so far */
    size_t name_len;       /* > sizeof name: not a field we know */
    enum sse_parse_field field;
    struct buf value;   /* value of an event/id/retry field */
    struct buf data;    /* data of the event so far */
    size_t data_total;  /* every data byte of the event, "\n" separators included */
    int has_data, over; /* a data line came; the data went over the cap */
    char head[SSE_PARSE_EXCERPT];
    size_t head_len;
    char tail[SSE_PARSE_EXCERPT]; /* the last bytes, oldest first */
    size_t tail_pos;              /* bytes in tail */
    struct buf type, last_id;
    int64_t retry_ms; /* the last valid retry field, or -1 */
};

/* Initialises a parser whose events carry at most max bytes of data (0: no cap). */
void sse_parser_init(struct sse_parser *p, size_t max);
void sse_parser_free(struct sse_parser *p);

/* Feeds bytes; reports complete events in order. The callbacks must not
 * free the parser (defer that until this returns). An incomplete event at
 * the end of the stream is never reported (the spec discards it). */
void sse_parser_feed(struct sse_parser *p, const char *data, size_t len,
                     const struct sse_parse_events *ev, void *ud);

/* The last event id seen (the id of the last dispatched event), "" when none. */
const char *sse_parser_last_id(const struct sse_parser *p);

/* The reconnection time the server asked for with "retry:", or -1. */
int64_t sse_parser_retry(const struct sse_parser *p);

#endif
