/* Identification and references: $schema picks the dialect, $id starts a new
 * resource (base URI), $anchor/$dynamicAnchor (and draft-07 "#name" ids)
 * name nodes, and every $ref/$dynamicRef is resolved at compile time to a
 * node: by resource URI, then JSON Pointer or anchor. References to documents
 * we do not have (remote URLs, metaschemas) are noted and validate as true. */
#include "tools/schema/compile.h"
#include "tools/schema/uri.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_BASE "tools-schema://local/schema.json"

static const cJSON *kw(const cJSON *obj, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name);
}

struct schema__resource *schema__resource_new(struct schema__compiler *cp, const char *uri,
                                              enum schema_draft draft)
{
    struct schema__resource *r = schema__alloc(cp->s, sizeof *r);
    r->uri = schema__strdup(cp->s, uri);
    r->draft = draft;
    r->next = cp->s->resources;
    cp->s->resources = r;
    return r;
}

static struct schema__resource *find_resource(const struct tools_schema *s, const char *uri)
{
    for (struct schema__resource *r = s->resources; r; r = r->next)
        if (strcmp(r->uri, uri) == 0 && r->root)
            return r;
    return NULL;
}

static struct schema__anchor *find_anchor(const struct schema__resource *r, const char *name)
{
    for (struct schema__anchor *a = r->anchors; a; a = a->next)
        if (strcmp(a->name, name) == 0)
            return a;
    return NULL;
}

/* The first anchor of a name wins; later duplicates are ignored. */
static void add_anchor(struct schema__compiler *cp, struct schema__resource *r, const char *name,
                       struct schema__node *n, int dynamic)
{
    if (find_anchor(r, name))
        return;
    struct schema__anchor *a = schema__alloc(cp->s, sizeof *a);
    a->name = schema__strdup(cp->s, name);
    a->node = n;
    a->dynamic = dynamic;
    a->next = r->anchors;
    r->anchors = a;
}

static void note_unresolved(struct schema__compiler *cp, const char *uri)
{
    if (cp->s->unresolved == NULL)
        cp->s->unresolved = xstrdup(uri);
}

/* Maps a $schema URI to a dialect; -1 for a metaschema we do not know. */
static int dialect(const char *uri, enum schema_draft *out)
{
    static const struct {
        const char *tail;
        enum schema_draft draft;
    } known[] = {
        {"json-schema.org/draft/2020-12/schema", SCHEMA_DRAFT2020},
        {"json-schema.org/draft/2019-09/schema", SCHEMA_DRAFT2020},
        {"json-schema.org/draft-07/schema", SCHEMA_DRAFT7},
        {"json-schema.org/draft-06/schema", SCHEMA_DRAFT7},
        {"json-schema.org/draft-04/schema", SCHEMA_DRAFT7},
    };
    if (strncmp(uri, "https://", 8) == 0)
        uri += 8;
    else if (strncmp(uri, "http://", 7) == 0)
        uri += 7;
    size_t len = strlen(uri);
    if (len && uri[len - 1] == '#')
        len--;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i].tail) == len && strncmp(known[i].tail, uri, len) == 0) {
            *out = known[i].draft;
            return 0;
        }
    return -1;
}

/* $id: a new resource when the URI (without fragment) changes; a plain-name
 * fragment (draft-07 "#foo") is an anchor. */
static struct schema__resource *apply_id(struct schema__compiler *cp, const char *id,
                                         struct schema__resource *res, enum schema_draft draft,
                                         struct schema__node *n)
{
    char *abs = schema__uri_resolve(res->uri, id);
    char *hash = strchr(abs, '#');
    const char *frag = "";
    if (hash) {
        *hash = '\0';
        frag = hash + 1;
    }
    if (abs[0] && strcmp(abs, res->uri) != 0) {
        res = schema__resource_new(cp, abs, draft);
        res->root = n;
    }
    if (frag[0] && frag[0] != '/')
        add_anchor(cp, res, frag, n, 0);
    free(abs);
    return res;
}

