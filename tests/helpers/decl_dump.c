/* Test-only: reads a tool list [{server, name, title?, description?,
 * inputSchema, outputSchema?}, ...] on stdin, names it with tools/names.h
 * and prints what tools/declarations/declarations.h generates. Used by
 * tests/e2e/declarations.test.mjs until `mcp-codemode types` exists.
 *   decl_dump                 full declarations
 *   decl_dump --index         the compact index
 *   decl_dump --budget N      full or index, as tools_declarations_for_budget
 *   decl_dump --tokens N      what the model reads within N tokens
 *                             (tools_declarations_budgeted)
 *   decl_dump --level L       every tool at level L: full, docs, summary,
 *                             signature or name (tools_declarations_at)
 *   decl_dump --server ID     one server (sanitised id)
 *   decl_dump --tool SID.TID  one tool (sanitised ids)
 *   decl_dump --names         "server<TAB>server_id<TAB>name<TAB>id" lines */
#include "common/alloc.h"
#include "common/buf.h"
#include "tools/declarations/declarations.h"
#include "tools/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *get_string(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static char *read_all(FILE *f)
{
    struct buf b;
    buf_init(&b, 0);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&b, chunk, n);
    return buf_steal(&b);
}

/* Distinct server names in first-seen order. */
static size_t servers_of(const cJSON *list, const char **servers)
{
    size_t n = 0;
    for (const cJSON *e = list->child; e; e = e->next) {
        const char *s = get_string(e, "server");
        size_t i = 0;
        while (i < n && strcmp(servers[i], s ? s : "") != 0)
            i++;
        if (i == n)
            servers[n++] = s ? s : "";
    }
    return n;
}

/* Fills tools[] (ids owned by *ids) from the list. */
static size_t build(const cJSON *list, struct tools_decl_tool *tools, char ***ids_out)
{
    size_t count = (size_t) cJSON_GetArraySize(list);
    const char **servers = xcalloc(count + 1, sizeof *servers);
    size_t ns = servers_of(list, servers);
    char **sids = tools_names_assign(servers, ns);
    char **ids = xcalloc(count + 1, sizeof *ids);
    const char **names = xcalloc(count + 1, sizeof *names);
    for (size_t s = 0; s < ns; s++) {
        size_t k = 0, i = 0, *at = xcalloc(count + 1, sizeof *at);
        for (const cJSON *e = list->child; e; e = e->next, i++) {
            const char *srv = get_string(e, "server");
            if (strcmp(srv ? srv : "", servers[s]) == 0) {
                at[k] = i;
                names[k++] = get_string(e, "name");
            }
        }
        char **tids = tools_names_assign(names, k);
        for (size_t j = 0; j < k; j++) {
            const cJSON *e = cJSON_GetArrayItem(list, (int) at[j]);
            tools[at[j]] = (struct tools_decl_tool){
                .server = servers[s],
                .server_id = sids[s],
                .name = get_string(e, "name"),
                .id = tids[j],
                .title = get_string(e, "title"),
                .description = get_string(e, "description"),
                .input_schema = cJSON_GetObjectItemCaseSensitive(e, "inputSchema"),
                .output_schema = cJSON_GetObjectItemCaseSensitive(e, "outputSchema")};
            ids[at[j]] = tids[j];
        }
        free(tids);
        free(at);
    }
    /* server ids are shared: keep them alive by parking them after the ids */
    *ids_out = xcalloc(count + ns + 1, sizeof **ids_out);
    memcpy(*ids_out, ids, count * sizeof *ids);
    memcpy(*ids_out + count, sids, ns * sizeof *sids);
    free(ids);
    free(sids);
    free(names);
    free(servers);
    return count + ns;
}

static size_t find_tool(const struct tools_decl_tool *tools, size_t count, const char *q)
{
    size_t slen;
    const char *tool = tools_names_split(q, &slen);
    for (size_t i = 0; tool && i < count; i++)
        if (strlen(tools[i].server_id) == slen && !strncmp(tools[i].server_id, q, slen) &&
            !strcmp(tools[i].id, tool))
            return i;
    return count;
}

static int run(const char *mode, const char *arg, const struct tools_decl_tool *tools, size_t count,
               struct buf *out)
{
    if (mode == NULL)
        return tools_declarations_full(tools, count, out);
    if (!strcmp(mode, "--index"))
        return tools_declarations_index(tools, count, out);
    if (!strcmp(mode, "--budget") && arg)
        return tools_declarations_for_budget(tools, count, strtoul(arg, NULL, 10), out) < 0;
    if (!strcmp(mode, "--tokens") && arg)
        return tools_declarations_budgeted(tools, count, strtoul(arg, NULL, 10), out, NULL) < 0;
    if (!strcmp(mode, "--level") && arg) {
        int level = 0;
        while (level < TOOLS_DECL_LEVELS &&
               strcmp(arg, tools_declarations_level_name((enum tools_decl_level) level)))
            level++;
        if (level == TOOLS_DECL_LEVELS)
            return -1;
        unsigned char *levels = xcalloc(count ? count : 1, 1);
        memset(levels, level, count);
        int rc = tools_declarations_at(tools, count, levels, out);
        free(levels);
        return rc;
    }
    if (!strcmp(mode, "--server") && arg)
        return tools_declarations_server(tools, count, arg, out);
    if (!strcmp(mode, "--tool") && arg)
        return tools_declarations_tool(tools, count, find_tool(tools, count, arg), out);
    if (!strcmp(mode, "--names")) {
        for (size_t i = 0; i < count; i++)
            buf_printf(out, "%s\t%s\t%s\t%s\n", tools[i].server, tools[i].server_id,
                       tools[i].name ? tools[i].name : "", tools[i].id);
        return 0;
    }
    return -1;
}

int main(int argc, char **argv)
{
    alloc_install_cjson_hooks();
    char *text = read_all(stdin);
    cJSON *list = cJSON_Parse(text);
    free(text);
    if (!cJSON_IsArray(list)) {
        fprintf(stderr, "decl_dump: stdin is not a JSON array\n");
        cJSON_Delete(list);
        return 2;
    }
    size_t count = (size_t) cJSON_GetArraySize(list);
    struct tools_decl_tool *tools = xcalloc(count + 1, sizeof *tools);
    char **ids;
    size_t nids = build(list, tools, &ids);
    struct buf out;
    buf_init(&out, 0);
    int rc = run(argc > 1 ? argv[1] : NULL, argc > 2 ? argv[2] : NULL, tools, count, &out);
    if (rc == 0)
        fwrite(out.data ? out.data : "", 1, out.len, stdout);
    else
        fprintf(stderr, "decl_dump: failed (%d)\n", rc);
    buf_free(&out);
    tools_names_free(ids, nids);
    free(tools);
    cJSON_Delete(list);
    return rc == 0 ? 0 : 1;
}
