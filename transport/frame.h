/* Newline-delimited message framing for byte streams (stdio, child pipes,
 * worker sockets): partial reads, many messages per read, CRLF, empty lines,
 * and a size cap. A line over the cap is skipped up to its newline; its first
 * bytes are kept so the caller can still recover a JSON-RPC id from them. */
#ifndef TRANSPORT_FRAME_H
#define TRANSPORT_FRAME_H

#include "common/buf.h"

#include <stddef.h>

#define FRAME_OVERSIZE_PREFIX 4096

struct frame_reader {
    struct buf line;          /* the partial line so far */
    size_t max;               /* cap on one line, newline excluded */
    int skipping;             /* inside an oversized line */
    size_t skipped;           /* bytes of the oversized line so far */
    char prefix[FRAME_OVERSIZE_PREFIX];
    size_t prefix_len;
};

struct frame_events {
    /* One complete line, without "\n" or a trailing "\r"; NUL-terminated;
     * writable; valid during the call. Empty lines are not reported. */
    void (*line)(void *ud, char *line, size_t len);
    /* A line longer than the cap: its first bytes and its total length
     * (known once its newline arrived). */
    void (*oversize)(void *ud, const char *prefix, size_t prefix_len, size_t total);
};

void frame_reader_init(struct frame_reader *r, size_t max);
void frame_reader_free(struct frame_reader *r);

/* Feeds bytes; reports each complete line in order. The callbacks must not
 * free the reader. */
void frame_reader_feed(struct frame_reader *r, const char *data, size_t len,
                       const struct frame_events *ev, void *ud);

/* Bytes of an unterminated last line (at EOF the caller may treat them as a line). */
size_t frame_reader_pending(const struct frame_reader *r);

#endif
