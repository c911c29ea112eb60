/* The gate of resources.* and prompts.* (docs/javascript.md): the
 * downstream servers' resources and prompts, called from programs under the
 * names "<server>.resources/list", "<server>.resources/templates/list",
 * "<server>.resources/read", "<server>.prompts/list" and
 * "<server>.prompts/get" (all read-only), in the order of the gate of tools:
 * the operation and its arguments, the server (one that offers the
 * capability), policy deny and the grant (ToolPolicyError), the dry run,
 * asking a person, then the request, one audit line per call. Also which
 * server a uri belongs to: the one that listed it, or whose tool returned
 * it, in this execution. */
#include "tools/gate/internal.h"
#include "tools/registry_internal.h"
#include "tools/catalog.h"
#include "tools/downstream/downstream.h"
#include "tools/policy/audit.h"
#include "tools/policy/policy.h"
#include "tools/result_map.h"
#include "tools/server_config.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINKS       4096u       /* resources remembered per execution */
#define MAX_PAGES       100u        /* of one list call without a cursor */
#define MAX_LIST_BYTES  (16u << 20) /* of the items one list call gathers */
#define MAX_NAME        1024u       /* a server's or a prompt's name */
#define MAX_TEXT        65536u      /* a uri, a cursor */
#define MAX_PROMPT_ARGS 256

struct res_op {
    const char *op, *name;   /* as a program calls it: resources.read */
    const char *method;      /* the MCP request, and the name in rules */
    const char *capability;  /* what the server must offer */
    const char *items;       /* a list's array, or NULL */
    const char *const *keys; /* the arguments there are (NULL-terminated) */
};

static const char *const list_keys[] = {"server", "cursor", NULL};
static const char *const read_keys[] = {"server", "uri", NULL};
static const char *const get_keys[] = {"server", "name", "arguments", NULL};

static const struct res_op ops[] = {
    {"resources", "list", "resources/list", "resources", "resources", list_keys},
    {"resources", "templates", "resources/templates/list", "resources", "resourceTemplates",
     list_keys},
    {"resources", "read", "resources/read", "resources", NULL, read_keys},
    {"prompts", "list", "prompts/list", "prompts", "prompts", list_keys},
    {"prompts", "get", "prompts/get", "prompts", NULL, get_keys},
};

/* obj[key] when it is a string, else NULL. */
static const char *str_of(const cJSON *obj, const char *key)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));
}

struct tools__res {
    const struct res_op *op;
    size_t server;   /* the slot */
    char *qualified; /* "server.resources/read" */
    cJSON *params;   /* of the next request */
    cJSON *acc;      /* a list's items so far */
    size_t acc_bytes;
    unsigned pages;
    int all_pages; /* no cursor given: every page */
};

size_t tools__res_server(const struct tools__res *res)
{
    return res->server;
}

void tools__res_free(struct tools__res *res)
{
    if (res == NULL)
        return;
    free(res->qualified);
    cJSON_Delete(res->params);
    cJSON_Delete(res->acc);
    free(res);
}

/* --- resources seen in tool results and lists ----------------------------------------------- */

static void note(struct tools_exec *x, size_t server, const char *uri)
{
    for (size_t i = 0; i < x->nlinks; i++) {
        if (strcmp(x->links[i].uri, uri) == 0) {
            if (x->links[i].server != server)
                x->links[i].ambiguous = 1;
            return;
        }
    }
    if (x->nlinks >= MAX_LINKS || strlen(uri) > MAX_TEXT)
        return; /* resources.read then needs its server */
    x->links = xrealloc(x->links, (x->nlinks + 1) * sizeof *x->links);
    x->links[x->nlinks++] = (struct tools__link){xstrdup(uri), server, 0};
}

void tools__exec_note_links(struct tools_exec *x, size_t server, const cJSON *result)
{
    const cJSON *block;
    cJSON_ArrayForEach(block, cJSON_GetObjectItemCaseSensitive(result, "content"))
    {
        const char *type = str_of(block, "type");
        const char *uri = NULL;
        if (type && strcmp(type, "resource_link") == 0)
            uri = str_of(block, "uri");
        else if (type && strcmp(type, "resource") == 0)
            uri = str_of(cJSON_GetObjectItemCaseSensitive(block, "resource"), "uri");
        if (uri)
            note(x, server, uri);
    }
}