int schema__identify(struct schema__compiler *cp, const cJSON *js, struct schema__node *n)
{
    struct schema__resource *res = n->res;
    const cJSON *sch = kw(js, "$schema"), *id = kw(js, "$id");
    int is_root = js == cp->s->doc;
    enum schema_draft draft = res->draft;
    if (cJSON_IsString(sch) && (is_root || cJSON_IsString(id)) &&
        dialect(sch->valuestring, &draft) < 0)
        note_unresolved(cp, sch->valuestring);
    if (draft == SCHEMA_DRAFT7 && kw(js, "$ref"))
        id = NULL; /* draft-07: a $ref makes its siblings, $id included, ignored */
    if (is_root)
        res->draft = draft;
    if (cJSON_IsString(id))
        res = apply_id(cp, id->valuestring, res, draft, n);
    n->res = res;
    if (draft != SCHEMA_DRAFT2020)
        return 0;
    const cJSON *anchor = kw(js, "$anchor"), *dyn = kw(js, "$dynamicAnchor");
    if (cJSON_IsString(anchor))
        add_anchor(cp, res, anchor->valuestring, n, 0);
    if (cJSON_IsString(dyn))
        add_anchor(cp, res, dyn->valuestring, n, 1);
    return 0;
}

void schema__ref_pending(struct schema__compiler *cp, struct schema__node *n, const char *ref,
                         int dynamic)
{
    if (cp->npend == cp->cap_pend) {
        cp->cap_pend = cp->cap_pend ? cp->cap_pend * 2 : 16;
        cp->pend = xrealloc(cp->pend, cp->cap_pend * sizeof *cp->pend);
    }
    struct schema__pending *p = &cp->pend[cp->npend++];
    p->node = n;
    p->ref = ref;
    p->dynamic = dynamic;
    p->where = xstrdup(cp->path.len ? cp->path.data : "");
}

/* One reference token of a JSON Pointer, unescaped (~1 is "/", ~0 is "~"). */
static char *pointer_token(const char *p, size_t len)
{
    char *tok = xmalloc(len + 1);
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '~' && i + 1 < len && (p[i + 1] == '0' || p[i + 1] == '1'))
            tok[k++] = p[++i] == '0' ? '~' : '/';
        else
            tok[k++] = p[i];
    }
    tok[k] = '\0';
    return tok;
}

static const cJSON *pointer_step(const cJSON *cur, const char *tok)
{
    if (cJSON_IsObject(cur))
        return cJSON_GetObjectItemCaseSensitive(cur, tok);
    if (!cJSON_IsArray(cur) || tok[0] == '\0' || strspn(tok, "0123456789") != strlen(tok) ||
        (tok[0] == '0' && tok[1]) || strlen(tok) > 9)
        return NULL;
    return cJSON_GetArrayItem(cur, atoi(tok));
}

/* Follows a JSON Pointer from a resource root; compiles the target on demand
 * (in the resource of its nearest compiled ancestor). NULL if it leads nowhere. */
static struct schema__node *pointer_target(struct schema__compiler *cp,
                                           struct schema__resource *res, const char *ptr)
{
    const cJSON *cur = res->root->json;
    struct schema__resource *base = res;
    while (cur && *ptr == '/') {
        size_t len = strcspn(ptr + 1, "/");
        char *tok = pointer_token(ptr + 1, len);
        cur = pointer_step(cur, tok);
        free(tok);
        ptr += 1 + len;
        struct schema__node *m = cur ? schema__map_get(cp, cur) : NULL;
        if (m)
            base = m->res;
    }
    if (cur == NULL)
        return NULL;
    struct schema__node *n = schema__map_get(cp, cur);
    return n ? n : schema__compile_node(cp, cur, base);
}

