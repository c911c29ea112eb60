/* Calls of a server whose tools are not known until an OAuth login
 * (docs/oauth.md, "A server never logged in to"): the catalog declares such
 * a server as any tool name (login_only), so a program can call it at all.
 * The call keeps the name and arguments it was made with and waits for the
 * server's login (login_wait.c, the same login as any call's); once the
 * tokens are stored and the server's first connection is over (its tool
 * list installed, or a failure), it goes through the gate again against the
 * real list: an unknown name gets the usual "did you mean", the arguments
 * are checked against the real schema, policy and approval apply, and the
 * call is sent. A login that does not complete fails it with ToolAuthError. */
#include "tools/registry_internal.h"
#include "tools/catalog.h"
#include "tools/downstream/downstream.h"
#include "common/alloc.h"
#include "common/json.h"

#include <stdlib.h>

static int connecting(const struct tools_downstream *d)
{
    struct tools_downstream_status st;
    tools_downstream_status(d, &st);
    return st.state == TOOLS_DOWNSTREAM_CONNECTING;
}

int tools__login_first(struct tools_call *c, const char *name, const cJSON *args)
{
    long si = tools_catalog_login_server(c->r->catalog, name);
    if (si < 0)
        return 0;
    if (c->login_tried || (c->x && c->x->dry_run))
        return -1; /* after its login it needs one again (no second one); a dry run asks nobody */
    struct tools_downstream *d = tools__registry_server(c->r, (size_t) si);
    int listing = d && !tools_downstream_needs_login(d); /* logged in: it connects */
    if (listing && !connecting(d))
        return -1;
    c->first_name = xstrdup(name);
    c->first_server = (size_t) si;
    c->args_json = args ? json_print(args) : NULL;
    tools__call_link(c);
    if (listing) {
        c->first_listing = 1; /* its tool list comes with READY: tools__login_first_listed */
        return 1;
    }
    if (tools__login_join_server(c, c->first_server))
        return 1;
    tools__call_unlink(c);
    return -1;
}

void tools__login_first_done(struct tools_call *c, int ok, const char *message)
{
    if (ok) {
        c->first_listing = 1; /* the server reconnects: tools__login_first_listed */
        tools__login_first_listed(c->r, c->first_server);
        return;
    }
    tools__reply_error(c->cb, c->ud, "ToolAuthError", message, c->first_name);
    tools__call_unlink(c);
    tools__call_free(c);
}

/* c's server is ready (or failed): c goes through the gate with its own
 * name and arguments. */
static void gate_again(struct tools_call *c)
{
    char *name = c->first_name;
    cJSON *args = tools__call_args(c);
    tools__call_unlink(c);
    free(c->args_json);
    c->args_json = NULL;
    c->first_name = NULL;
    c->first_listing = 0;
    tools__gate_tool(c, name, args);
    cJSON_Delete(args);
    free(name);
}

/* The oldest call that waits for slot i's tool list (the registry's list
 * has the newest first), or NULL. */
static struct tools_call *listing(struct tools_registry *r, size_t i)
{
    struct tools_call *oldest = NULL;
    for (struct tools_call *c = r->calls; c; c = c->next)
        if (c->first_name && c->first_listing && c->first_server == i)
            oldest = c;
    return oldest;
}

void tools__login_first_listed(struct tools_registry *r, size_t i)
{
    struct tools_downstream *d = tools__registry_server(r, i);
    if (d && connecting(d))
        return; /* its tool list comes with READY */
    struct tools_call *c;
    while ((c = listing(r, i)) != NULL)
        gate_again(c);
}
