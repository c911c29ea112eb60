/* The declarations driver: sorts the tools, analyses every schema document
 * once, names the type aliases (one namespace for all servers, so names are
 * the same in the full text and in one server's or one tool's text), and
 * writes `declare namespace Types` plus `declare const tools`. */
#include "tools/declarations/declarations.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "tools/declarations/doc.h"
#include "tools/declarations/refs.h"
#include "tools/declarations/types.h"
#include "tools/declarations/set.h"
#include "tools/names.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const char *s)
{
    return s ? s : "";
}

/* Appends "<base>.<name>" or "<base>[\"name\"]" as JavaScript would need. */
static void member_access(struct buf *out, const char *name)
{
    size_t n = strlen(name);
    if (tools_names_is_identifier(name, n)) {
        buf_append_char(out, '.');
        buf_append(out, name, n);
    } else {
        buf_append_char(out, '[');
        json_append_string(out, name, n);
        buf_append_char(out, ']');
    }
}

/* Tool descriptions up to this many bytes stay whole at TOOLS_DECL_DOCS. */
#define TOOL_DOC_KEEP 120
/* The one-line approval mark of the reduced levels (the preamble's
 * ToolApprovalError names it). */
static const char approval_mark[] = "Needs approval.";

struct emitter {
    struct tools__decl_set *set;
    const unsigned char *levels; /* per tool index; NULL: every tool FULL */
    const struct tools__decl_filter *f;
    int any_name; /* a tool was written by name only */
};

static int level_of(const struct emitter *em, size_t i)
{
    return em->levels ? em->levels[i] : TOOLS_DECL_FULL;
}

/* The clean text on one line (newlines as spaces, runs of spaces as one). */
static void one_line(struct buf *out, const char *s)
{
    struct buf c;
    buf_init(&c, 0);
    tools__decl_doc_clean(&c, s);
    int space = 0;
    for (size_t i = 0; i < c.len; i++) {
        char ch = c.data[i] == '\n' ? ' ' : c.data[i];
        if (ch == ' ') {
            space = 1;
            continue;
        }
        if (space && out->len)
            buf_append_char(out, ' ');
        space = 0;
        buf_append_char(out, ch);
    }
    buf_free(&c);
}

/* The FULL doc's line on a result type learned from results. */
static const char observed_note[] =
    "The result type is observed: learned from earlier results (the tool declares no "
    "outputSchema), so a result may differ.";

static void full_tool_doc(struct buf *text, const struct tools_decl_tool *t, const char *d)
{
    tools__decl_doc_clean(text, d);
    if (t->observed_output && !t->output_schema) {
        if (text->len)
            buf_append_char(text, '\n');
        tools__decl_doc_clean(text, observed_note);
    }
    if (t->policy_note) {
        if (text->len)
            buf_append_char(text, '\n');
        tools__decl_doc_clean(text, t->policy_note);
    }
    if (strcmp(str(t->name), str(t->id)) == 0)
        return;
    struct buf raw;
    buf_init(&raw, 0);
    buf_append_str(&raw, "Original name: ");
    json_append_string(&raw, str(t->name), strlen(str(t->name)));
    buf_append_str(&raw, " (also tools");
    member_access(&raw, str(t->server_id));
    buf_append_char(&raw, '[');
    json_append_string(&raw, str(t->name), strlen(str(t->name)));
    buf_append_str(&raw, "])");
    if (text->len)
        buf_append_char(text, '\n');
    tools__decl_doc_clean(text, raw.data);
    buf_free(&raw);
}

/* The tool's doc at `level`: everything (FULL); a short description whole or
 * the first sentence of a long one (DOCS); the first sentence (SUMMARY);
 * nothing (below). The approval mark stays at every level. */
static void tool_doc(struct buf *text, const struct tools_decl_tool *t, int level)
{
    const char *d = t->description && t->description[0] ? t->description : t->title;
    if (level == TOOLS_DECL_FULL) {
        full_tool_doc(text, t, d);
        return;
    }
    if (level == TOOLS_DECL_DOCS) {
        one_line(text, d);
        if (text->len > TOOL_DOC_KEEP) {
            char *first = tools_declarations_summary(t->description, t->title, TOOL_DOC_KEEP);
            buf_reset(text);
            buf_append_str(text, first);
            free(first);
        }
    } else if (level == TOOLS_DECL_SUMMARY) {
        char *first = tools_declarations_summary(t->description, t->title, 0);
        buf_append_str(text, first);
        free(first);
    }
    if (t->policy_note) {
        if (text->len && strchr(".!?", text->data[text->len - 1]) == NULL)
            buf_append_char(text, '.');
        if (text->len)
            buf_append_char(text, ' ');
        buf_append_str(text, approval_mark);
    }
}

