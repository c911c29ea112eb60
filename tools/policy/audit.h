/* The audit log: one JSON object per line, appended and written with one
 * write(2) per line (no user-space buffering), for execution starts and
 * ends and every tool call attempt. Secrets never reach it: callers pass
 * names, digests and outcomes, and arguments only as the config allows
 * (full, SHA-256 and size, or nothing). Reopened on request (SIGHUP, for
 * logrotate). A write error is reported once on stderr; executions go on. */
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

/* Adds the arguments of a tool call to `event` as the log's mode says:
 * "arguments" (full), or "argumentsSha256" and "argumentsBytes" (hash), or
 * nothing (none). args may be NULL (the program passed none). */
void tools_audit_add_arguments(const struct tools_audit *a, cJSON *event, const cJSON *args);

/* A fresh execution id: 16 random bytes as 32 hex digits into id[33]. */
void tools_audit_new_id(char id[33]);

#endif