void tools__exec_free_links(struct tools_exec *x)
{
    for (size_t i = 0; i < x->nlinks; i++)
        free(x->links[i].uri);
    free(x->links);
    x->links = NULL;
    x->nlinks = 0;
}

static const struct tools__link *link_of(const struct tools_exec *x, const char *uri)
{
    for (size_t i = 0; x && i < x->nlinks; i++)
        if (strcmp(x->links[i].uri, uri) == 0)
            return &x->links[i];
    return NULL;
}

/* --- the arguments and the server ------------------------------------------------------------ */

static const struct res_op *find_op(const char *op, const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].op, op) == 0 && strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

static int allowed_key(const struct res_op *o, const char *key)
{
    for (const char *const *k = o->keys; *k; k++)
        if (strcmp(*k, key) == 0)
            return 1;
    return 0;
}

/* A string member: absent (NULL, *bad 0) or a string of 1..max bytes; else
 * *bad is set and the reason written to why. */
static const char *text_arg(const cJSON *args, const char *key, size_t max, int *bad,
                            struct buf *why)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
    if (v == NULL)
        return NULL;
    if (!cJSON_IsString(v) || v->valuestring[0] == '\0' || strlen(v->valuestring) > max) {
        buf_printf(why, "%s must be a non-empty string of at most %zu bytes", key, max);
        *bad = 1;
        return NULL;
    }
    return v->valuestring;
}

static int prompt_args_ok(const cJSON *a, struct buf *why)
{
    if (a == NULL)
        return 1;
    int n = 0;
    const cJSON *v;
    if (cJSON_IsObject(a)) {
        cJSON_ArrayForEach(v, a)
        {
            if (!cJSON_IsString(v) || ++n > MAX_PROMPT_ARGS) {
                buf_printf(why,
                           "the prompt's arguments must be an object of at most %d strings "
                           "(\"%.60s\" is not a string)",
                           MAX_PROMPT_ARGS, v->string);
                return 0;
            }
        }
        return 1;
    }
    buf_printf(why, "the prompt's arguments must be an object of strings");
    return 0;
}

/* Checks what names the call (the worker built it: hostile input): the
 * arguments are an object, and its server (and a read's uri, which can
 * pick the server) are strings; 0, or -1 with the reason in why. */
