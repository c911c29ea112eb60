/* Tool policy: what happens when a program calls a downstream tool. Rules
 * map name patterns to allow / ask / deny; the most specific matching rule
 * wins; without one, the tool's annotations decide (readOnlyHint: allow,
 * destructiveHint: ask), else the configured default. Also the grant
 * patterns of one execution (execute_code's `allow`) and the interface
 * through which tools/ asks a person (the server gives it an approver).
 * Pure functions; docs/policy.md is the user's view. */
#ifndef TOOLS_POLICY_H
#define TOOLS_POLICY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

struct tools_server_config;

enum tools_policy_decision {
    TOOLS_POLICY_UNSET = 0, /* no rule (only inside this module and config parsing) */
    TOOLS_POLICY_ALLOW,
    TOOLS_POLICY_ASK,
    TOOLS_POLICY_DENY
};

struct tools_policy_rule {
    char *pattern; /* global rules: "server.toolglob" or "*"; per-server: "toolglob" */
    enum tools_policy_decision decision;
    char *scope;   /* the OAuth scope the caller's token needs, or NULL: without it the
                    * rule's decision is deny (docs/http-oauth.md) */
};

/* codemode.policy. tools_policy_init gives the defaults. */
struct tools_policy {
    enum tools_policy_decision default_decision; /* no rule, no annotation: ALLOW */
    enum tools_policy_decision no_approver;      /* ask without an approver: DENY or ALLOW */
    uint64_t approval_timeout_ms;                /* 600000 */
    struct tools_policy_rule *rules;             /* owned */
    size_t nrules;
};

void tools_policy_init(struct tools_policy *p);
/* Frees the rules (and those of per-server lists with tools_policy_rules_free). */
void tools_policy_free(struct tools_policy *p);
void tools_policy_rules_free(struct tools_policy_rule *rules, size_t n);

/* "allow", "ask", "deny" (lowercase, exact); the name of a decision. */
int tools_policy_decision_parse(const char *s, enum tools_policy_decision *out);
const char *tools_policy_decision_name(enum tools_policy_decision d);

/* Why `pattern` is malformed (a static message), or NULL when it is fine.
 * Global form (server_scoped 0): "*", or SERVER.TOOL where SERVER is a
 * name or "*" and TOOL a glob ('*' matches any run of characters, every
 * other character itself). Per-server form (server_scoped 1): TOOL alone. */
const char *tools_policy_pattern_problem(const char *pattern, int server_scoped);

/* A tool's names: original and sanitised, of the server and of the tool. */
struct tools_policy_names {
    const char *server, *server_id, *tool, *tool_id;
};

/* 1 when the global-form pattern matches (either spelling of each name). */
int tools_policy_pattern_matches(const char *pattern, const struct tools_policy_names *n);

/* 1 when `glob` (the TOOL part) matches s. */
int tools_policy_glob(const char *glob, const char *s);

/* The decision for one tool: rules of p and of its server entry (srv, may be
 * NULL; its per-server rules count as "<server>.<glob>"), then annotations
 * (`tool` is the Tool object, may be NULL), then p's default. p may be NULL
 * (the defaults). *source, when source is not NULL, gets a malloc'd
 * explanation: `rule "crm.*"`, `annotation readOnlyHint`, `codemode.policy.default`. */
enum tools_policy_decision tools_policy_decide(const struct tools_policy *p,
                                               const struct tools_server_config *srv,
                                               const struct tools_policy_names *n,
                                               const cJSON *tool, char **source);

/* The scope the rule that decides for n requires (tools_policy_decide's
 * winning rule), or NULL when it needs none or no rule decides. Borrowed
 * from p or srv. */
const char *tools_policy_scope(const struct tools_policy *p, const struct tools_server_config *srv,
                               const struct tools_policy_names *n);

/* 1 when the NULL-terminated scopes (may be NULL: none) hold scope. */
int tools_policy_has_scope(char *const *scopes, const char *scope);

/* tools_policy_decide for a caller holding `scopes` (NULL: none): deny when
 * the deciding rule requires a scope the caller lacks (*source then says
 * which). */
enum tools_policy_decision tools_policy_decide_scoped(const struct tools_policy *p,
                                                      const struct tools_server_config *srv,
                                                      const struct tools_policy_names *n,
                                                      const cJSON *tool, char *const *scopes,
                                                      char **source);

/* The decision of the rules alone for n (codemode.policy's and srv's,
 * tools_policy_decide's first step), as tools_policy_decide_scoped would give
 * it for a caller holding `scopes`; TOOLS_POLICY_UNSET when no rule matches.
 * What no annotation of the tool can change: a call of a server whose tools
 * are not known yet is judged by it. *source as tools_policy_decide's (set
 * only when a rule matches). */
