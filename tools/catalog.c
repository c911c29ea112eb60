/* Catalog snapshot: policy filtering, sanitised names with stable suffixes,
 * compiled schemas, and the texts built from them (see catalog.h). */
#include "tools/catalog.h"
#include "tools/declarations/declarations.h"
#include "tools/names.h"
#include "tools/result_types.h"
#include "tools/schema/schema.h"
#include "tools/server_config.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    struct tools_catalog_tool pub;
    char *server, *server_id, *name, *id, *problem, *source, *advice, *scope;
    long decl; /* index in decls, or -1 (denied) */
    size_t listed; /* position in its server's list */
    int preferred; /* codemode.declarations.preferred names it */
    cJSON *tool;
    char *schema_hash; /* learning is on and the tool has no outputSchema */
    cJSON *observed;   /* the type learned from its results (a JSON Schema), or NULL */
};

struct tools_catalog {
    int refs;
    struct entry *tools;
    size_t count;
    char **servers, **server_ids; /* every server of the build */
    char **problems;              /* per server: why it has no tools, or NULL */
    unsigned char *login_only;    /* per server: no tool list until a login a call can start */
    size_t nlogin_only;
    size_t nservers;
    char **unavailable;           /* "server.tool (reason)" */
    size_t nunavailable;
    struct tools_decl_tool *decls; /* the tools that are not denied, in order */
    size_t ndecls;
    size_t budget;                 /* tokens of the description's declarations */
    char *budgeted;                /* what the model reads (tools_declarations_budgeted) */
    struct tools_decl_report report;
};

/* --- build ------------------------------------------------------------------------ */

static const char *str_member(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int task_only(const cJSON *tool)
{
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(tool, "execution");
    const char *ts = str_member(ex, "taskSupport");
    return ts && strcmp(ts, "required") == 0;
}

static void add_unavailable(struct tools_catalog *c, const char *server, const char *tool,
                            const char *why)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "%s.%s (%s)", server, tool, why);
    c->unavailable = xrealloc(c->unavailable, (c->nunavailable + 1) * sizeof *c->unavailable);
    c->unavailable[c->nunavailable++] = buf_steal(&b);
}

static struct tools_schema *compile(const cJSON *schema, char **problem)
{
    if (schema == NULL)
        return NULL;
    char *err = NULL;
    struct tools_schema *s = tools_schema_compile(schema, &err);
    if (s == NULL && problem && *problem == NULL)
        *problem = err ? err : xstrdup("the schema cannot be used");
    else
        free(err);
    return s;
}

/* Adds the callable tools of server `si`. Identifiers are assigned over all
 * the tools the server lists, before policy and task filtering, so the name
 * of a denied tool never resolves to another tool that shares its id. */
static void add_server_tools(struct tools_catalog *c, const struct tools_catalog_server *srv,
                             size_t si)
{
    size_t n = (size_t) cJSON_GetArraySize(srv->tools);
    const char **names = xcalloc(n ? n : 1, sizeof *names);
    const cJSON **all = xcalloc(n ? n : 1, sizeof *all);
    size_t k = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, srv->tools)
    {
        const char *name = str_member(t, "name");
        if (name == NULL)
            continue;
        names[k] = name;
        all[k++] = t;
    }
    const cJSON *x;
    cJSON_ArrayForEach(x, srv->excluded)
    {
        const char *name = str_member(x, "name"), *why = str_member(x, "reason");
        if (name)
            add_unavailable(c, srv->name, name, why ? why : "left out");
    }
    char **ids = tools_names_assign(names, k);
    c->tools = xrealloc(c->tools, (c->count + k + 1) * sizeof *c->tools);
    for (size_t i = 0; i < k; i++) {
        if (srv->policy && !tools_server_config_allows(srv->policy, names[i])) {
            free(ids[i]);
            continue;
        }
        if (task_only(all[i]) && !srv->supports_tasks) {
            add_unavailable(c, srv->name, names[i], "runs only as a task");
            free(ids[i]);
            continue;
        }
        struct entry *e = &c->tools[c->count++];
        memset(e, 0, sizeof *e);
        e->server = xstrdup(srv->name);
        e->server_id = xstrdup(c->server_ids[si]);
        e->name = xstrdup(names[i]);
        e->id = ids[i];
        e->tool = cJSON_Duplicate(all[i], 1);
        e->pub.input = compile(cJSON_GetObjectItemCaseSensitive(e->tool, "inputSchema"), &e->problem);
        e->pub.output = compile(cJSON_GetObjectItemCaseSensitive(e->tool, "outputSchema"), NULL);
        if (srv->learned && !cJSON_GetObjectItemCaseSensitive(e->tool, "outputSchema")) {
            e->schema_hash = tools_result_types_hash(e->tool);
            e->observed =
                tools_result_types_schema(srv->learned, srv->name, e->name, e->schema_hash);
        }
        e->pub.server_index = si;
        e->listed = i;
        struct tools_policy_names pn = {srv->name, c->server_ids[si], e->name, e->id};
        e->preferred = srv->preferred && tools_policy_granted(srv->preferred, &pn);
        e->pub.decision = tools_policy_decide(srv->rules, srv->policy, &pn, e->tool, &e->source);
        if (e->pub.decision == TOOLS_POLICY_ASK)
            e->advice = tools_policy_allow_advice(srv->rules, srv->policy, &pn, e->tool);
        const char *scope = tools_policy_scope(srv->rules, srv->policy, &pn);
        e->scope = scope && e->pub.decision != TOOLS_POLICY_DENY ? xstrdup(scope) : NULL;
        e->pub.read_only = tools_policy_read_only(e->tool) ||
                           (srv->policy && tools_server_config_read_only(srv->policy, e->name));
        if (e->pub.decision == TOOLS_POLICY_DENY)
            add_unavailable(c, srv->name, names[i], "denied by policy");
    }
    free(ids); /* the kept strings moved into the entries */
    free(names);
    free(all);
}

