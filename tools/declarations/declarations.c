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

static const char runtime_text[] =
    "/** Thrown when a tool returns isError: true; message is the tool's error text, tool is "
    "\"server.tool\". */\n"
    "declare class ToolError extends Error { tool: string; result: unknown }\n"
    "/** Thrown before a call is sent when args do not match the tool's inputSchema; message "
    "lists every violation. */\n"
    "declare class ToolArgumentError extends Error { tool: string; violations: Array<{ path: string; keyword: string; message: string }> }\n"
    "/** Thrown, before anything is sent, when the policy denies the tool or this execution was "
    "not granted it; retrying does not help. */\n"
    "declare class ToolPolicyError extends ToolError { decision: \"deny\" | \"not_granted\" }\n"
    "/** Thrown when a call that needs approval was not approved (declined, cancelled, timed out, "
    "or nobody can be asked); reason says which. */\n"
    "declare class ToolApprovalError extends ToolError { reason: string }\n"
    "/** Calls a tool by \"server.tool\", original or sanitised names (the server ends at the "
    "first dot). */\n"
    "declare function callTool(name: string, args?: object): Promise<unknown>;\n"
    "/** Tools whose name or description matches the query, best first; name is "
    "\"server.tool\". */\n"
    "declare function searchTools(query: string): Promise<Array<{ name: string; summary: string "
    "}>>;\n"
    "/** The TypeScript declaration of one tool, by \"server.tool\". */\n"
    "declare function describeTool(name: string): Promise<string>;\n"
    "declare function sleep(ms: number): Promise<void>;\n"
    "declare function setTimeout(callback: (...args: any[]) => void, ms?: number, ...args: "
    "any[]): number;\n"
    "declare function clearTimeout(id?: number): void;\n"
    "declare const console: { log(...data: unknown[]): void; info(...data: unknown[]): void; "
    "warn(...data: unknown[]): void; error(...data: unknown[]): void; debug(...data: "
    "unknown[]): void };\n";

/* Binary data and content (sandbox/prelude/55_content.js). */
static const char content_text[] =
    "declare namespace Content {\n"
    "  /** MCP content blocks, as tools return them and content.* makes them; data and blob are "
    "base64. */\n"
    "  type Text = { type: \"text\"; text: string };\n"
    "  type Image = { type: \"image\"; data: string; mimeType: string };\n"
    "  type Audio = { type: \"audio\"; data: string; mimeType: string };\n"
    "  type Resource = { type: \"resource\"; resource: { uri: string; mimeType?: string; text?: "
    "string; blob?: string } };\n"
    "  type ResourceLink = { type: \"resource_link\"; uri: string; name: string; mimeType?: "
    "string; size?: number; description?: string };\n"
    "  type Block = Text | Image | Audio | Resource | ResourceLink;\n"
    "}\n"
    "/** Return one of these (or an array of them) and the client gets real content blocks "
    "(images it can show) instead of JSON text. */\n"
    "declare const content: {\n"
    "  text(text: string): Content.Text;\n"
    "  image(data: string | Uint8Array, mimeType: string): Content.Image;\n"
    "  audio(data: string | Uint8Array, mimeType: string): Content.Audio;\n"
    "  resource(r: { uri: string; mimeType?: string; text?: string; blob?: string | Uint8Array "
    "}): Content.Resource;\n"
    "  /** Keeps value on the server for a while as a resource the client can read "
    "(resources/read); resolves to a link to it. */\n"
    "  stash(value: unknown): Promise<Content.ResourceLink>;\n"
    "};\n"
    "/** base64 to a binary string (one character per byte) and back. Bytes: "
    "Uint8Array.fromBase64(base64) and bytes.toBase64(). */\n"
    "declare function atob(data: string): string;\n"
    "declare function btoa(data: string): string;\n";

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

