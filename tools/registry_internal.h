/* Internals of the tools registry (registry.c: servers, catalog, sending
 * behind the per-server limits) that the gate (tools/gate/) uses to send a
 * call. Not for use outside tools/. */
#ifndef TOOLS_REGISTRY_INTERNAL_H
#define TOOLS_REGISTRY_INTERNAL_H

#include "tools/gate/internal.h"
#include "tools/registry.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <uv.h>

struct waiter;
struct tools_catalog;
struct tools_downstream;
struct tools_limiter;

struct slot {
    struct tools_registry *r;
    const struct tools_server_config *cfg;
    struct tools_downstream *d; /* NULL when not started */
    const char *not_started;    /* why d is NULL */
    struct tools_limiter *lim;  /* maxConcurrentCalls / callsPerSecond, or NULL */
    struct tools__login *login; /* a login calls wait for (login_wait.c), or NULL */
    int login_only; /* its tools are not known until a login a call can start (registry.c) */
};

struct tools_registry {
    uv_loop_t *loop;
    struct tools_registry_options o;
    struct slot *slots;
    size_t nslots;
    struct tools_catalog *catalog;
    char *decls, *worker_json; /* texts of the current catalog, for clients and workers */
    char *callable_json;       /* the worker catalog without problems, to detect changes */
    struct waiter *waiters;
    struct tools_call *calls;
    struct next_turn *later; /* answers the gate had at once (tools__answer_later) */
    struct tools_result_types *types; /* learned result types, or NULL (off) */
    char *oauth_redirect_uri;         /* logins' public redirect URI, or NULL: loopback */
    uint64_t login_wait_ms;           /* the longest a call waits for a login (0: 10 minutes) */
    int freeing;
};

/* The registry's list of calls in progress. */
void tools__call_link(struct tools_call *c);
void tools__call_unlink(struct tools_call *c);

/* Frees c: its catalog reference, its limiter slot or place in the queue. */
void tools__call_free(struct tools_call *c);

/* Sends c downstream, or queues it behind the server's limits; c is linked
 * (in flight or queued). Its answer comes later, never inside this call. */
void tools__call_send(struct tools_call *c, const cJSON *args);

/* The connection of slot i (NULL: not started, or no such slot). */
struct tools_downstream *tools__registry_server(const struct tools_registry *r, size_t i);

/* The registry's queue of the gate's own answers (tools__answer_later). */
struct next_turn *tools__later(struct tools_registry *r);

/* registry.c: sends c (a tool call that waited for a login) to its server
 * again, with the arguments it kept; its answer comes as the first one's
 * would have. */
void tools__call_resend(struct tools_call *c);
/* registry.c: answers c with ToolAuthError and message, and frees it. */
void tools__call_auth_failed(struct tools_call *c, const char *message);

/* login_wait.c: c's server needs a login (its call was answered so):
 * returns 1 when c waits for one (the server's login, started or joined;
 * its answer comes after the login), 0 when it cannot (nobody can be sent
 * to a URL, c waited for a login already, one did not complete in this
 * run): answer it as before. A connected server's (a step-up) as well. */
int tools__login_join(struct tools_call *c);
/* login_wait.c: the same for a call of server slot i that has no tool yet
 * (login_first.c). */
int tools__login_join_server(struct tools_call *c, size_t i);
/* login_first.c: the login c (a call of a server whose tools were not
 * known) waited for is over: ok, c waits for the server's tool list; else
 * it fails with ToolAuthError and message. */
void tools__login_first_done(struct tools_call *c, int ok, const char *message);
/* login_first.c: the server of slot i changed state: the calls that waited
 * for its login and its tool list go through the gate once it is ready
 * (or no longer connecting). */
void tools__login_first_listed(struct tools_registry *r, size_t i);
/* c stops waiting (cancelled). */
void tools__login_leave(struct tools_call *c);
/* Ends every login (the registry is freed): their calls fail. */
void tools__login_free_all(struct tools_registry *r);

#endif