static int entry_cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int r = strcmp(x->server_id, y->server_id);
    return r ? r : strcmp(x->id, y->id);
}

/* Points the public views and the declaration inputs at the entries. */
static const char ask_note[] =
    "Needs approval: each call waits until a person approves it; a refusal throws "
    "ToolApprovalError.";

/* A server whose tools are not known until a login: one declaration that
 * stands for any name (tools/declarations: login_only). */
static void add_login_only(struct tools_catalog *c, size_t si)
{
    struct tools_decl_tool *d = &c->decls[c->ndecls++];
    memset(d, 0, sizeof *d);
    d->server = c->servers[si];
    d->server_id = c->server_ids[si];
    d->name = d->id = "";
    d->login_only = 1;
    d->rank = ((size_t) 1 << 40) + (si << 20);
}

static void link_views(struct tools_catalog *c)
{
    c->decls = xcalloc(c->count + c->nlogin_only + 1, sizeof *c->decls);
    for (size_t i = 0; i < c->count; i++) {
        struct entry *e = &c->tools[i];
        e->pub.server = e->server;
        e->pub.server_id = e->server_id;
        e->pub.name = e->name;
        e->pub.id = e->id;
        e->pub.tool = e->tool;
        e->pub.input_problem = e->problem;
        e->pub.decision_source = e->source;
        e->pub.allow_advice = e->advice;
        e->pub.required_scope = e->scope;
        e->pub.schema_hash = e->schema_hash;
        e->decl = -1;
        if (e->pub.decision == TOOLS_POLICY_DENY)
            continue;
        e->decl = (long) c->ndecls;
        struct tools_decl_tool *d = &c->decls[c->ndecls++];
        d->policy_note = e->pub.decision == TOOLS_POLICY_ASK ? ask_note : NULL;
        d->server = e->server;
        d->server_id = e->server_id;
        d->name = e->name;
        d->id = e->id;
        d->title = str_member(e->tool, "title");
        d->description = str_member(e->tool, "description");
        d->input_schema = cJSON_GetObjectItemCaseSensitive(e->tool, "inputSchema");
        d->output_schema = cJSON_GetObjectItemCaseSensitive(e->tool, "outputSchema");
        d->observed_output = e->observed;
        /* preferred tools first, then by server order, then as the server lists them */
        d->rank = ((e->preferred ? 0 : (size_t) 1) << 40) + (e->pub.server_index << 20) +
                  (e->listed & 0xFFFFF);
    }
    for (size_t si = 0; si < c->nservers; si++)
        if (c->login_only[si])
            add_login_only(c, si);
}

static void append_unavailable(const struct tools_catalog *c, struct buf *b);

