/* The built-in services programs reach through host calls: `state.*`
 * (key/value state, scoped to the server or to a principal) and `skills.*`
 * (saved programs: save, list, delete, and the code of one skill after its
 * arguments were validated). Keeps the skills in memory (loaded from the
 * database when it exists) with their compiled schemas, and gives workers,
 * declarations, search and the MCP tool list what they need of them.
 * Policy, approval and audit are the registry's (tools/gate/builtins.c). */
#ifndef TOOLS_STATE_SERVICE_H
#define TOOLS_STATE_SERVICE_H

#include "tools/state/store.h"

#include <cjson/cJSON.h>
#include <uv.h>

struct buf;
struct tools_state_service;

struct tools_state_service_options {
    int state;                        /* the `state` namespace is on */
    int skills;                       /* the `skills` namespace is on */
    int per_principal;                /* codemode.state.scope "principal" */
    int skills_per_principal;         /* codemode.skills.scope "principal" */
    char *const *skill_admins;        /* codemode.skills.admins (borrowed; may be NULL) */
    struct tools_state_options store; /* path (copied), quotas, busy timeout */
    /* Called (from the loop) after a skill was saved or deleted. May be NULL. */
    void (*skills_changed)(void *ud);
    void *skills_changed_ud;
    /* The loop tools_state_service_start answers on (NULL: the CLI, which
     * calls tools_state_service_call only). */
    uv_loop_t *loop;
};

#define TOOLS_SKILL_NAME_MAX 64
#define TOOLS_SKILL_CODE_MAX (256 * 1024)

/* Creates the service; when the database file exists and skills are on, the
 * skills are loaded from it (a failure is logged: the server starts without
 * them). Returns NULL when both namespaces are off. */
struct tools_state_service *tools_state_service_new(const struct tools_state_service_options *o);
void tools_state_service_free(struct tools_state_service *s);

int tools_state_service_has_state(const struct tools_state_service *s);
int tools_state_service_has_skills(const struct tools_state_service *s);

/* The store (for the CLI). Borrowed. */
struct tools_state *tools_state_service_store(struct tools_state_service *s);

/* Skills and principals. Every skill has an owner: the principal that saved
 * it, or "" for the server's own (saved by the CLI). A principal sees its own
 * skills and the server's (codemode.skills.scope "principal"), or every
 * skill (scope "server"); `skills.name` means its own, else the server's,
 * else another principal's. Only the owner, the CLI or an admin principal
 * (codemode.skills.admins) may replace or delete a skill. In the functions
 * below, principal NULL is the CLI: it sees every skill. */

/* For the worker's run message: {"state":true,"skills":["name",...]} (the
 * parts that are on, the skills principal sees), malloc'd. s may be NULL
 * (returns NULL). */
char *tools_state_service_worker_json(const struct tools_state_service *s, const char *principal);

/* The saved skills principal sees, one per name, sorted by name: an array
 * of references to rows {owner, name, description, inputSchema, code}; the
 * caller deletes the array (the rows stay valid until the next save or
 * delete). */
cJSON *tools_state_service_skills(const struct tools_state_service *s, const char *principal);

/* Appends the TypeScript declarations of `state` and `skills` (the parts
 * that are on, the skills principal sees with their schemas as types). s
 * may be NULL. */
void tools_state_service_declarations(const struct tools_state_service *s, const char *principal,
                                      struct buf *out);

/* describeTool("skills.<name>"): the declaration of that skill alone
 * (`declare const skills: { name(args: ...): Promise<unknown> }`), malloc'd,
 * or NULL when principal sees no such skill. s may be NULL. */
char *tools_state_service_describe(const struct tools_state_service *s, const char *principal,
                                   const char *name);

/* Adds to `hits` (a searchTools array [{name, summary}]) the skills principal
 * sees whose name or description contains the query (case-insensitive), as
 * "skills.<name>". s may be NULL. */
