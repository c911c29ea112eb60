/* The TypeScript declarations of the built-in `state` and `skills`
 * namespaces: fixed text for the operations, and one method per saved skill
 * with its inputSchema as the argument type (the downstream tools' generator,
 * tools/declarations/, run over the skills as one server). */
#include "tools/state/service.h"
#include "tools/declarations/declarations.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>

static const char errors_text[] =
    "/** code: \"storage\" (database unusable), \"quota\", \"invalid\" or \"conflict\". */\n"
    "declare class StateError extends Error { code: string }\n"
    "declare class StateConflictError extends StateError {}\n";

static const char state_text[] =
    "/** JSON values kept across executions. set returns the new version; with ifVersion (0: "
    "absent) it throws StateConflictError on another version. */\n"
    "declare const state: {\n"
    "  get(key: string): Promise<unknown>;\n"
    "  entry(key: string): Promise<{ value: unknown; version: number } | undefined>;\n"
    "  set(key: string, value: unknown, options?: { ifVersion?: number }): Promise<number>;\n"
    "  delete(key: string): Promise<boolean>;\n"
    "  /** Keys with this prefix, sorted. */\n"
    "  list(prefix?: string): Promise<string[]>;\n"
    "};\n";

static const char skills_head[] =
    "/** Saved programs, callable as skills.<name>(args) later; code is an async function body "
    "receiving args. */\n"
    "declare const skills: {\n"
    "  save(skill: { name: string; description: string; inputSchema?: object; code: string }): "
    "Promise<{ name: string }>;\n"
    "  list(): Promise<{ name: string; description: string; inputSchema: object }[]>;\n"
    "  delete(name: string): Promise<boolean>;\n";

/* Appends text with two spaces fewer at the start of each line (the
 * generator indents a server's members by four). */
static void dedent(struct buf *out, const char *text, size_t len)
{
    const char *end = text + len;
    while (text < end) {
        const char *nl = memchr(text, '\n', (size_t) (end - text));
        const char *stop = nl ? nl + 1 : end;
        if (stop - text >= 2 && text[0] == ' ' && text[1] == ' ')
            text += 2;
        buf_append(out, text, (size_t) (stop - text));
        text = stop;
    }
}

/* The skills' methods, from the generator's `declare const tools: { skills:
 * {...} }` text for them: aliases (before it) are kept, the member lines
 * are moved into `skills`. */
static void skill_methods(const cJSON *skills, struct buf *aliases, struct buf *members)
{
    size_t n = (size_t) cJSON_GetArraySize(skills), i = 0;
    if (n == 0)
        return;
    struct tools_decl_tool *t = xcalloc(n, sizeof *t);
    const cJSON *row;
    cJSON_ArrayForEach(row, skills)
    {
        const char *name = cJSON_GetObjectItemCaseSensitive(row, "name")->valuestring;
        t[i] = (struct tools_decl_tool){
            .server = "skills",
            .server_id = "skills",
            .name = name,
            .id = name,
            .description = cJSON_GetObjectItemCaseSensitive(row, "description")->valuestring,
            .input_schema = cJSON_GetObjectItemCaseSensitive(row, "inputSchema")};
        i++;
    }
    struct buf text;
    buf_init(&text, 0);
    tools_declarations_server(t, n, "skills", &text);
    free(t);
    static const char open[] = "declare const tools: {\n  skills: {\n", close[] = "  };\n};\n";
    const char *at = text.data ? strstr(text.data, open) : NULL;
    if (at && text.len >= sizeof close - 1) {
        buf_append(aliases, text.data, (size_t) (at - text.data));
        const char *body = at + sizeof open - 1;
        size_t len = (size_t) (text.data + text.len - body) - (sizeof close - 1);
        dedent(members, body, len);
    }
    buf_free(&text);
}

char *tools_state_service_describe(const struct tools_state_service *s, const char *principal,
                                   const char *name)
{
    if (!tools_state_service_has_skills(s))
        return NULL;
    cJSON *seen = tools_state_service_skills(s, principal);
    const cJSON *row, *one = NULL;
    cJSON_ArrayForEach(row, seen)
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(row, "name")->valuestring, name) == 0)
            one = row;
    }
    cJSON *list = one ? cJSON_CreateArray() : NULL;
    if (one)
        cJSON_AddItemToArray(list, cJSON_Duplicate(one, 1));
    cJSON_Delete(seen);
    if (list == NULL)
        return NULL;
    struct buf out, members;
    buf_init(&out, 0);
    buf_init(&members, 0);
    skill_methods(list, &out, &members);
    cJSON_Delete(list);
    buf_append_str(&out, "declare const skills: {\n");
    buf_append(&out, members.data ? members.data : "", members.len);
    buf_append_str(&out, "};\n");
    buf_free(&members);
    return buf_steal(&out);
}

void tools_state_service_declarations(const struct tools_state_service *s, const char *principal,
                                      struct buf *out)
{
    if (s == NULL || (!tools_state_service_has_state(s) && !tools_state_service_has_skills(s)))
        return;
    buf_append_str(out, errors_text);
    if (tools_state_service_has_state(s))
        buf_append_str(out, state_text);
    if (!tools_state_service_has_skills(s))
        return;
    struct buf aliases, members;
    buf_init(&aliases, 0);
    buf_init(&members, 0);
    cJSON *seen = tools_state_service_skills(s, principal);
    skill_methods(seen, &aliases, &members);
    cJSON_Delete(seen);
    if (aliases.len)
        buf_append(out, aliases.data, aliases.len);
    buf_append_str(out, skills_head);
    if (members.len)
        buf_append(out, members.data, members.len);
    buf_append_str(out, "};\n");
    buf_free(&aliases);
    buf_free(&members);
}