/* What the model reads, built once per catalog. */
static void budget_declarations(struct tools_catalog *c)
{
    struct buf b;
    buf_init(&b, 0);
    tools_declarations_budgeted(c->decls, c->ndecls, c->budget, &b, &c->report);
    append_unavailable(c, &b);
    c->budgeted = buf_steal(&b);
}

struct tools_catalog *tools_catalog_build(const struct tools_catalog_server *servers, size_t n,
                                          size_t budget)
{
    struct tools_catalog *c = xcalloc(1, sizeof *c);
    c->refs = 1;
    c->budget = budget;
    const char **names = xcalloc(n ? n : 1, sizeof *names);
    for (size_t i = 0; i < n; i++)
        names[i] = servers[i].name;
    c->server_ids = tools_names_assign(names, n);
    c->servers = xcalloc(n ? n : 1, sizeof *c->servers);
    c->nservers = n;
    c->problems = xcalloc(n ? n : 1, sizeof *c->problems);
    c->login_only = xcalloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; i++) {
        c->servers[i] = xstrdup(servers[i].name);
        if (servers[i].unavailable)
            c->problems[i] = xstrdup(servers[i].unavailable);
        if (servers[i].login_only && cJSON_GetArraySize(servers[i].tools) == 0) {
            c->login_only[i] = 1;
            c->nlogin_only++;
        }
    }
    free(names);
    for (size_t i = 0; i < n; i++)
        add_server_tools(c, &servers[i], i);
    if (c->count > 1)
        qsort(c->tools, c->count, sizeof *c->tools, entry_cmp);
    link_views(c);
    budget_declarations(c);
    return c;
}

struct tools_catalog *tools_catalog_retain(struct tools_catalog *c)
{
    c->refs++;
    return c;
}

void tools_catalog_release(struct tools_catalog *c)
{
    if (c == NULL || --c->refs > 0)
        return;
    for (size_t i = 0; i < c->count; i++) {
        struct entry *e = &c->tools[i];
        free(e->server);
        free(e->server_id);
        free(e->name);
        free(e->id);
        free(e->problem);
        free(e->source);
        free(e->advice);
        free(e->scope);
        cJSON_Delete(e->tool);
        free(e->schema_hash);
        cJSON_Delete(e->observed);
        tools_schema_free(e->pub.input);
        tools_schema_free(e->pub.output);
    }
    free(c->tools);
    free(c->decls);
    free(c->budgeted);
    free(c->report.levels);
    tools_names_free(c->server_ids, c->nservers);
    for (size_t i = 0; i < c->nservers; i++) {
        free(c->servers[i]);
        free(c->problems[i]);
    }
    free(c->servers);
    free(c->problems);
    free(c->login_only);
    for (size_t i = 0; i < c->nunavailable; i++)
        free(c->unavailable[i]);
    free(c->unavailable);
    free(c);
}

size_t tools_catalog_count(const struct tools_catalog *c)
{
    return c->count;
}

const struct tools_catalog_tool *tools_catalog_at(const struct tools_catalog *c, size_t i)
{
    return i < c->count ? &c->tools[i].pub : NULL;
}

/* --- resolution ---------------------------------------------------------------------- */

/* The build index of a server named by its original name or its id, or -1. */
static long find_server(const struct tools_catalog *c, const char *s, size_t len)
{
    for (size_t i = 0; i < c->nservers; i++)
        if (strlen(c->servers[i]) == len && memcmp(c->servers[i], s, len) == 0)
            return (long) i;
    for (size_t i = 0; i < c->nservers; i++)
        if (strlen(c->server_ids[i]) == len && memcmp(c->server_ids[i], s, len) == 0)
            return (long) i;
    return -1;
}

long tools_catalog_login_server(const struct tools_catalog *c, const char *qualified)
{
    size_t slen;
    const char *tool = tools_names_split(qualified, &slen);
    long si = tool ? find_server(c, qualified, slen) : -1;
    return si >= 0 && c->login_only[si] ? si : -1;
}

int tools_catalog_has_server(const struct tools_catalog *c, const char *server)
{
    return find_server(c, server, strlen(server)) >= 0;
}

const char *tools_catalog_server_problem(const struct tools_catalog *c, const char *server,
                                         size_t len)
{
    long i = find_server(c, server, len);
    return i >= 0 ? c->problems[i] : NULL;
}

