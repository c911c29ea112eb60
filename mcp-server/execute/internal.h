/* Internals shared by the files of execute_code (mcp-server/execute/):
 * execute.c (the execution), authority.c (allow, dryRun, maxToolCalls and
 * the audit lines), approval.c (asking a person), park.c (2026-07-28
 * input_required), content.c and stash_link.c. */
#ifndef MCP_SERVER_EXECUTE_INTERNAL_H
#define MCP_SERVER_EXECUTE_INTERNAL_H

#include "mcp-server/server_internal.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* execute.c: the request the execution answers now; the SHA-256 of its
 * code (2026-07-28 requests only); moving it to another request r (its
 * approvals follow: they are keyed to the execution). */
struct mcp_request *mcp_execute_request(const struct mcp_execution *e);
const char *mcp_execute_code_sha(const struct mcp_execution *e);
void mcp_execute_rebind(struct mcp_execution *e, struct mcp_request *r);
/* Pauses (on = 1) or resumes (on = 0) e's deadlines while a person decides
 * on an approval (sandbox_exec_pause); pauses and resumes pair up. The
 * execution keeps its worker meanwhile, so pausing fails (-1, nothing
 * paused: the approval is not asked) when as many executions as the
 * sandbox allows wait for a person already (sandbox_admission_hold). */
int mcp_execute_pause(struct mcp_execution *e, int on);

/* authority.c: execute_code's allow / dryRun / maxToolCalls arguments, the
 * audit log's execution lines, and the dry run's planned calls. */
struct mcp_authority {
    char **allow;       /* NULL-terminated grant patterns, or NULL (no grant) */
    int dry_run;
    unsigned max_calls; /* the config's limit, or the smaller one asked for */
};
/* Reads the arguments (max_calls: the config's limit). Returns 0, or -1
 * with a message for the model in msg; free with mcp_authority_free either way. */
int mcp_authority_read(const cJSON *arguments, unsigned max_calls, struct mcp_authority *a,
                       char *msg, size_t msgsz);
void mcp_authority_free(struct mcp_authority *a);
void mcp_authority_audit_start(struct mcp_request *r, const char *id, const char *code,
                               const struct mcp_authority *a);
void mcp_authority_audit_end(struct mcp_request *r, const char *id, const char *outcome,
                             const char *error_name, double duration_ms, unsigned tool_calls);
/* Adds the readable list to content and structuredContent.plannedCalls (when present). */
void mcp_authority_add_planned(cJSON *result, const cJSON *planned);

/* approval.c: the approver for the calls of execution e (self is e,
 * borrowed); it asks on whatever request e answers at the time. */
struct tools_approver mcp_approval_approver(struct mcp_execution *e);

/* login_ask.c: the login asker for the calls of execution e (self is e,
 * borrowed): URL-mode elicitation on whatever request e answers. */
struct tools_login_asker mcp_login_asker(struct mcp_execution *e);

/* login_park.c: the login asker for the calls of a 2026-07-28 execution e
 * (self is e, borrowed): the URL elicitation goes into the inputRequests of
 * an input_required result (park.c), the answer comes with the retry. For
 * park.c: add the unanswered ones of e to reqs (created when NULL; returns
 * it); check the answers a retry carries for them (NULL, or why they are
 * malformed, in msg); deliver them. */
struct tools_login_asker mcp_login_park_asker(struct mcp_execution *e);
cJSON *mcp_login_park__input_requests(struct mcp_server *s, const struct mcp_execution *e,
                                      cJSON *reqs);
const char *mcp_login_park__check_inputs(struct mcp_server *s, const struct mcp_execution *e,
                                         const cJSON *responses, char *msg, size_t msgsz);
void mcp_login_park__answer_inputs(struct mcp_server *s, const struct mcp_execution *e,
                                   const cJSON *responses);

/* login_here.c: the login asker of `run` when a person is at the terminal
 * (mcp_server_config.login_here): the URL on stderr, the browser opened,
 * the loopback redirect; self is e, borrowed. */
struct tools_login_asker mcp_login_here_asker(struct mcp_execution *e);

/* approval.c, for park.c: the inputRequests of the pending 2026-07-28
 * approvals of execution e (NULL when none); deliver the answers a retry
 * carries (keyed like inputRequests). Approvals belong to the execution,
 * so they follow it from request to request (mcp_execute_rebind). */
cJSON *mcp_approval__input_requests(struct mcp_server *s, const struct mcp_execution *e);
void mcp_approval__answer_inputs(struct mcp_server *s, const struct mcp_execution *e,
                                 const cJSON *responses);

/* park.c: an approval (or a login) of request r's execution is pending:
 * answer r with input_required and park the execution (at once, unless r
 * is a parked one or being resumed), for expire_ms (a park that waits
 * already is given expire_ms from now when that is longer). */
void mcp_park_ask(struct mcp_request *r, uint64_t expire_ms);

#endif