static int check_naming(const struct res_op *o, const cJSON *args, struct buf *why)
{
    int bad = 0;
    if (!cJSON_IsObject(args)) {
        buf_printf(why, "%s.%s: the arguments must be an object", o->op, o->name);
        return -1;
    }
    text_arg(args, "server", MAX_NAME, &bad, why);
    if (!bad && strcmp(o->name, "read") == 0 &&
        text_arg(args, "uri", MAX_TEXT, &bad, why) == NULL && !bad) {
        buf_printf(why, "resources.read: the uri is required (a string, or a resource_link)");
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* Checks the other arguments (after the policy, as for a tool's): no
 * unknown member, a cursor, a prompt's name and arguments; 0, or -1 with
 * the reason in why. */
static int check_args(const struct res_op *o, const cJSON *args, struct buf *why)
{
    int bad = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, args)
    {
        if (!allowed_key(o, m->string)) {
            buf_printf(why, "%s.%s: unknown argument \"%.60s\"", o->op, o->name, m->string);
            return -1;
        }
    }
    text_arg(args, "cursor", MAX_TEXT, &bad, why);
    if (!bad && strcmp(o->name, "get") == 0) {
        if (text_arg(args, "name", MAX_NAME, &bad, why) == NULL && !bad) {
            buf_printf(why, "prompts.get: the prompt's name is required");
            bad = 1;
        } else if (!bad &&
                   !prompt_args_ok(cJSON_GetObjectItemCaseSensitive(args, "arguments"), why)) {
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* The slot named `server` (its name in the config, or its sanitised id). */
static long find_server(const struct tools_registry *r, const char *server)
{
    for (size_t i = 0; i < r->nslots; i++)
        if (strcmp(r->slots[i].cfg->name, server) == 0)
            return (long) i;
    for (size_t i = 0; i < r->nslots && i < tools_catalog_server_count(r->catalog); i++)
        if (strcmp(tools_catalog_server_id(r->catalog, i), server) == 0)
            return (long) i;
    return -1;
}

static int offers(const struct tools_registry *r, size_t i, const char *capability)
{
    return r->slots[i].d && tools_downstream_offers(r->slots[i].d, capability);
}

/* "; the servers that offer them: "a", "b"" (or that none offers capability). */
static void list_offering(const struct tools_registry *r, const char *capability, struct buf *b)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nslots; i++) {
        if (!offers(r, i, capability))
            continue;
        buf_printf(b, "%s\"%s\"",
                   n++ ? ", " : "; the servers that offer them: ", r->slots[i].cfg->name);
    }
    if (n == 0)
        buf_printf(b, "; no configured server offers %s", capability);
}

/* The server of a resources.read without one: the server that listed the
 * uri, or whose tool returned it, in this execution; else the only server
 * that offers resources. */
static long server_for_uri(const struct tools_registry *r, const struct tools_exec *x,
                           const char *uri, struct buf *why)
{
    const struct tools__link *l = link_of(x, uri);
    if (l && !l->ambiguous)
        return (long) l->server;
    long only = -1;
    size_t n = 0;
    for (size_t i = 0; i < r->nslots; i++)
        if (offers(r, i, "resources") && n++ == 0)
            only = (long) i;
    if (n == 1 && !l)
        return only;
    if (l)
        buf_printf(why,
                   "resources.read: more than one server listed or returned \"%.200s\" in "
                   "this execution; say which: resources.read(uri, {server: \"...\"})",
                   uri);
    else
        buf_printf(why,
                   "resources.read: which server has \"%.200s\"? No tool of this execution "
                   "returned it; say which: resources.read(uri, {server: \"...\"})",
                   uri);
    list_offering(r, "resources", why);
    return -1;
}

/* The slot of the call, or -1 after writing why. */
static long pick_server(const struct tools_registry *r, const struct tools_exec *x,
                        const struct res_op *o, const cJSON *args, struct buf *why)
{
    const char *server = str_of(args, "server");
    if (server == NULL && strcmp(o->name, "read") == 0)
        return server_for_uri(r, x, str_of(args, "uri"), why);
    if (server == NULL) {
        buf_printf(why, "%s.%s: the server is required, as its first argument", o->op, o->name);
        list_offering(r, o->capability, why);
        return -1;
    }
    long i = find_server(r, server);
    if (i < 0) {
        buf_printf(why, "%s.%s: unknown server \"%.200s\"", o->op, o->name, server);
        list_offering(r, o->capability, why);
        return -1;
    }
    if (!offers(r, (size_t) i, o->capability)) {
        buf_printf(why, "%s.%s: server \"%s\" offers no %s", o->op, o->name, r->slots[i].cfg->name,
                   o->capability);
        list_offering(r, o->capability, why);
        return -1;
    }
    return i;
}

/* --- answers --------------------------------------------------------------------------------- */

/* A resource's contents as a program sees them: text as a string; a blob
 * as a content block (image, audio, else an embedded resource), as
 * content.image / content.audio / content.resource make them. NULL when the
 * item is malformed. */
static cJSON *content_value(const cJSON *item)
{
    const char *uri = str_of(item, "uri"), *mime = str_of(item, "mimeType");
    const char *text = str_of(item, "text"), *blob = str_of(item, "blob");
    if (uri == NULL || (text == NULL) == (blob == NULL))
        return NULL;
    if (text)
        return cJSON_CreateString(text);
    cJSON *b = cJSON_CreateObject();
    int media = mime && (!strncmp(mime, "image/", 6) || !strncmp(mime, "audio/", 6));
    if (media) {
        cJSON_AddStringToObject(b, "type", mime[0] == 'i' ? "image" : "audio");
        cJSON_AddStringToObject(b, "data", blob);
        cJSON_AddStringToObject(b, "mimeType", mime);
        return b;
    }
    cJSON_AddStringToObject(b, "type", "resource");
    cJSON *r = cJSON_AddObjectToObject(b, "resource");
    cJSON_AddStringToObject(r, "uri", uri);
    if (mime)
        cJSON_AddStringToObject(r, "mimeType", mime);
    cJSON_AddStringToObject(r, "blob", blob);
    return b;
}

/* resources/read: one item's value, or an array of them (none, or several). */
static cJSON *read_value(const cJSON *result)
{
    const cJSON *contents = cJSON_GetObjectItemCaseSensitive(result, "contents");
    if (!cJSON_IsArray(contents))
        return NULL;
    cJSON *all = cJSON_CreateArray();
    const cJSON *item;
    cJSON_ArrayForEach(item, contents)
    {
        cJSON *v = content_value(item);
        if (v == NULL) {
            cJSON_Delete(all);
            return NULL;
        }
        cJSON_AddItemToArray(all, v);
    }
    if (cJSON_GetArraySize(all) != 1)
        return all;
    cJSON *one = cJSON_DetachItemFromArray(all, 0);
    cJSON_Delete(all);
    return one;
}

/* prompts/get: {description?, messages}. */
static cJSON *prompt_value(const cJSON *result)
{
    const cJSON *messages = cJSON_GetObjectItemCaseSensitive(result, "messages");
    const char *description = str_of(result, "description");
    if (!cJSON_IsArray(messages))
        return NULL;
    cJSON *v = cJSON_CreateObject();
    if (description)
        cJSON_AddStringToObject(v, "description", description);
    cJSON_AddItemToObject(v, "messages", cJSON_Duplicate(messages, 1));
    return v;
}

/* A list's page: its items join the others; returns 0, or -1 when the page
 * is malformed. */
static int take_page(struct tools_call *c, const cJSON *result)
{
    struct tools__res *res = c->res;
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(result, res->op->items);
    if (!cJSON_IsArray(items))
        return -1;
    const cJSON *it;
    if (c->x && strcmp(res->op->method, "resources/list") == 0) /* listed by this server */
        cJSON_ArrayForEach(it, items) if (str_of(it, "uri"))
            note(c->x, res->server, str_of(it, "uri"));
    char *text = json_print(items);
    res->acc_bytes += strlen(text);
    free(text);
    if (res->acc == NULL)
        res->acc = cJSON_CreateArray();
    cJSON_ArrayForEach(it, items) cJSON_AddItemToArray(res->acc, cJSON_Duplicate(it, 1));
    res->pages++;
    return 0;
}

/* {items, nextCursor?} of a list call, consuming what was gathered. */
static cJSON *list_value(struct tools__res *res, const char *next)
{
    cJSON *v = cJSON_CreateObject();
    cJSON_AddItemToObject(v, res->op->items, res->acc ? res->acc : cJSON_CreateArray());
    res->acc = NULL;
    if (next)
        cJSON_AddStringToObject(v, "nextCursor", next);
    return v;
}

/* Asks for the next page when the program wants every page and there is
 * one within the caps; 1 when it was asked for. */
static int next_page(struct tools_call *c, const char *next)
{
    struct tools__res *res = c->res;
    if (!res->all_pages || next == NULL || res->pages >= MAX_PAGES ||
        res->acc_bytes >= MAX_LIST_BYTES)
        return 0;
    cJSON_DeleteItemFromObjectCaseSensitive(res->params, "cursor");
    cJSON_AddStringToObject(res->params, "cursor", next);
    tools__res_send(c);
    return 1;
}

/* The value the program gets for a result, or NULL when it is malformed
 * (*more: another page was asked for instead). */
static cJSON *value_of(struct tools_call *c, const cJSON *result, int *more)
{
    struct tools__res *res = c->res;
    *more = 0;
    if (res->op->items == NULL)
        return strcmp(res->op->name, "read") == 0 ? read_value(result) : prompt_value(result);
    if (take_page(c, result) != 0)
        return NULL;
    const char *next = str_of(result, "nextCursor");
    if (next_page(c, next)) {
        *more = 1;
        return NULL;
    }
    return list_value(res, next);
}

static void replied(void *ud, const struct tools_downstream_reply *rep)
{
    struct tools_call *c = ud;
    struct tools__res *res = c->res;
    struct buf b;
    buf_init(&b, 0);
    c->dc = NULL;
    int ok = 0, more = 0;
    if (rep->outcome == TOOLS_DOWNSTREAM_RESULT) {
        cJSON *v = value_of(c, rep->result, &more);
        if (more)
            return;
        if (v) {
            char *text = json_print(v);
            buf_append_str(&b, text);
            free(text);
            cJSON_Delete(v);
            ok = 1;
        } else {
            struct buf m;
            buf_init(&m, 0);
            buf_printf(&m, "server \"%s\" answered %s with a result that is not one",
                       c->r->slots[res->server].cfg->name, res->op->method);
            tools_result_error("ToolError", m.data, res->qualified, &b);
            buf_free(&m);
        }
    } else {
        tools_result_error("ToolError", rep->message ? rep->message : "the request failed",
                           res->qualified, &b);
    }
    const char *outcome = ok                                         ? "ok"
                          : rep->outcome == TOOLS_DOWNSTREAM_TIMEOUT ? "timeout"
                                                                     : "error";
    tools_audit_call_end(c->r->o.audit, c->audit, outcome, c->t0, ok ? b.len : 0);
    c->audit = NULL;
    tools__reply_text(c->cb, c->ud, ok, &b);
    buf_free(&b);
    tools__call_unlink(c);
    tools__call_free(c);
}

void tools__res_send(struct tools_call *c)
{
    struct tools_downstream *d = tools__registry_server(c->r, c->res->server);
    c->dc = tools_downstream_request(d, c->res->op->method, c->res->params, 0, replied, c);
}

/* --- the gate -------------------------------------------------------------------------------- */

static void audit_end(struct tools_call *c, const char *decision)
{
    if (c->audit)
        cJSON_AddStringToObject(c->audit, "decision", decision);
    tools_audit_call_end(c->r->o.audit, c->audit, "not_sent", c->t0, 0);
    c->audit = NULL;
}

static struct tools_policy_names names_of(const struct tools_call *c)
{
    const char *server = c->r->slots[c->res->server].cfg->name;
    const char *id = c->res->server < tools_catalog_server_count(c->r->catalog)
                         ? tools_catalog_server_id(c->r->catalog, c->res->server)
                         : server;
    return (struct tools_policy_names){server, id, c->res->op->method, c->res->op->method};
}

static cJSON *read_only_tool(void)
{
    cJSON *tool = cJSON_CreateObject();
    cJSON_AddTrueToObject(cJSON_AddObjectToObject(tool, "annotations"), "readOnlyHint");
    return tool;
}

static enum tools_policy_decision decide(const struct tools_call *c, char **source)
{
    struct tools_policy_names n = names_of(c);
    cJSON *tool = read_only_tool();
    enum tools_policy_decision d =
        tools_policy_decide_scoped(c->r->o.policy, c->r->slots[c->res->server].cfg, &n, tool,
                                   c->x ? c->x->scopes : NULL, source);
    cJSON_Delete(tool);
    return d;
}

static int granted(const struct tools_call *c)
{
    if (c->x == NULL || c->x->grant == NULL)
        return 1;
    struct tools_policy_names n = names_of(c);
    return tools_policy_granted(c->x->grant, &n);
}

static void refuse(struct tools_call *c, int denied, const char *source)
{
    struct buf m;
    buf_init(&m, 0);
    if (denied)
        buf_printf(&m,
                   "\"%s\" is denied by this server's policy (%s); the request was not sent. "
                   "Retrying will not help: do without it, or tell the user.",
                   c->res->qualified, source ? source : "policy");
    else
        buf_printf(&m,
                   "\"%s\" was not granted to this execution (execute_code's \"allow\" argument "
                   "lists what it may call); the request was not sent. Retrying will not help.",
                   c->res->qualified);
    tools__reply_refusal(tools__answer_later, c, "ToolPolicyError", m.data, c->res->qualified,
                         "decision", denied ? "deny" : "not_granted");
    audit_end(c, denied ? "denied" : "not_granted");
    buf_free(&m);
}

static const char dry_run_note[] = "dry run: this call was recorded, not sent";

static void plan(struct tools_call *c, const cJSON *args, enum tools_policy_decision d,
                 char *source)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "tool", c->res->qualified);
    cJSON_AddItemToObject(p, "arguments", cJSON_Duplicate(args, 1));
    cJSON_AddStringToObject(p, "decision", tools_policy_decision_name(d));
    if (source)
        cJSON_AddStringToObject(p, "decidedBy", source);
    free(source);
    cJSON_AddItemToArray(c->x->planned, p);
    cJSON *v = cJSON_CreateObject();
    cJSON_AddTrueToObject(v, "dryRun");
    cJSON_AddStringToObject(v, "tool", c->res->qualified);
    cJSON_AddStringToObject(v, "note", dry_run_note);
    char *text = json_print(v);
    audit_end(c, "dry_run");
    tools__answer_later(c, 1, text, strlen(text));
    free(text);
    cJSON_Delete(v);
}

/* --- asking a person ------------------------------------------------------------------------- */

static int approved_for_execution(const struct tools_call *c)
{
    struct tools_policy_names n = names_of(c);
    size_t sl = strlen(n.server);
    for (size_t i = 0; c->x && i < c->x->napproved; i++) {
        const char *a = c->x->approved[i];
        if (strncmp(a, n.server, sl) == 0 && a[sl] == '\n' && strcmp(a + sl + 1, n.tool) == 0)
            return 1;
    }
    return 0;
}

static void remember_approval(struct tools_call *c)
{
    struct tools_policy_names n = names_of(c);
    struct buf k;
    buf_init(&k, 0);
    buf_printf(&k, "%s\n%s", n.server, n.tool);
    c->x->approved = xrealloc(c->x->approved, (c->x->napproved + 1) * sizeof *c->x->approved);
    c->x->approved[c->x->napproved++] = buf_steal(&k);
}

/* ToolApprovalError through cb (c's own caller, or tools__answer_later). */
static void not_approved(struct tools_call *c, enum tools_approval_answer a, const char *detail,
                         tools_reply_cb *cb, void *ud)
{
    struct buf m;
    buf_init(&m, 0);
    if (a == TOOLS_APPROVAL_UNAVAILABLE) {
        struct tools_policy_names n = names_of(c);
        cJSON *tool = read_only_tool();
        char *advice =
            tools_policy_allow_advice(c->r->o.policy, c->r->slots[c->res->server].cfg, &n, tool);
        cJSON_Delete(tool);
        buf_printf(&m,
                   "\"%s\" needs approval, but this client cannot approve calls (it did not "
                   "declare elicitation); the request was not sent. To let programs call it "
                   "without a person, the server's config file needs a rule: %s (or "
                   "codemode.policy.noApprover \"allow\" for every call that asks).",
                   c->res->qualified, advice);
        free(advice);
    } else {
        buf_printf(&m, "\"%s\" was not approved (%s%s%s); the request was not sent.",
                   c->res->qualified, tools__approval_reason(a), detail ? ": " : "",
                   detail ? detail : "");
    }
    audit_end(c, "denied");
    tools__reply_refusal(cb, ud, "ToolApprovalError", m.data, c->res->qualified, "reason",
                         tools__approval_reason(a));
    buf_free(&m);
}

static void approval_done(void *ud, enum tools_approval_answer a, const char *detail)
{
    struct tools_call *c = ud;
    c->approval = NULL;
    tools__call_unlink(c);
    if (!tools__approval_lets_through(c->r, a)) {
        not_approved(c, a, detail, c->cb, c->ud);
        tools__call_free(c);
        return;
    }
    if (a == TOOLS_APPROVAL_EXECUTION && c->x)
        remember_approval(c);
    if (c->audit)
        cJSON_AddStringToObject(c->audit, "decision",
                                a == TOOLS_APPROVAL_UNAVAILABLE ? "allow" : "approved");
    tools__call_send(c, NULL);
}

/* The ask step: 0 to send now, 1 waiting for a person, -1 refused. */
static int ask(struct tools_call *c, const cJSON *args)
{
    const struct tools_approver *ap = c->x ? c->x->approver : NULL;
    const struct tools_policy *p = c->r->o.policy;
    if (approved_for_execution(c)) {
        if (c->audit) {
            cJSON_AddStringToObject(c->audit, "decision", "approved");
            cJSON_AddStringToObject(c->audit, "scope", "execution");
        }
        return 0;
    }
    if (ap == NULL) {
        if (tools__no_approver_allows(c->r)) {
            if (c->audit)
                cJSON_AddStringToObject(c->audit, "decision", "allow");
            return 0;
        }
        not_approved(c, TOOLS_APPROVAL_UNAVAILABLE, NULL, tools__answer_later, c);
        return -1;
    }
    struct tools_policy_names n = names_of(c);
    struct tools_approval_request q = {n.server, n.tool, args, c->x->execution_id,
                                       p ? p->approval_timeout_ms : 600000};
    tools__call_link(c);
    c->approval = ap->ask(ap->self, &q, approval_done, c); /* answers later, never inside */
    return 1;
}

/* --- the call -------------------------------------------------------------------------------- */

static cJSON *audit_start(struct tools_call *c, const char *tool, const cJSON *args)
{
    if (c->r->o.audit == NULL)
        return NULL;
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "executionId",
                            c->x && c->x->execution_id ? c->x->execution_id : "");
    tools_audit_add_tool(ev, tool);
    tools_audit_add_arguments(c->r->o.audit, ev, args);
    return ev;
}