static void unknown_message(const struct tools_catalog *c, const char *qualified, char **why)
{
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "Unknown tool \"%.200s\"", qualified);
    if (strchr(qualified, '.') == NULL)
        buf_append_str(&b, " (name it as \"server.tool\")");
    buf_append_char(&b, '.');
    char **cands = xcalloc(c->count ? c->count : 1, sizeof *cands);
    for (size_t i = 0; i < c->count; i++) {
        struct buf q;
        buf_init(&q, 0);
        buf_printf(&q, "%s.%s", c->tools[i].server_id, c->tools[i].id);
        cands[i] = buf_steal(&q);
    }
    size_t before = b.len;
    tools_names_append_suggestions(&b, qualified, (const char *const *) cands, c->count, 3);
    if (b.len == before) {
        /* A bare tool name, or a typo in the server: compare tool ids alone too. */
        const char *dot = strchr(qualified, '.');
        const char *tool = dot ? dot + 1 : qualified;
        size_t idx[3];
        const char **ids = xcalloc(c->count ? c->count : 1, sizeof *ids);
        for (size_t i = 0; i < c->count; i++)
            ids[i] = c->tools[i].id;
        size_t k = tools_names_suggest(tool, ids, c->count, idx, 3);
        for (size_t i = 0; i < k; i++)
            buf_printf(&b, "%s%s", i ? ", " : " Did you mean: ", cands[idx[i]]);
        if (k)
            buf_append_char(&b, '?');
        free(ids);
    }
    if (c->count == 0)
        buf_append_str(&b, " No downstream tools are available.");
    for (size_t i = 0; i < c->count; i++)
        free(cands[i]);
    free(cands);
    *why = buf_steal(&b);
}

const struct tools_catalog_tool *tools_catalog_resolve(const struct tools_catalog *c,
                                                       const char *qualified, char **why)
{
    size_t slen;
    const char *tool = tools_names_split(qualified, &slen);
    long si = tool ? find_server(c, qualified, slen) : -1;
    if (si >= 0 && c->problems[si]) {
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "The tools of server \"%s\" are not available: %s", c->servers[si],
                   c->problems[si]);
        *why = buf_steal(&b);
        return NULL;
    }
    if (si >= 0) {
        for (size_t i = 0; i < c->count; i++)
            if (c->tools[i].pub.server_index == (size_t) si && !strcmp(c->tools[i].name, tool))
                return &c->tools[i].pub;
        for (size_t i = 0; i < c->count; i++)
            if (c->tools[i].pub.server_index == (size_t) si && !strcmp(c->tools[i].id, tool))
                return &c->tools[i].pub;
    }
    unknown_message(c, qualified, why);
    return NULL;
}

/* --- texts ------------------------------------------------------------------------------ */

static int searchable(const struct entry *e, char *const *grant);

char *tools_catalog_worker_json(const struct tools_catalog *c, char *const *grant,
                                int with_problems)
{
    cJSON *root = cJSON_CreateObject();
    for (size_t s = 0; s < c->nservers; s++) {
        cJSON *srv = cJSON_AddObjectToObject(root, c->server_ids[s]);
        cJSON_AddStringToObject(srv, "name", c->servers[s]);
        if (with_problems && c->problems[s]) /* a call of a tool says why (50_tools.js) */
            cJSON_AddStringToObject(srv, "problem", c->problems[s]);
        if (c->login_only[s]) /* any name is a call: the host logs in first */
            cJSON_AddTrueToObject(srv, "login");
        cJSON *tools = cJSON_AddObjectToObject(srv, "tools"), *hidden = NULL;
        for (size_t i = 0; i < c->count; i++) {
            if (c->tools[i].pub.server_index != s)
                continue;
            if (searchable(&c->tools[i], grant)) {
                cJSON_AddStringToObject(tools, c->tools[i].id, c->tools[i].name);
            } else { /* callable, so that the host's gate says why it is refused */
                if (hidden == NULL)
                    hidden = cJSON_AddObjectToObject(srv, "hidden");
                cJSON_AddStringToObject(hidden, c->tools[i].id, c->tools[i].name);
            }
        }
    }
    char *text = json_print(root);
    cJSON_Delete(root);
    return text;
}

static void append_unavailable(const struct tools_catalog *c, struct buf *b)
{
    for (size_t i = 0; i < c->nunavailable; i++)
        buf_printf(b, "// Not callable from programs: %s\n", c->unavailable[i]);
}

char *tools_catalog_declarations(const struct tools_catalog *c)
{
    return xstrdup(c->budgeted);
}