static void tool_doc(struct buf *text, const struct tools_decl_tool *t)
{
    const char *d = t->description && t->description[0] ? t->description : t->title;
    tools__decl_doc_clean(text, d);
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

static void emit_tool(struct buf *out, struct tools__decl_set *set, size_t i)
{
    const struct tools_decl_tool *t = &set->tools[i];
    struct buf doc;
    buf_init(&doc, 0);
    tool_doc(&doc, t);
    tools__decl_indent(out, 2);
    tools__decl_doc_emit(out, doc.data, 2, 0);
    tools__decl_key(out, str(t->id));
    buf_append_str(out, tools__decl_args_optional(&set->in[i]) ? "(args?: " : "(args: ");
    tools__decl_root(&set->in[i], 2, out);
    buf_append_str(out, "): Promise<");
    if (set->has_out[i])
        tools__decl_root(&set->out[i], 2, out);
    else
        buf_append_str(out, "unknown");
    buf_append_str(out, ">;\n");
    buf_free(&doc);
}

static void emit_server_head(struct buf *out, const struct tools_decl_tool *t)
{
    tools__decl_indent(out, 1);
    if (strcmp(str(t->server), str(t->server_id)) != 0) {
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

static void emit_tools_object(struct buf *out, struct tools__decl_set *set,
                              const struct tools__decl_filter *f)
{
    buf_append_str(out, "declare const tools: {\n");
    const char *open = NULL; /* server_id of the open server block */
    for (size_t k = 0; k < set->n; k++) {
        size_t i = set->order[k];
        if (!tools__decl_selected(set, f, i))
            continue;
        const struct tools_decl_tool *t = &set->tools[i];
        if (open == NULL || strcmp(open, str(t->server_id)) != 0) {
            if (open)
                buf_append_str(out, "  };\n");
            emit_server_head(out, t);
            open = str(t->server_id);
        }
        emit_tool(out, set, i);
    }
    if (open)
        buf_append_str(out, "  };\n");
    buf_append_str(out, "};\n");
}

static void emit_alias(struct buf *out, struct tools__decl_doc *d, size_t j)
{
    struct buf doc;
    buf_init(&doc, 0);
    tools__decl_doc_of_schema(&doc, d->t[j].node);
    tools__decl_indent(out, 1);
    tools__decl_doc_emit(out, doc.data, 1, 0);
    buf_printf(out, "type %s = ", d->t[j].alias);
    tools__decl_alias_body(d, j, 1, out);
    buf_append_str(out, ";\n");
    buf_free(&doc);
}

static void emit_aliases_of(struct buf *out, struct tools__decl_doc *d, int *opened)
{
    for (size_t j = 0; j < d->n; j++) {
        if (!d->t[j].aliased || d->t[j].alias == NULL)
            continue;
        if (!*opened)
            buf_append_str(out, "declare namespace " TOOLS__DECL_NAMESPACE " {\n");
        *opened = 1;
        emit_alias(out, d, j);
    }
}

static void emit_aliases(struct buf *out, struct tools__decl_set *set,
                         const struct tools__decl_filter *f)
{
    int opened = 0;
    for (size_t k = 0; k < set->n; k++) {
        size_t i = set->order[k];
        if (!tools__decl_selected(set, f, i))
            continue;
        emit_aliases_of(out, &set->in[i], &opened);
        if (set->has_out[i])
            emit_aliases_of(out, &set->out[i], &opened);
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

static void emit_declarations(struct buf *tmp, const struct tools_decl_tool *tools, size_t count,
                              const struct tools__decl_filter *f)
{
    struct tools__decl_set set;
    tools__decl_set_build(&set, tools, count);
    emit_aliases(tmp, &set, f);
    emit_tools_object(tmp, &set, f);
    tools__decl_set_free(&set);
}

int tools_declarations_runtime(struct buf *out)
{
    if (buf_append(out, runtime_text, sizeof runtime_text - 1) < 0 ||
        buf_append(out, content_text, sizeof content_text - 1) < 0)
        return -ENOSPC;
    return 0;
}

int tools_declarations_full(const struct tools_decl_tool *tools, size_t count, struct buf *out)
{
    struct buf tmp;
    buf_init(&tmp, 0);
    tools_declarations_runtime(&tmp);
    struct tools__decl_filter all = {NULL, NULL};
    emit_declarations(&tmp, tools, count, &all);
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
    emit_declarations(&tmp, tools, count, &f);
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
    emit_declarations(&tmp, tools, count, &f);
    return deliver(out, &tmp);
}

int tools_declarations_for_budget(const struct tools_decl_tool *tools, size_t count, size_t budget,
                                  struct buf *out)
{
    struct buf full;
    buf_init(&full, 0);
    tools_declarations_full(tools, count, &full);
    if (full.len <= (budget ? budget : TOOLS_DECLARATIONS_BUDGET_DEFAULT))
        return deliver(out, &full);
    buf_free(&full);
    int rc = tools_declarations_index(tools, count, out);
    return rc < 0 ? rc : 1;
}