static void emit_tool(struct buf *out, struct emitter *em, size_t i)
{
    struct tools__decl_set *set = em->set;
    const struct tools_decl_tool *t = &set->tools[i];
    int level = level_of(em, i);
    struct tools__decl_ctx cx = {level, &set->shapes, NULL};
    struct buf doc;
    buf_init(&doc, 0);
    tool_doc(&doc, t, level);
    tools__decl_indent(out, 2);
    tools__decl_doc_emit(out, doc.data, 2, 0);
    buf_free(&doc);
    if (t->login_only) { /* any name: the real list comes after the login */
        buf_append_str(out, "[tool: string]: (args?: object) => Promise<unknown>;\n");
        return;
    }
    tools__decl_key(out, str(t->id));
    if (level == TOOLS_DECL_NAME) {
        buf_append_str(out, ": AnyTool;\n");
        em->any_name = 1;
        return;
    }
    buf_append_str(out, tools__decl_args_optional(&set->in[i]) ? "(args?: " : "(args: ");
    tools__decl_root(&set->in[i], &cx, 2, out);
    buf_append_str(out, "): Promise<");
    if (set->has_out[i] == TOOLS__DECL_OUT_OBSERVED)
        buf_append_str(out, "/* observed */ ");
    if (set->has_out[i])
        tools__decl_root(&set->out[i], &cx, 2, out);
    else
        buf_append_str(out, "unknown");
    buf_append_str(out, ">;\n");
}

static void emit_server_head(struct buf *out, const struct tools_decl_tool *t, int full)
{
    tools__decl_indent(out, 1);
    if (full && strcmp(str(t->server), str(t->server_id)) != 0) {
        struct buf raw, doc;
        buf_init(&raw, 0);
        buf_init(&doc, 0);
        buf_append_str(&raw, "Server ");
        json_append_string(&raw, str(t->server), strlen(str(t->server)));
        buf_append_str(&raw, " (also tools[");
        json_append_string(&raw, str(t->server), strlen(str(t->server)));
        buf_append_str(&raw, "])");
        tools__decl_doc_clean(&doc, raw.data);
        tools__decl_doc_emit(out, doc.data, 1, 0);
        buf_free(&doc);
        buf_free(&raw);
    }
    tools__decl_key(out, str(t->server_id));
    buf_append_str(out, ": {\n");
}

/* The head of a server whose tools are not known until a login: what the
 * model can do about it. */
static void emit_login_head(struct buf *out, const struct tools_decl_tool *t)
{
    const char *name = str(t->server), *id = str(t->server_id);
    struct buf raw, doc;
    buf_init(&raw, 0);
    buf_init(&doc, 0);
    buf_append_str(&raw, "Needs login: the tools of server ");
    json_append_string(&raw, name, strlen(name));
    buf_printf(
        &raw,
        " are not known until someone logs in. Calling any of its tools (tools.%s.NAME(args), "
        "callTool(\"%s.NAME\", args)) logs in first: the client is asked to open the login "
        "page, then the call is checked against the real tools and sent. Or ask the user to "
        "run `mcp-codemode login ",
        id, id);
    buf_append_str(&raw, name);
    buf_append_str(&raw, "`. A client that cannot open the page gets ToolAuthError.");
    tools__decl_doc_clean(&doc, raw.data);
    tools__decl_indent(out, 1);
    tools__decl_doc_emit(out, doc.data, 1, 0);
    tools__decl_key(out, id);
    buf_append_str(out, ": {\n");
    buf_free(&doc);
    buf_free(&raw);
}