/* The servers declared without tools until a login, on a line of their own. */
static void report_login_only(const struct tools_catalog *c, struct buf *b)
{
    if (c->nlogin_only == 0)
        return;
    buf_append_str(b, "  declared as any tool name until a login lists their tools:");
    for (size_t i = 0; i < c->nservers; i++)
        if (c->login_only[i])
            buf_printf(b, " %s", c->server_ids[i]);
    buf_append_char(b, '\n');
}

void tools_catalog_declarations_report(const struct tools_catalog *c, struct buf *b, int brief)
{
    const struct tools_decl_report *r = &c->report;
    size_t reduced = 0;
    for (int l = TOOLS_DECL_SUMMARY; l < TOOLS_DECL_LEVELS; l++)
        reduced += r->per_level[l];
    size_t ntools = c->ndecls - c->nlogin_only;
    buf_printf(b, "declarations: %zu tools, about %zu tokens (budget %zu)", ntools, r->tokens,
               r->budget);
    if (reduced == 0) {
        buf_append_str(b, ntools ? ", every tool with its docs\n" : "\n");
        report_login_only(c, b);
        return;
    }
    buf_printf(b, ", %zu reduced:", reduced);
    const char *sep = " ";
    for (int l = TOOLS_DECL_DOCS; l < TOOLS_DECL_LEVELS; l++)
        if (r->per_level[l]) {
            buf_printf(b, "%s%zu %s", sep, r->per_level[l],
                       tools_declarations_level_name((enum tools_decl_level) l));
            sep = ", ";
        }
    buf_append_char(b, '\n');
    for (int l = TOOLS_DECL_SUMMARY; l < TOOLS_DECL_LEVELS; l++) {
        size_t shown = 0, n = r->per_level[l];
        if (n == 0)
            continue;
        buf_printf(b, "  %s:", tools_declarations_level_name((enum tools_decl_level) l));
        for (size_t i = 0; i < c->ndecls; i++) {
            if (r->levels[i] != l)
                continue;
            if (brief && shown == 8) {
                buf_printf(b, " and %zu more", n - shown);
                break;
            }
            buf_printf(b, " %s.%s", c->decls[i].server_id, c->decls[i].id);
            shown++;
        }
        buf_append_char(b, '\n');
    }
    report_login_only(c, b);
}

char *tools_catalog_declarations_full(const struct tools_catalog *c)
{
    struct buf b;
    buf_init(&b, 0);
    tools_declarations_full(c->decls, c->ndecls, &b);
    append_unavailable(c, &b);
    return buf_steal(&b);
}

char *tools_catalog_declarations_server(const struct tools_catalog *c, const char *server_id)
{
    struct buf b;
    buf_init(&b, 0);
    if (tools_declarations_server(c->decls, c->ndecls, server_id, &b) != 0) {
        buf_free(&b);
        return NULL;
    }
    return buf_steal(&b);
}

char *tools_catalog_describe(const struct tools_catalog *c, const struct tools_catalog_tool *t)
{
    size_t index = (size_t) ((const struct entry *) t - c->tools);
    struct buf b;
    buf_init(&b, 0);
    if (index >= c->count || c->tools[index].decl < 0 ||
        tools_declarations_tool(c->decls, c->ndecls, (size_t) c->tools[index].decl, &b) != 0) {
        buf_free(&b);
        return NULL;
    }
    return buf_steal(&b);
}

size_t tools_catalog_server_count(const struct tools_catalog *c)
{
    return c->nservers;
}

const char *tools_catalog_server_name(const struct tools_catalog *c, size_t i)
{
    return i < c->nservers ? c->servers[i] : NULL;
}

const char *tools_catalog_server_id(const struct tools_catalog *c, size_t i)
{
    return i < c->nservers ? c->server_ids[i] : NULL;
}

/* --- search -------------------------------------------------------------------------------- */

static int contains_ci(const char *hay, const char *needle, size_t nlen)
{
    if (hay == NULL || nlen == 0)
        return 0;
    for (const char *p = hay; *p; p++) {
        size_t i = 0;
        while (i < nlen && p[i] && tolower((unsigned char) p[i]) == tolower((unsigned char) needle[i]))
            i++;
        if (i == nlen)
            return 1;
    }
    return 0;
}

/* Scores a tool against the words of the query: a word in the name counts
 * more than a word in the title or description. */
/* The next word (a run of letters and digits) of *p, or NULL at the end;
 * *n gets its length and *p moves past it. */
