/* Fuzz target: the TypeScript declaration generator (tools/declarations/).
 * The input is a tool list as JSON ([{server, name, title?, description?,
 * inputSchema?, outputSchema?}], named with tools/names.h like the
 * registry does). The full text, the index and one tool's declaration must
 * be well-formed TypeScript at the token level (comments and strings
 * closed, identifiers made of identifier characters, brackets balanced, no
 * stray characters) and no free text may reach code: with every name,
 * title, description, $comment, default and example replaced by a plain
 * word, the code tokens (everything but comments and string contents) must
 * be the same. */
#include "fuzz.h"

#include "common/buf.h"
#include "tools/declarations/declarations.h"
#include "tools/names.h"

#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    return 0;
}

/* --- a TypeScript lexer that accepts only what the generator may emit ---------------------- */

static int is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static int is_ident_part(int c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* A JS line terminator at s[i]: LF, CR, U+2028, U+2029. */
static size_t line_end_at(const char *s, size_t i, size_t n)
{
    if (s[i] == '\n' || s[i] == '\r')
        return 1;
    if ((unsigned char) s[i] == 0xE2 && i + 2 < n && (unsigned char) s[i + 1] == 0x80 &&
        ((unsigned char) s[i + 2] == 0xA8 || (unsigned char) s[i + 2] == 0xA9))
        return 3;
    return 0;
}

/* Lexes the text; appends the code tokens (strings as "S") to `code`,
 * separated by spaces. Aborts on anything malformed. */
static void lex(const char *s, size_t n, struct buf *code)
{
    char stack[4096];
    size_t depth = 0;
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char) s[i];
        if (c == ' ' || c == '\n' || c == '\t') {
            i++;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && !line_end_at(s, i, n))
                i++;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *end = memmem(s + i + 2, n - i - 2, "*/", 2);
            FUZZ_CHECK(end != NULL, "unterminated comment at %zu", i);
            i = (size_t) (end - s) + 2;
        } else if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < n && s[j] != (char) c) {
                FUZZ_CHECK(!line_end_at(s, j, n), "line end inside a string at %zu", j);
                j += s[j] == '\\' ? 2 : 1;
            }
            FUZZ_CHECK(j < n, "unterminated string at %zu", i);
            i = j + 1;
            buf_append_str(code, "S ");
        } else if (is_ident_start(c)) {
            size_t j = i;
            while (j < n && is_ident_part((unsigned char) s[j]))
                j++;
            buf_append(code, s + i, j - i);
            buf_append_char(code, ' ');
            i = j;
        } else if (c >= '0' && c <= '9') {
            size_t j = i;
            while (j < n &&
                   (is_ident_part((unsigned char) s[j]) || s[j] == '.' ||
                    ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
                j++;
            buf_append(code, s + i, j - i);
            buf_append_char(code, ' ');
            i = j;
        } else if (strchr("{([", c)) {
            FUZZ_CHECK(depth < sizeof stack, "nesting too deep");
            stack[depth++] = (char) c;
            buf_append_char(code, (char) c);
            i++;
        } else if (strchr("})]", c)) {
            char open = c == '}' ? '{' : c == ')' ? '(' : '[';
            FUZZ_CHECK(depth > 0 && stack[depth - 1] == open, "unbalanced '%c' at %zu", c, i);
            depth--;
            /* a separator before the close depends on the layout (one line or
             * several), which the length of the docs decides: drop it */
            if (code->len && (code->data[code->len - 1] == ';' || code->data[code->len - 1] == ','))
                code->len--;
            buf_append_char(code, (char) c);
            i++;
        } else if (c && strchr("<>;:,.?|&=*!-+", c)) {
            buf_append_char(code, (char) c);
            i++;
        } else {
            FUZZ_CHECK(0, "stray byte 0x%02x in code at %zu: %.40s", c, i, s + i);
        }
    }
    FUZZ_CHECK(depth == 0, "%zu brackets left open", depth);
}

/* --- tool lists ------------------------------------------------------------------------------ */

