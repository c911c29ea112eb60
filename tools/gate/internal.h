/* Internals of the gate (tools/gate/): a call in progress, an execution,
 * and the answers the gate gives itself (replies, refusals, argument
 * errors). Shared with the registry, which sends the calls the gate lets
 * through. Not for use outside tools/. */
#ifndef TOOLS_GATE_INTERNAL_H
#define TOOLS_GATE_INTERNAL_H

#include "tools/gate/gate.h"
#include "tools/policy/policy.h"
#include "common/next_turn.h"

#include <cjson/cJSON.h>
#include <stdint.h>

struct buf;
struct tools_catalog;
struct tools_catalog_tool;
struct tools_downstream_call;
struct tools_limiter_wait;
struct tools__res;

struct tools_call {
    struct tools_registry *r;
    struct tools_exec *x;      /* NULL: no execution context */
    struct tools_catalog *cat; /* retained */
    const struct tools_catalog_tool *tool;
    struct tools_downstream_call *dc;
    tools_reply_cb *cb;
    void *ud;
    char *args_json; /* while waiting for a person or a slot: the arguments as JSON text
                        (about their size; a tree would cost tens of times more) */
    cJSON *builtin;  /* a built-in asking a person: {op, name, tool} */
    void *approval;                  /* the approver's handle, while asking */
    cJSON *audit;                    /* the tool_call event being built, or NULL */
    uint64_t t0;                     /* uv_hrtime at the start, for the audit log */
    struct tools_limiter_wait *wait; /* queued behind the server's limits */
    int holds;                       /* has a slot of the server's limiter */
    const cJSON *go_args;            /* inside tools_limiter_acquire: the caller's arguments */
    struct next_turn_item later;     /* an answer the gate had at once, until delivered */
    int later_ok;
    char *later_json;
    size_t later_len;
    struct tools__res *res;         /* a resources.* / prompts.* call (resources.c), or NULL */
    struct tools_state_job *job;    /* a state.* / skills.* operation running (builtins.c) */
    struct tools__login *login;     /* the login it waits for (login_wait.c), or NULL */
    void *login_handle;             /* the login asker's handle while it waits */
    struct tools_call *login_next;  /* the other calls waiting for the same login */
    int login_tried;                /* it waited for a login already: no second one */
    char *first_name;               /* a call of a server not listed until a login
                                       (login_first.c): the name it was made with */
    size_t first_server;            /* and that server's slot */
    int first_listing;              /* its login is done: it waits for the tool list */
    struct tools_call *prev, *next; /* in the registry's list while in flight or waiting */
};

/* A resource a tool of this execution returned (resource_link or embedded
 * resource), or resources.list listed: its uri and the server it came
 * from, so resources.read(uri) asks that server. */
struct tools__link {
    char *uri;
    size_t server;  /* the slot's index */
    int ambiguous;  /* returned by two servers: resources.read needs {server} */
};

struct tools_exec {
    struct tools_registry *r;
    char **grant; /* NULL-terminated, or NULL */
    int dry_run;
    char *execution_id;
    const struct tools_approver *approver;
    const struct tools_login_asker *login;
    size_t *login_failed; /* servers (slot indexes) whose login did not complete in this
                             run: not asked again */
    size_t nlogin_failed;
    cJSON *planned;  /* [{"tool","arguments"}] */
    char **approved; /* "server\ntool" approved for the rest of this execution */
    size_t napproved;
    char *principal; /* whose state, or NULL */
    char **scopes;   /* the caller's OAuth scopes (NULL-terminated), or NULL: none */
    int (*stash)(void *ud, const cJSON *value, struct buf *out);
    void *stash_ud;
    struct tools__link *links; /* resources seen in tool results (resources.c) */
    size_t nlinks;
};

/* reply.c: the gate's own answers, which it has at once (a refusal, an
 * error, a dry run's placeholder, a built-in's value): tools__answer_later
 * is a tools_reply_cb whose ud is the call; it keeps the answer and gives
 * it to the caller on the loop's next turn, then frees the call. Every
 * other answer (a downstream's, or one after a person answered) reaches the
 * caller at once. */
void tools__answer_later(void *call, int ok, const char *json, size_t len);

/* reply.c: the JSON text in b (or null) as the answer; an error
 * {"name","message","tool"}; a refusal {"name","message","tool",key:value}
 * (ToolPolicyError, ToolApprovalError). */
void tools__reply_text(tools_reply_cb *cb, void *ud, int ok, struct buf *b);
void tools__reply_error(tools_reply_cb *cb, void *ud, const char *name, const char *msg,
                        const char *tool);
void tools__reply_refusal(tools_reply_cb *cb, void *ud, const char *name, const char *msg,
                          const char *tool, const char *key, const char *value);

/* reply.c: the arguments a waiting call keeps (args_json), back as a tree
 * (the caller deletes it; NULL when there were none). */
cJSON *tools__call_args(const struct tools_call *c);

/* reply.c: checks args against the tool's inputSchema: 0, or -1 after
 * replying the ToolArgumentError. */
/* 1 when codemode.policy.noApprover is "allow": a call that needs approval
 * goes ahead when nobody can be asked. */
int tools__no_approver_allows(const struct tools_registry *r);
/* 1 when an approver's answer lets the call go: approved (once, for the
 * execution or the session), or nobody could be asked and noApprover allows. */
int tools__approval_lets_through(const struct tools_registry *r, enum tools_approval_answer a);

int tools__validate(const struct tools_catalog_tool *t, const cJSON *args, tools_reply_cb *cb,
                    void *ud);

/* gate.c: a tool call through the gate (c made by tools_exec_call or
 * tools_registry_call, or one that waited for a login): refused (answered
 * later), waiting for a person or a login, or sent. */
void tools__gate_tool(struct tools_call *c, const char *name, const cJSON *args);

/* login_first.c: when `name` is a tool of a server whose tools are not
 * known until a login (catalog: login_only), c waits for that login
 * (returns 1: linked; once the login is done and the server listed its
 * tools, it goes through tools__gate_tool again); returns -1 when it cannot
 * wait (nobody can be sent to the login page, a dry run, or it waited once): answer
 * ToolAuthError; 0 when the server is not such a server. */
int tools__login_first(struct tools_call *c, const char *name, const cJSON *args);

/* gate.c: ToolApprovalError's reason for an answer that refuses. */
const char *tools__approval_reason(enum tools_approval_answer a);

/* builtins.c: the host calls of op "state", "skills", "skill" and "stash"
 * of the call c (its handle, as tools_exec_call made it). */
void tools__builtin_call(struct tools_call *c, const char *op, const char *name,
                         const cJSON *args);

/* resources.c: the host calls of op "resources" (list, templates, read) and
 * "prompts" (list, get) of the call c: the gate, then the downstream
 * request. */
void tools__resource_call(struct tools_call *c, const char *op, const char *name,
                          const cJSON *args);

/* resources.c: notes the resource_link and embedded resource uris of a
 * tools/call result (borrowed) that the server of slot `server` returned. */
void tools__exec_note_links(struct tools_exec *x, size_t server, const cJSON *result);
void tools__exec_free_links(struct tools_exec *x);

/* resources.c: sends c's request (registry.c calls it when c's server's
 * limiter lets c go), and frees c->res. */
void tools__res_send(struct tools_call *c);
void tools__res_free(struct tools__res *res);
/* resources.c: the server slot of c->res. */
size_t tools__res_server(const struct tools__res *res);

#endif
