/* One execution on the host side: leases a worker, sends it the program,
 * turns what it says into events (host calls, console lines) and an outcome,
 * and enforces the hard deadline with a kill. A crash, a kill or garbage from
 * the worker all end as an error outcome, never as a host failure. */
#ifndef SANDBOX_EXECUTION_H
#define SANDBOX_EXECUTION_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

struct sandbox_pool;
struct sandbox_exec;

struct sandbox_exec_request {
    const char *code;
    size_t code_len;
    const char *catalog_json;   /* {jsServer: {name, tools: {jsTool: tool}}}; NULL = none */
    uint64_t timeout_ms;        /* soft deadline inside the worker */
    uint64_t grace_ms;          /* hard kill at timeout + grace (default 500) */
    uint64_t memory_bytes;
    uint64_t max_result_bytes;
    uint64_t max_whole_bytes;   /* a result over max_result_bytes comes whole up to this (0: never) */
    uint64_t max_log_bytes;
    uint64_t max_call_argument_bytes; /* a host call's arguments, as JSON (0: the default) */
    unsigned max_calls;         /* tool calls allowed (0: none) */
    unsigned max_concurrent;
    uint64_t principal;         /* who runs it (sandbox_pool_lease_for); 0 = a fresh worker */
    const char *builtins_json;  /* {"state":bool,"skills":[names]}; NULL = neither */
};

/* A host call's arguments, as JSON, when the request says 0 (4 MiB). */
#define SANDBOX_MAX_CALL_ARGUMENT_BYTES (4u << 20)

/* What the host accepts from a worker, before it parses a byte of it (the
 * kind is read from the line's head, sandbox/host/worker_msg.h; a line over its
 * kind's limit ends the execution with a SandboxError and the worker is
 * killed, as soon as the limit is passed, before the line has arrived):
 *   call:    max_call_argument_bytes of arguments, + 64 KiB for the rest;
 *   log:     6 x max_log_bytes + 1 KiB (a line of the whole console
 *            budget, every byte escaped as \u00XX);
 *   dropped: 64 bytes;
 *   done:    2 x max_result_bytes + 2 x max_whole_bytes + 64 KiB (the
 *            preview, the whole result, escapes of lone surrogates; an error
 *            description's text is cut at max_result_bytes by the worker).
 * A result's value and whole text are kept as the JSON text the worker
 * sent (checked, never parsed into a tree, unless the value may be content
 * blocks and parses small), so a result costs the host about its size.
 * Returns the largest of these for rq (for sandbox_pool_config.max_line_bytes). */
uint64_t sandbox_exec_max_line_bytes(const struct sandbox_exec_request *rq);

struct sandbox_log_line {
    char level[8]; /* log, info, warn, error, debug */
    char *text;
};

struct sandbox_exec_result {
    const cJSON *outcome;          /* {"ok":true,"value":V?,"truncated":{...}?,"whole":V?} | {"ok":false,"error":{...}};
                                      value and whole may be cJSON_Raw: checked JSON text */
    const cJSON *stats;            /* from the worker, or NULL when it died */
    const struct sandbox_log_line *logs;
    size_t nlogs;
    unsigned logs_dropped;         /* lines over the log cap */
    int logs_dropped_at_least;     /* logs_dropped is a lower bound (the worker died) */
    uint64_t duration_ms;
    unsigned tool_calls;
    int worker_pid;                /* the process that ran it (0: none) */
    unsigned worker_run;           /* which of that process's runs it was, from 1 */
};

struct sandbox_exec_events {
    /* A host call: op is "tool", "search", "describe", "stash", or a built-in
     * namespace's "state", "skills", "skill", "resources", "prompts"; args borrowed for
     * the call. Answer with sandbox_exec_reply, now or later. */
    void (*call)(void *ud, struct sandbox_exec *x, long id, const char *op, const char *name,
                 const cJSON *args);
    /* A console line, as it happens (for progress and log notifications). */
    void (*log)(void *ud, struct sandbox_exec *x, const char *level, const char *text);
    /* The end. x is freed when this returns; no event follows. */
    void (*done)(void *ud, struct sandbox_exec *x, const struct sandbox_exec_result *r);
};

/* Starts an execution (copies the request's strings). Events arrive on the
 * loop, never inside this call. */
struct sandbox_exec *sandbox_exec_start(struct sandbox_pool *pool,
                                        const struct sandbox_exec_request *rq,
                                        const struct sandbox_exec_events *ev, void *ud);

/* Answers host call `id`: ok with the JSON text of the value, or failed with
 * the JSON text of {"name","message",...}. Unknown or answered ids are ignored. */
void sandbox_exec_reply(struct sandbox_exec *x, long id, int ok, const char *json, size_t len);

/* Pauses and resumes the execution's deadlines while a person decides on
 * an approval (counted: the last resume of as many pauses ends it). The
 * host's hard deadline stops; the worker is told, and credits the program
 * with the time it sat idle meanwhile, so a program that computes while it
 * waits still spends its own timeoutMs. No-ops once the execution ended. */
void sandbox_exec_pause(struct sandbox_exec *x);
void sandbox_exec_resume(struct sandbox_exec *x);

/* Stops the execution now: the worker is killed and x is freed; `done` is
 * not called. */
void sandbox_exec_cancel(struct sandbox_exec *x);

#endif
