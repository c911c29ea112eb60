/* MCP over stdio: newline-delimited messages read from stdin and written to
 * stdout through libuv. stdin may be a pipe, a terminal or a regular file;
 * stdout a pipe, a terminal or a file. Nothing but protocol messages is ever
 * written to stdout. */
#ifndef TRANSPORT_STDIO_H
#define TRANSPORT_STDIO_H

#include <stddef.h>
#include <uv.h>

struct transport_stdio;

struct transport_stdio_events {
    void (*line)(void *ud, char *line, size_t len);
    void (*oversize)(void *ud, const char *prefix, size_t prefix_len, size_t total);
    void (*eof)(void *ud); /* stdin closed (or failed); no line follows */
};

/* Starts reading stdin. max_line caps one message. Returns NULL with *err
 * (malloc'd) when stdin or stdout cannot be used. */
struct transport_stdio *transport_stdio_start(uv_loop_t *loop, size_t max_line,
                                              const struct transport_stdio_events *ev, void *ud,
                                              char **err);

/* Queues one or more complete lines (copied). Each call is one write(2) to
 * stdout, never merged with another call's bytes. Returns 0 or a negative
 * libuv error (stdout gone). */
int transport_stdio_write(struct transport_stdio *t, const char *data, size_t len);

/* Calls cb once every queued write has reached stdout (or failed). */
void transport_stdio_flush(struct transport_stdio *t, void (*cb)(void *ud), void *ud);

/* Stops reading, closes the handles; frees t once they are closed. */
void transport_stdio_close(struct transport_stdio *t);

#endif