/* The request's params from the program's arguments. */
static cJSON *params_of(const struct res_op *o, const cJSON *args)
{
    cJSON *p = cJSON_CreateObject();
    static const char *const copied[] = {"cursor", "uri", "name", "arguments"};
    for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, copied[i]);
        if (v && allowed_key(o, copied[i]))
            cJSON_AddItemToObject(p, copied[i], cJSON_Duplicate(v, 1));
    }
    return p;
}

/* An error before the server is known: Error or TypeError, audited under
 * "resources.<op>". */
static void invalid(struct tools_call *c, const char *qualified, const char *name,
                    const char *message, const cJSON *args)
{
    c->audit = audit_start(c, qualified, args);
    audit_end(c, "invalid");
    tools__reply_error(tools__answer_later, c, name, message, NULL);
}

/* The gate, once the server is known: deny, grant, the other arguments,
 * the dry run, ask, then the request. */
static void gate(struct tools_call *c, const cJSON *args)
{
    struct buf why;
    buf_init(&why, 0);
    char *source = NULL;
    enum tools_policy_decision d = decide(c, &source);
    if (d == TOOLS_POLICY_DENY || !granted(c)) {
        refuse(c, d == TOOLS_POLICY_DENY, source);
    } else if (check_args(c->res->op, args, &why) != 0) {
        audit_end(c, "invalid");
        tools__reply_error(tools__answer_later, c, "TypeError", why.data, NULL);
    } else if (c->x && c->x->dry_run && d != TOOLS_POLICY_ALLOW) {
        plan(c, args, d, source); /* read-only: sent in a dry run when allowed */
        source = NULL;
    } else if (d == TOOLS_POLICY_ASK) {
        if (ask(c, args) == 0)
            tools__call_send(c, NULL);
    } else {
        if (c->audit)
            cJSON_AddStringToObject(c->audit, "decision", "allow");
        tools__call_send(c, NULL);
    }
    free(source);
    buf_free(&why);
}

