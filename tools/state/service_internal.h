/* What the state service's files share (service.c: the operations, the
 * skills in memory, the checks and replies; service_pg.c: the same
 * operations on the PostgreSQL pool on the loop). Not for the rest of
 * tools/state. */
#ifndef TOOLS_STATE_SERVICE_INTERNAL_H
#define TOOLS_STATE_SERVICE_INTERNAL_H

#include "tools/state/jobs.h"
#include "tools/state/service.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <uv.h>

struct buf;
struct tools__pga;

struct skill {
    const cJSON *row; /* in s->skills */
    struct tools_schema *input;
};

struct tools_state_service {
    struct tools_state_service_options o;
    struct tools_state *store;
    cJSON *skills; /* [{name, description, inputSchema, code}] sorted by name */
    struct skill *compiled;
    size_t nskills;
    struct tools_state_jobs jobs;           /* with a loop: the operations off it (jobs.c) */
    struct tools_state_listener *listener;  /* PostgreSQL: other instances' skill changes */
    struct tools__pga *pool;                /* PostgreSQL: the operations on the loop */
    struct pool_op *pool_ops;               /* its state.* operations not answered yet */
    struct skills_flow *flows, *flows_tail; /* its skills.* operations, one at a time */
    int closing;                            /* being freed: nothing is announced */
};

/* What a skills.* operation read and did off the loop, applied on the loop
 * afterwards (land): the rows it read last (NULL: it read none) and whether
 * it changed them. Off the loop, the rows in memory are only read. */
struct skills_view {
    cJSON *rows;
    int changed;
};

/* service.c: replies (they return what the operation returns: 0 for an
 * error, 1 for a value), arguments, and the skills' rules. */
int tools__svc_fail(struct buf *out, const char *name, const char *code, const char *msg);
int tools__svc_store_error(struct buf *out, int rc, const char *err);
int tools__svc_ok_json(struct buf *out, cJSON *v); /* v consumed */
const char *tools__svc_str_arg(const cJSON *args, const char *key);
int tools__svc_read_if_version(const cJSON *args, int64_t *out);
const char *tools__svc_row_str(const cJSON *row, const char *key);
const cJSON *tools__svc_find_row(const struct tools_state_service *s, const cJSON *rows,
                                 const char *name, const char *principal);
int tools__svc_may_write(const struct tools_state_service *s, const char *owner,
                         const char *principal);
int tools__svc_not_yours(struct buf *out, const char *op, const char *name);
const char *tools__svc_delete_name(const cJSON *args);
int tools__svc_skills_list_reply(const struct tools_state_service *s, const cJSON *rows,
                                 const char *principal, struct buf *out);
/* On the loop: installs what v read and says the skills changed. */
void tools__svc_land(struct tools_state_service *s, struct skills_view *v);

/* service_pg.c: the operations on s->pool (set), answered on the loop,
 * never inside these calls. */
struct tools_state_job *tools__svc_pg_state(struct tools_state_service *s, const char *name,
                                            const char *principal, const cJSON *args,
                                            tools_state_done_cb *cb, void *ud);
/* skills.* and "skills-reload", one at a time, in order. */
struct tools_state_job *tools__svc_pg_skills(struct tools_state_service *s, const char *op,
                                             const char *name, const char *principal,
                                             const cJSON *args, tools_state_done_cb *cb, void *ud);
struct tools_state_job *tools__svc_pg_stash_put(struct tools_state_service *s,
                                                const struct tools_state_stash_entry *e,
                                                tools_state_done_cb *cb, void *ud);
/* want_data 0: a touch. */
struct tools_state_job *tools__svc_pg_stash_get(struct tools_state_service *s, const char *uri,
                                                const char *owner, int want_data,
                                                tools_state_done_cb *cb, void *ud);
/* Before the pool is freed: no caller is answered any more. */
void tools__svc_pg_cancel_all(struct tools_state_service *s);

#endif
