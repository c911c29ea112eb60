/* Server-Sent Events framing (the WHATWG event-stream format): events with
 * an optional type, one `data:` line per line of the payload, comments for
 * keep-alive. Pure formatting into a buffer; the HTTP server sends it. */
#ifndef TRANSPORT_SSE_H
#define TRANSPORT_SSE_H

#include <stddef.h>

struct buf;

/* Appends one event: "event: TYPE\n" when type is non-NULL, then one
 * "data: " line per line of data (split on LF, CRLF or CR; a trailing line
 * break adds no empty line), then the blank line that ends the event. Empty
 * data gives a single "data: " line. type must not contain line breaks. */
void sse_append_event(struct buf *out, const char *type, const char *data, size_t len);

/* Appends one event per line of `lines` (one or more lines, each a complete
 * message such as a JSON-RPC message, separated by LF; empty lines are
 * skipped), each with the given type. Returns the number of events. */
int sse_append_lines(struct buf *out, const char *type, const char *lines, size_t len);

/* Appends a comment (": text\n\n", or ":\n\n" for NULL), which clients
 * ignore: used as a keep-alive on quiet streams. */
void sse_append_comment(struct buf *out, const char *text);

#endif