void tools_state_service_search(const struct tools_state_service *s, const char *principal,
                                const char *query, cJSON *hits);

/* One operation, synchronously. op "state": name get, entry, set, delete,
 * list; op "skills": save, list, delete; op "skill": name is a skill, args
 * its arguments, validated (the reply is {"code": body}). `principal` is the
 * caller's (the state scope when per_principal; whose skills; NULL: the
 * CLI). Appends the JSON of the value (returns 1) or of an error
 * {"name","message",...} (returns 0): StateError (code "forbidden" for
 * another principal's skill), StateConflictError, ToolArgumentError, Error. */
int tools_state_service_call(struct tools_state_service *s, const char *op, const char *name,
                             const char *principal, const cJSON *args, struct buf *out);

/* The same operation without blocking the loop: on SQLite, state.* runs
 * on libuv's thread pool, one at a time, and skills.* there once no
 * state.* operation is running (it changes the skills in memory); on
 * PostgreSQL both run on the store's connections on the loop (up to
 * codemode.store.maxConnections at once; skills.* one at a time); the rest
 * wait in order. loop: the service's (options.loop), or the one to use
 * when it has none. cb gets the reply on the loop, always later, never
 * inside; ok and json as tools_state_service_call's. Returns a handle for
 * tools_state_job_cancel, valid until cb. */
typedef void tools_state_done_cb(void *ud, int ok, const char *json, size_t len);
struct tools_state_job;
struct tools_state_job *tools_state_service_start(struct tools_state_service *s, uv_loop_t *loop,
                                                  const char *op, const char *name,
                                                  const char *principal, const cJSON *args,
                                                  tools_state_done_cb *cb, void *ud);
/* cb will not be called (an operation already running still finishes: a
 * write may be done). */
void tools_state_job_cancel(struct tools_state_job *j);

/* The stash shared on PostgreSQL (codemode.store), on its connections on
 * the loop like state.*: 1 when the store shares it (else the stash stays in each
 * instance's memory, mcp-server/stash.c). stash_put keeps an entry (e
 * copied); cb gets "true", or 0 with the StateError JSON. stash_get reads
 * one for its owner; cb gets the resources/read contents entry {uri,
 * mimeType, text | blob} as JSON text, "null" when there is none for that
 * owner, or 0 with the StateError JSON. Handles as tools_state_service_start's. */
int tools_state_service_shares_stash(const struct tools_state_service *s);
struct tools_state_job *tools_state_service_stash_put(struct tools_state_service *s,
                                                      uv_loop_t *loop,
                                                      const struct tools_state_stash_entry *e,
                                                      tools_state_done_cb *cb, void *ud);
struct tools_state_job *tools_state_service_stash_get(struct tools_state_service *s,
                                                      uv_loop_t *loop, const char *uri,
                                                      const char *owner, tools_state_done_cb *cb,
                                                      void *ud);
/* A read this instance answered from its memory: the shared entry becomes
 * the most recently used too (eviction is least recently used first,
 * across the instances). Nothing is answered; a failure is only logged. */
void tools_state_service_stash_touch(struct tools_state_service *s, uv_loop_t *loop,
                                     const char *uri, const char *owner);

/* The checks of the arguments of a state.* or skills.* operation (a key
 * of 1 to TOOLS_STATE_KEY_MAX bytes, a value for set, a well-formed skill for save, ...),
 * without doing it: 1, or 0 with the StateError JSON (code "invalid") in
 * out. tools_state_service_call makes them first. */
int tools_state_service_check(const char *op, const char *name, const cJSON *args, struct buf *out);

/* Checks and saves a skill given as {name, description, inputSchema, code}
 * for principal (NULL: the CLI, saving the server's skill): 1, or 0 with
 * the error JSON in out. */
int tools_state_service_save(struct tools_state_service *s, const cJSON *skill,
                             const char *principal, struct buf *out);

#endif
