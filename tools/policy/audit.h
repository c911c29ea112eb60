/* The audit log: one JSON object per line, appended and written with one
 * write(2) per line (no user-space buffering), for execution starts and
 * ends, every tool call attempt, and every call about to leave the host.
 * Secrets never reach it: callers pass names, digests and outcomes, and
 * arguments only as the config allows (full up to a per-line cap, SHA-256
 * and size, or nothing). Reopened on request (SIGHUP, for logrotate). A
 * write error is reported once on stderr; executions go on. */
#ifndef TOOLS_POLICY_AUDIT_H
#define TOOLS_POLICY_AUDIT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

struct tools_audit;

enum tools_audit_arguments {
    TOOLS_AUDIT_ARGS_HASH = 0,
    TOOLS_AUDIT_ARGS_FULL,
    TOOLS_AUDIT_ARGS_NONE
};

/* "full", "hash", "none" -> 0, or -1. */
int tools_audit_arguments_parse(const char *s, enum tools_audit_arguments *out);

/* Opens (creates, mode 0600, append) `path`. Returns the log, or NULL with
 * *err set to a malloc'd message. */
struct tools_audit *tools_audit_open(const char *path, enum tools_audit_arguments args, char **err);

/* Closes and opens the path again (after logrotate moved the file). A
 * failure is reported like a write error and the old descriptor is kept. */
void tools_audit_reopen(struct tools_audit *a);

void tools_audit_close(struct tools_audit *a);

/* Appends one event: `event` (consumed) gets "time" (RFC 3339, UTC,
 * milliseconds) and "event" put first. a may be NULL (no log: event freed). */
void tools_audit_write(struct tools_audit *a, const char *event_name, cJSON *event);

/* Bytes of arguments (their compact JSON) one line holds in mode full; past
 * it the line has their digest and their first bytes instead. Also the most
 * bytes of a tool name a line holds. */
#define TOOLS_AUDIT_ARGUMENTS_MAX 4096

/* Adds the arguments of a tool call to `event` as the log's mode says:
 * "arguments" (full, when their compact JSON is at most
 * TOOLS_AUDIT_ARGUMENTS_MAX bytes), or "argumentsSha256" and
 * "argumentsBytes" (hash; also full past the cap, with
 * "argumentsTruncated": true and "argumentsHead", the first bytes of the
 * JSON text cut at a character boundary), or nothing (none). args may be
 * NULL (the program passed none). */
void tools_audit_add_arguments(const struct tools_audit *a, cJSON *event, const cJSON *args);

/* Adds "tool": name, cut to TOOLS_AUDIT_ARGUMENTS_MAX bytes (at a character
 * boundary) with "toolBytes" giving its length when longer (a name from a
 * program that matched no tool can be any size). */
void tools_audit_add_tool(cJSON *event, const char *name);

/* Ends a tool_call event (consumed; NULL is fine): adds "outcome",
 * "durationMs" since t0 (uv_hrtime) and "resultBytes" (when not 0), and
 * writes it. */
void tools_audit_call_end(struct tools_audit *a, cJSON *event, const char *outcome, uint64_t t0,
                          size_t result_bytes);

/* A fresh execution id: 16 random bytes as 32 hex digits into id[33]. */
void tools_audit_new_id(char id[33]);

/* A fresh call id: 8 random bytes as 16 hex digits into id[17]. It pairs a
 * call's "tool_call_sent" line with its "tool_call" line. */
void tools_audit_new_call_id(char id[17]);

#endif