enum tools_policy_decision tools_policy_rules_decide(const struct tools_policy *p,
                                                     const struct tools_server_config *srv,
                                                     const struct tools_policy_names *n,
                                                     char *const *scopes, char **source);

/* How a person lets the tool named n be called without approval (for a
 * tool whose decision is ask, in a client that cannot approve): a malloc'd
 * phrase naming the exact rule, the one tools_policy_decide would then
 * follow: `add "files.write_file": "allow" to codemode.policy.rules`
 * (the per-server form, `add "write_file": "allow" to
 * mcpServers["a.b"].policy`, when the server's name has a dot), or, when a
 * rule just as specific asks, `change rule "files.write_file" to "allow"`.
 * Names are the original ones, quoted as JSON strings. */
char *tools_policy_allow_advice(const struct tools_policy *p, const struct tools_server_config *srv,
                                const struct tools_policy_names *n, const cJSON *tool);

/* 1 when the Tool object's annotations say readOnlyHint: true. */
int tools_policy_read_only(const cJSON *tool);

/* 1 when one of the NULL-terminated grant patterns matches (global form). */
int tools_policy_granted(char *const *grant, const struct tools_policy_names *n);

/* --- asking a person ------------------------------------------------------- */

enum tools_approval_answer {
    TOOLS_APPROVAL_ONCE,       /* approve this call */
    TOOLS_APPROVAL_EXECUTION,  /* this tool for the rest of the execution */
    TOOLS_APPROVAL_SESSION,    /* this tool for the session (the approver remembers) */
    TOOLS_APPROVAL_DENY,       /* the person said no */
    TOOLS_APPROVAL_DECLINED,   /* the client declined the request, or answered badly */
    TOOLS_APPROVAL_CANCELLED,  /* the client cancelled the request */
    TOOLS_APPROVAL_TIMEOUT,    /* no answer within approvalTimeoutMs */
    TOOLS_APPROVAL_UNAVAILABLE /* nobody can be asked (noApprover decides) */
};

struct tools_approval_request {
    const char *server, *tool; /* original names */
    const cJSON *arguments;    /* validated */
    const char *execution_id;
    uint64_t timeout_ms; /* approvalTimeoutMs */
};

typedef void tools_approval_done(void *ud, enum tools_approval_answer answer, const char *detail);

/* What mcp-server gives tools/ to ask a person (elicitation, an
 * input_required result, a terminal prompt). ask() returns a handle and
 * calls done exactly once, never before it returns (an answer it has at
 * once comes on the loop's next turn), unless cancel() is called with the
 * handle first. `detail` (may be NULL) is why, for the error message. */
struct tools_approver {
    void *(*ask)(void *self, const struct tools_approval_request *q, tools_approval_done *done,
                 void *done_ud);
    void (*cancel)(void *self, void *handle);
    void *self;
};

/* What mcp-server gives tools/ to send a person to a remote server's login
 * page (URL-mode elicitation, docs/oauth.md) while a call waits for it. */
struct tools_login_asker {
    /* The call waits for a login to `server`: the execution's clock stops
     * until login_end. Returns a handle, or NULL when the client cannot
     * open a URL for the person (no URL mode) or too many wait already (the
     * call then fails as it would without a login). */
    void *(*wait)(void *self, const char *server);
    /* Asks the person of the waiting call `handle` to open url (the
     * authorization URL of server): answer(ud, 1, NULL) when the client
     * accepted (the redirect completes the login), answer(ud, 0, why) when it
     * declined, cancelled or failed. From the loop, never inside this call,
     * at most once, and never after end. */
    void (*ask)(void *self, void *handle, const char *server, const char *url,
                void (*answer)(void *ud, int accepted, const char *why), void *ud);
    /* The wait is over: the clock runs again. completed 1: the login
     * succeeded (an accepted elicitation is told it is complete); 0: an
     * elicitation still unanswered is cancelled. Frees the handle. */
    void (*end)(void *self, void *handle, int completed);
    void *self;
    /* Optional (NULL: the wait just ends): the call of `handle` stops
     * waiting (its program ended) after its person accepted to open the
     * URL, and the login goes on. The clock runs again and `self` is no
     * longer used; the handle stays valid until end(NULL, handle,
     * completed) when the login is over, so that the client can still be
     * told it is complete. */
    void (*detach)(void *self, void *handle);
};

#endif