void tools__resource_call(struct tools_call *c, const char *op, const char *name, const cJSON *args)
{
    c->t0 = uv_hrtime();
    const struct res_op *o = find_op(op, name);
    struct buf why;
    buf_init(&why, 0);
    char bare[64];
    snprintf(bare, sizeof bare, "%s.%.40s", op, name);
    long server = -1;
    if (o == NULL) {
        buf_printf(&why,
                   "\"%s\" is not an operation: resources has list, templates and read; "
                   "prompts has list and get",
                   bare);
        invalid(c, bare, "Error", why.data, args);
    } else if (check_naming(o, args, &why) != 0) {
        invalid(c, bare, "TypeError", why.data, args);
    } else if ((server = pick_server(c->r, c->x, o, args, &why)) < 0) {
        invalid(c, bare, "ToolError", why.data, args);
    } else {
        c->res = xcalloc(1, sizeof *c->res);
        c->res->op = o;
        c->res->server = (size_t) server;
        buf_reset(&why);
        buf_printf(&why, "%s.%s", c->r->slots[server].cfg->name, o->method);
        c->res->qualified = buf_steal(&why);
        c->res->params = params_of(o, args);
        c->res->all_pages = o->items && !cJSON_GetObjectItemCaseSensitive(args, "cursor");
        c->audit = audit_start(c, c->res->qualified, args);
        gate(c, args);
    }
    buf_free(&why);
}