static const char *get_string(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A plain word standing for a text: equal texts give equal words (the
 * generator merges type aliases that are the same, docs included). */
static const char *plain_word(const char *text)
{
    static char words[8][24];
    static unsigned next;
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = text; *p; p++)
        h = (h ^ (unsigned char) *p) * 1099511628211ULL;
    char *w = words[next++ % 8];
    snprintf(w, sizeof words[0], "w%016llx", (unsigned long long) h);
    return w;
}

/* Replaces the free text of a schema (recursively) by plain words. Keys of
 * the maps of subschemas are names, not keywords; enum and const are data. */
static void neutralise(cJSON *j)
{
    static const char *const text[] = {"description", "title",    "$comment",
                                       "default",     "examples", NULL};
    static const char *const maps[] = {"properties",  "patternProperties", "$defs",
                                       "definitions", "dependentSchemas",  NULL};
    if (!cJSON_IsObject(j) && !cJSON_IsArray(j))
        return;
    for (cJSON *c = j->child; c; c = c->next) {
        int is_text = 0, is_map = 0;
        for (int k = 0; cJSON_IsObject(j) && text[k]; k++)
            is_text |= strcmp(c->string, text[k]) == 0;
        for (int k = 0; cJSON_IsObject(j) && maps[k]; k++)
            is_map |= strcmp(c->string, maps[k]) == 0;
        if (is_text) {
            char *t = cJSON_PrintUnformatted(c);
            cJSON *d = cJSON_CreateString(plain_word(t));
            free(t);
            d->string = c->string; /* the key moves over (not done by the call below) */
            c->string = NULL;
            cJSON_ReplaceItemViaPointer(j, c, d);
            c = d;
        } else if (is_map && cJSON_IsObject(c)) {
            for (cJSON *v = c->child; v; v = v->next)
                neutralise(v);
        } else if (!cJSON_IsObject(j) ||
                   (strcmp(c->string, "enum") && strcmp(c->string, "const"))) {
            neutralise(c);
        }
    }
}

struct list {
    size_t count;
    struct tools_decl_tool *tools;
    char **ids; /* tool ids, then server ids */
    size_t nids;
};

/* Names the tools like tools/registry.c: server ids over distinct servers,
 * tool ids within each server. Servers and names are original strings. */
static void build(const cJSON *arr, struct list *l)
{
    size_t count = 0;
    for (const cJSON *e = arr->child; e && count < 64; e = e->next)
        count++;
    l->count = count;
    l->tools = xcalloc(count + 1, sizeof *l->tools);
    const char **servers = xcalloc(count + 1, sizeof *servers);
    size_t ns = 0, i = 0;
    for (const cJSON *e = arr->child; i < count; e = e->next, i++) {
        const char *s = get_string(e, "server");
        size_t k = 0;
        while (k < ns && strcmp(servers[k], s ? s : "") != 0)
            k++;
        if (k == ns)
            servers[ns++] = s ? s : "";
    }
    char **sids = tools_names_assign(servers, ns);
    l->ids = xcalloc(count + ns + 1, sizeof *l->ids);
    const char **names = xcalloc(count + 1, sizeof *names);
    size_t *at = xcalloc(count + 1, sizeof *at);
    for (size_t s = 0; s < ns; s++) {
        size_t k = 0;
        i = 0;
        for (const cJSON *e = arr->child; i < count; e = e->next, i++) {
            const char *srv = get_string(e, "server");
            if (strcmp(srv ? srv : "", servers[s]) == 0) {
                at[k] = i;
                names[k++] = get_string(e, "name");
            }
        }
        char **tids = tools_names_assign(names, k);
        for (size_t j = 0; j < k; j++) {
            const cJSON *e = cJSON_GetArrayItem(arr, (int) at[j]);
            const cJSON *in = cJSON_GetObjectItemCaseSensitive(e, "inputSchema");
            const cJSON *out = cJSON_GetObjectItemCaseSensitive(e, "outputSchema");
            l->tools[at[j]] = (struct tools_decl_tool){.server = servers[s],
                                                       .server_id = sids[s],
                                                       .name = get_string(e, "name"),
                                                       .id = tids[j],
                                                       .title = get_string(e, "title"),
                                                       .description = get_string(e, "description"),
                                                       .input_schema = in,
                                                       .output_schema = out};
            l->ids[at[j]] = tids[j];
        }
        free(tids);
    }
    if (ns)
        memcpy(l->ids + count, sids, ns * sizeof *sids);
    l->nids = count + ns;
    free(sids);
    free(names);
    free(at);
    free(servers);
}