static void emit_tools_object(struct buf *out, struct emitter *em)
{
    struct tools__decl_set *set = em->set;
    buf_append_str(out, "declare const tools: {\n");
    const char *open = NULL; /* server_id of the open server block */
    for (size_t k = 0; k < set->n; k++) {
        size_t i = set->order[k];
        if (!tools__decl_selected(set, em->f, i))
            continue;
        const struct tools_decl_tool *t = &set->tools[i];
        if (open == NULL || strcmp(open, str(t->server_id)) != 0) {
            if (open)
                buf_append_str(out, "  };\n");
            if (t->login_only)
                emit_login_head(out, t);
            else
                emit_server_head(out, t, level_of(em, i) == TOOLS_DECL_FULL);
            open = str(t->server_id);
        }
        emit_tool(out, em, i);
    }
    if (open)
        buf_append_str(out, "  };\n");
    buf_append_str(out, "};\n");
}

/* --- the aliases a text names ---------------------------------------------------------- */

static void reset_doc(struct tools__decl_doc *d)
{
    for (size_t j = 0; j < d->n; j++) {
        d->t[j].want = d->t[j].have = 0;
        free(d->t[j].body);
        d->t[j].body = NULL;
    }
}

static void reset_uses(struct tools__decl_set *set)
{
    for (size_t k = 0; k < set->n; k++) {
        size_t i = set->order[k];
        reset_doc(&set->in[i]);
        if (set->has_out[i])
            reset_doc(&set->out[i]);
    }
    for (size_t j = 0; j < set->shapes.n; j++) {
        struct tools__decl_shape *sh = &set->shapes.v[j];
        sh->want = sh->have = 0;
        free(sh->body);
        sh->body = NULL;
    }
}

/* Renders the body of every alias named so far at the most detailed level
 * that names it; returns 1 when it rendered any (and so may have named
 * more). */
static int render_doc_aliases(struct tools__decl_set *set, struct tools__decl_doc *d)
{
    int changed = 0;
    for (size_t j = 0; j < d->n; j++) {
        struct tools__decl_target *t = &d->t[j];
        if (!t->aliased || t->alias == NULL || t->want == 0 || t->want == t->have)
            continue;
        struct tools__decl_ctx cx = {t->want - 1, &set->shapes, NULL};
        struct buf b;
        buf_init(&b, 0);
        t->have = t->want;
        tools__decl_alias_body(d, j, &cx, 1, &b);
        free(t->body);
        t->body = buf_steal(&b);
        changed = 1;
    }
    return changed;
}

static int render_shapes(struct tools__decl_set *set)
{
    int changed = 0;
    for (size_t j = 0; j < set->shapes.n; j++) {
        struct tools__decl_shape *sh = &set->shapes.v[j];
        if (sh->want == 0 || sh->want == sh->have)
            continue;
        struct tools__decl_ctx cx = {sh->want - 1, &set->shapes, sh->node};
        struct buf b;
        buf_init(&b, 0);
        sh->have = sh->want;
        tools__decl_node_body(sh->doc, sh->node, &cx, 1, &b);
        free(sh->body);
        sh->body = buf_steal(&b);
        changed = 1;
    }
    return changed;
}

static void render_aliases(struct tools__decl_set *set)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t k = 0; k < set->n; k++) {
            size_t i = set->order[k];
            changed |= render_doc_aliases(set, &set->in[i]);
            if (set->has_out[i])
                changed |= render_doc_aliases(set, &set->out[i]);
        }
        changed |= render_shapes(set);
    }
}

static void open_namespace(struct buf *out, int *opened)
{
    if (!*opened)
        buf_append_str(out, "declare namespace " TOOLS__DECL_NAMESPACE " {\n");
    *opened = 1;
}

static void emit_doc_aliases(struct buf *out, struct tools__decl_doc *d, int *opened)
{
    for (size_t j = 0; j < d->n; j++) {
        const struct tools__decl_target *t = &d->t[j];
        if (t->body == NULL)
            continue;
        open_namespace(out, opened);
        struct buf doc;
        buf_init(&doc, 0);
        tools__decl_doc_of_schema_at(&doc, t->node, t->have - 1);
        tools__decl_indent(out, 1);
        tools__decl_doc_emit(out, doc.data, 1, 0);
        buf_printf(out, "type %s = %s;\n", t->alias, t->body);
        buf_free(&doc);
    }
}