static const char *next_word(const char **p, size_t *n)
{
    const char *s = *p;
    while (*s && !isalnum((unsigned char) *s))
        s++;
    const char *w = s;
    while (*s && isalnum((unsigned char) *s))
        s++;
    *p = s;
    *n = (size_t) (s - w);
    return *n ? w : NULL;
}

static int score(const struct entry *e, const char *query)
{
    int total = 0;
    const char *p = query, *w;
    size_t n;
    while ((w = next_word(&p, &n)) != NULL) {
        if (contains_ci(e->name, w, n) || contains_ci(e->id, w, n))
            total += 10;
        if (contains_ci(e->server, w, n))
            total += 4;
        if (contains_ci(str_member(e->tool, "title"), w, n))
            total += 3;
        if (contains_ci(str_member(e->tool, "description"), w, n))
            total += 2;
    }
    return total;
}

struct hit {
    size_t index;
    int score;
};

static int hit_cmp(const void *a, const void *b)
{
    const struct hit *x = a, *y = b;
    if (x->score != y->score)
        return y->score - x->score;
    return x->index < y->index ? -1 : x->index > y->index;
}

struct tools_policy_names tools_catalog_policy_names(const struct tools_catalog_tool *t)
{
    struct tools_policy_names n = {t->server, t->server_id, t->name, t->id};
    return n;
}

static int searchable(const struct entry *e, char *const *grant)
{
    if (e->decl < 0)
        return 0;
    struct tools_policy_names n = tools_catalog_policy_names(&e->pub);
    return grant == NULL || tools_policy_granted(grant, &n);
}

/* 1 when a word of query is in the server's name or id. */
static int names_server(const struct tools_catalog *c, size_t si, const char *query)
{
    const char *p = query, *w;
    size_t n;
    while ((w = next_word(&p, &n)) != NULL)
        if (contains_ci(c->servers[si], w, n) || contains_ci(c->server_ids[si], w, n))
            return 1;
    return 0;
}

/* The servers whose tools are not known until a login, when the query names
 * them (or asks for everything): "server.*" and what to do. */
static void search_login_only(const struct tools_catalog *c, const char *query, int everything,
                              cJSON *arr)
{
    for (size_t si = 0; si < c->nservers; si++) {
        if (!c->login_only[si] || !(everything || names_server(c, si, query)))
            continue;
        struct buf name, sum;
        buf_init(&name, 0);
        buf_init(&sum, 0);
        buf_printf(&name, "%s.*", c->server_ids[si]);
        buf_printf(&sum,
                   "Needs login: its tools are not known yet; calling any tools.%s.NAME(args) "
                   "logs in first",
                   c->server_ids[si]);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", name.data);
        cJSON_AddStringToObject(o, "summary", sum.data);
        cJSON_AddItemToArray(arr, o);
        buf_free(&name);
        buf_free(&sum);
    }
}

char *tools_catalog_search(const struct tools_catalog *c, const char *query, size_t limit,
                           char *const *grant)
{
    struct hit *hits = xcalloc(c->count ? c->count : 1, sizeof *hits);
    size_t n = 0;
    int everything = query == NULL || strspn(query, " \t") == strlen(query);
    for (size_t i = 0; i < c->count; i++) {
        if (!searchable(&c->tools[i], grant))
            continue;
        int s = everything ? 1 : score(&c->tools[i], query);
        if (s > 0)
            hits[n++] = (struct hit){i, s};
    }
    qsort(hits, n, sizeof *hits, hit_cmp);
    cJSON *arr = cJSON_CreateArray();
    search_login_only(c, query, everything, arr);
    for (size_t i = 0; i < n && (size_t) cJSON_GetArraySize(arr) < limit; i++) {
        const struct entry *e = &c->tools[hits[i].index];
        cJSON *o = cJSON_CreateObject();
        struct buf q;
        buf_init(&q, 0);
        buf_printf(&q, "%s.%s", e->server_id, e->id);
        cJSON_AddStringToObject(o, "name", q.data);
        buf_free(&q);
        char *sum = tools_declarations_summary(str_member(e->tool, "description"),
                                               str_member(e->tool, "title"), 0);
        cJSON_AddStringToObject(o, "summary", sum);
        free(sum);
        cJSON_AddItemToArray(arr, o);
    }
    free(hits);
    char *text = json_print(arr);
    cJSON_Delete(arr);
    return text;
}