static void bind(struct schema__compiler *cp, const struct schema__pending *p,
                 struct schema__node *target, const struct schema__anchor *a)
{
    if (!p->dynamic) {
        p->node->ref = target;
        return;
    }
    p->node->dyn_ref = target;
    if (a && a->dynamic) { /* only then does the dynamic scope take part */
        p->node->dyn_name = a->name;
        cp->s->has_dynamic = 1;
    }
}

static int resolve_one(struct schema__compiler *cp, const struct schema__pending *p)
{
    char *abs = schema__uri_resolve(p->node->res->uri, p->ref);
    char *hash = strchr(abs, '#');
    int unresolved = 0;
    char *frag = schema__uri_percent_decode(hash ? hash + 1 : "", hash ? strlen(hash + 1) : 0);
    if (hash)
        *hash = '\0';
    struct schema__resource *res = find_resource(cp->s, abs);
    struct schema__node *target = NULL;
    const struct schema__anchor *a = NULL;
    if (res == NULL) {
        p->node->ref_unresolved = 1;
        unresolved = 1;
    } else if (frag[0] == '\0') {
        target = res->root;
    } else if (frag[0] == '/') {
        target = pointer_target(cp, res, frag);
    } else if ((a = find_anchor(res, frag)) != NULL) {
        target = a->node;
    }
    if (res && target == NULL && !cp->err)
        schema__fail(cp, "%s \"%s\" does not resolve to a schema in this document",
                     p->dynamic ? "$dynamicRef" : "$ref", p->ref);
    if (target)
        bind(cp, p, target, a);
    if (unresolved) {
        if (hash)
            *hash = '#';
        note_unresolved(cp, abs);
    }
    free(frag);
    free(abs);
    return cp->err ? -1 : 0;
}

int schema__ref_resolve_all(struct schema__compiler *cp)
{
    /* Targets compiled on demand may queue more references: loop by index. */
    for (size_t i = 0; i < cp->npend && !cp->err; i++) {
        struct schema__pending p = cp->pend[i];
        buf_reset(&cp->path);
        buf_append_str(&cp->path, p.where);
        buf_append_str(&cp->path, p.dynamic ? "/$dynamicRef" : "/$ref");
        resolve_one(cp, &p);
    }
    return cp->err ? -1 : 0;
}

static void compiler_free(struct schema__compiler *cp)
{
    for (size_t i = 0; i < cp->npend; i++)
        free(cp->pend[i].where);
    free(cp->pend);
    free(cp->map_keys);
    free(cp->map_vals);
    buf_free(&cp->path);
}

/* An entry point other than the document root: a node holding only a $ref,
 * resolved like any other (against the root's base URI). */
static struct schema__node *entry_node(struct schema__compiler *cp, const char *ref)
{
    struct schema__node *n = schema__alloc(cp->s, sizeof *n);
    n->json = cp->s->doc;
    n->res = cp->s->root->res;
    n->kind = K_OBJECT;
    n->groups = G_REF;
    schema__ref_pending(cp, n, ref, 0);
    return n;
}

int schema__build(struct tools_schema *s, enum schema_draft draft, const char *entry, char **err)
{
    struct schema__compiler cp;
    memset(&cp, 0, sizeof cp);
    cp.s = s;
    buf_init(&cp.path, 0);
    struct schema__resource *def = schema__resource_new(&cp, DEFAULT_BASE, draft);
    s->root = schema__compile_node(&cp, s->doc, def);
    def->root = s->root;
    if (!cp.err && entry)
        s->root = entry_node(&cp, entry);
    if (!cp.err)
        schema__ref_resolve_all(&cp);
    if (!cp.err && entry && s->root->ref == NULL)
        schema__fail(&cp, "the entry \"%s\" is not in this document", entry);
    compiler_free(&cp);
    if (cp.err) {
        if (err)
            *err = cp.err;
        else
            free(cp.err);
        return -1;
    }
    return 0;
}
