/* An ordered queue of JSON lines whose big ones are parsed on libuv's thread
 * pool, so that a message of megabytes never holds the loop while it is
 * turned into a tree (docs/architecture.md, "The loop"). Small lines are
 * parsed in place; once a big line is being parsed, every line after it
 * waits (copied) behind it, so the owner hears its lines in the order they
 * came, each with its text and its tree. An owner keeps one queue per
 * stream of lines (a worker, a downstream connection) and frees it with the
 * stream; a parse still running then finishes on its thread and is dropped. */
#ifndef COMMON_JSON_LINES_H
#define COMMON_JSON_LINES_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <uv.h>

/* Lines from this many bytes on are parsed off the loop. */
#define JSON_LINES_OFF_LOOP_BYTES ((size_t) 256 * 1024)

/* One line, in order: its text (valid until the callback returns) and its
 * tree (NULL when it is not JSON, or when it was pushed with parse 0), which
 * the callback owns. `tag` is the caller's, as pushed. The callback may free
 * the queue. */
typedef void json_lines_cb(void *ud, char *text, size_t len, cJSON *tree, int tag);

struct json_lines;

/* A queue on loop; lines from `off_loop_bytes` on (0: JSON_LINES_OFF_LOOP_BYTES)
 * are parsed on the thread pool. */
struct json_lines *json_lines_new(uv_loop_t *loop, size_t off_loop_bytes, json_lines_cb *cb,
                                  void *ud);

/* Gives a line: the callback hears it now when nothing waits and it is
 * small (or not to be parsed), else after the lines before it. The text is
 * copied when it has to wait. */
void json_lines_push(struct json_lines *q, const char *text, size_t len, int parse, int tag);

/* Lines waiting behind a parse (0: the queue is idle). */
size_t json_lines_waiting(const struct json_lines *q);

/* Drops what waits and frees the queue (at once, or after a running parse,
 * or once the callback that called it returns); no callback after this. */
void json_lines_free(struct json_lines *q);

/* Frees a big tree (NULL: none) on the thread pool, then gives the heap's
 * free pages back to the system (malloc_trim): neither holds the loop. */
void json_release_off_loop(uv_loop_t *loop, cJSON *tree);

#endif