static void emit_aliases(struct buf *out, struct tools__decl_set *set)
{
    int opened = 0;
    for (size_t k = 0; k < set->n; k++) {
        size_t i = set->order[k];
        emit_doc_aliases(out, &set->in[i], &opened);
        if (set->has_out[i])
            emit_doc_aliases(out, &set->out[i], &opened);
    }
    for (size_t j = 0; j < set->shapes.n; j++) {
        const struct tools__decl_shape *sh = &set->shapes.v[j];
        if (sh->body == NULL)
            continue;
        open_namespace(out, &opened);
        buf_printf(out, "  type %s = %s;\n", sh->name, sh->body);
    }
    if (opened)
        buf_append_str(out, "}\n");
}

/* Appends tmp to out in one step: all or nothing. */
static int deliver(struct buf *out, struct buf *tmp)
{
    int rc = buf_append(out, tmp->len ? tmp->data : "", tmp->len) < 0 ? -ENOSPC : 0;
    buf_free(tmp);
    return rc;
}

static const char any_tool_text[] =
    "/** Declared by name only: describeTool(\"server.tool\") gives its arguments. */\n"
    "type AnyTool = (args?: object) => Promise<unknown>;\n";

void tools__decl_emit(struct buf *out, struct tools__decl_set *set,
                      const struct tools__decl_filter *f, const unsigned char *levels)
{
    struct emitter em = {set, levels, f, 0};
    struct buf body;
    buf_init(&body, 0);
    reset_uses(set);
    emit_tools_object(&body, &em);
    render_aliases(set);
    emit_aliases(out, set);
    if (em.any_name)
        buf_append_str(out, any_tool_text);
    buf_append(out, body.len ? body.data : "", body.len);
    buf_free(&body);
}

size_t tools__decl_tool_bytes(struct tools__decl_set *set, size_t i, int level)
{
    unsigned char *levels = xcalloc(set->count ? set->count : 1, 1);
    levels[i] = (unsigned char) level;
    struct tools__decl_filter all = {NULL, NULL};
    struct emitter em = {set, levels, &all, 0};
    struct buf b;
    buf_init(&b, 0);
    emit_tool(&b, &em, i);
    size_t n = b.len;
    buf_free(&b);
    free(levels);
    return n;
}

static void emit_declarations(struct buf *tmp, const struct tools_decl_tool *tools, size_t count,
                              const struct tools__decl_filter *f, const unsigned char *levels)
{
    struct tools__decl_set set;
    tools__decl_set_build(&set, tools, count);
    tools__decl_emit(tmp, &set, f, levels);
    tools__decl_set_free(&set);
}

int tools_declarations_full(const struct tools_decl_tool *tools, size_t count, struct buf *out)
{
    return tools_declarations_at(tools, count, NULL, out);
}

int tools_declarations_at(const struct tools_decl_tool *tools, size_t count,
                          const unsigned char *levels, struct buf *out)
{
    struct buf tmp;
    buf_init(&tmp, 0);
    tools_declarations_runtime(&tmp);
    struct tools__decl_filter all = {NULL, NULL};
    emit_declarations(&tmp, tools, count, &all, levels);
    return deliver(out, &tmp);
}

int tools_declarations_server(const struct tools_decl_tool *tools, size_t count,
                              const char *server_id, struct buf *out)
{
    size_t i = 0;
    while (i < count && strcmp(str(tools[i].server_id), str(server_id)) != 0)
        i++;
    if (i == count)
        return -ENOENT;
    struct buf tmp;
    buf_init(&tmp, 0);
    struct tools__decl_filter f = {str(server_id), NULL};
    emit_declarations(&tmp, tools, count, &f, NULL);
    return deliver(out, &tmp);
}

int tools_declarations_tool(const struct tools_decl_tool *tools, size_t count, size_t index,
                            struct buf *out)
{
    if (index >= count)
        return -EINVAL;
    struct buf tmp;
    buf_init(&tmp, 0);
    struct tools__decl_filter f = {str(tools[index].server_id), str(tools[index].id)};
    emit_declarations(&tmp, tools, count, &f, NULL);
    return deliver(out, &tmp);
}

int tools_declarations_for_budget(const struct tools_decl_tool *tools, size_t count, size_t budget,
                                  struct buf *out)
{
    struct buf full;
    buf_init(&full, 0);
    tools_declarations_full(tools, count, &full);
    if (full.len <= (budget ? budget : 32 * 1024))
        return deliver(out, &full);
    buf_free(&full);
    int rc = tools_declarations_index(tools, count, out);
    return rc < 0 ? rc : 1;
}