static void list_free(struct list *l)
{
    tools_names_free(l->ids, l->nids);
    free(l->tools);
}

/* Generates the texts (full, index, one tool, and what the model reads
 * within a small and a large budget) and returns their code tokens (caller
 * frees). */
static char *generate(const struct list *l)
{
    struct buf code, out;
    buf_init(&code, 0);
    for (int which = 0; which < 5; which++) {
        buf_init(&out, 0);
        int rc = which == 0   ? tools_declarations_full(l->tools, l->count, &out)
                 : which == 1 ? tools_declarations_index(l->tools, l->count, &out)
                 : which == 2 ? tools_declarations_tool(l->tools, l->count, 0, &out)
                              : tools_declarations_budgeted(l->tools, l->count,
                                                            which == 3 ? 200 : 100000, &out, NULL);
        if (which >= 3)
            rc = rc < 0 ? rc : 0;
        FUZZ_CHECK(rc == 0 || (which == 2 && l->count == 0), "generator %d failed: %d", which, rc);
        lex(out.data ? out.data : "", out.len, &code);
        buf_append_str(&code, "\n---\n");
        buf_free(&out);
    }
    return buf_steal(&code);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *arr = cJSON_ParseWithLength((const char *) data, size);
    if (!cJSON_IsArray(arr)) {
        cJSON_Delete(arr);
        return 0;
    }
    struct list l;
    build(arr, &l);
    char *a = generate(&l);
    /* the same tools with plain free text: names and ids as before */
    cJSON *plain = cJSON_Duplicate(arr, 1);
    for (cJSON *e = plain->child; e; e = e->next) {
        neutralise(cJSON_GetObjectItemCaseSensitive(e, "inputSchema"));
        neutralise(cJSON_GetObjectItemCaseSensitive(e, "outputSchema"));
    }
    size_t i = 0;
    char **kept = xcalloc(4 * l.count + 1, sizeof *kept);
    for (cJSON *e = plain->child; i < l.count; e = e->next, i++) {
        const cJSON *in = cJSON_GetObjectItemCaseSensitive(e, "inputSchema");
        const cJSON *out = cJSON_GetObjectItemCaseSensitive(e, "outputSchema");
        l.tools[i].input_schema = in;
        l.tools[i].output_schema = out;
        /* (strdup: plain_word's buffers are reused) */
        l.tools[i].server = kept[4 * i] = xstrdup(plain_word(l.tools[i].server));
        l.tools[i].name = kept[4 * i + 1] =
            l.tools[i].name ? xstrdup(plain_word(l.tools[i].name)) : NULL;
        l.tools[i].title = kept[4 * i + 2] =
            l.tools[i].title ? xstrdup(plain_word(l.tools[i].title)) : NULL;
        l.tools[i].description = kept[4 * i + 3] =
            l.tools[i].description ? xstrdup(plain_word(l.tools[i].description)) : NULL;
    }
    char *b = generate(&l);
    if (strcmp(a, b) != 0) {
        size_t k = 0;
        while (a[k] == b[k])
            k++;
        size_t from = k > 60 ? k - 60 : 0;
        FUZZ_CHECK(0, "free text changed the code:\n%.120s\nvs\n%.120s", a + from, b + from);
    }
    free(a);
    free(b);
    for (i = 0; i < 4 * l.count; i++)
        free(kept[i]);
    free(kept);
    list_free(&l);
    cJSON_Delete(plain);
    cJSON_Delete(arr);
    return 0;
}
