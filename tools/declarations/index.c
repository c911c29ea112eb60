/* The compact index of the tools (for catalogs past the declarations
 * budget) and the one-line summaries it and searchTools show: the first
 * sentence of a description, whitespace collapsed, cut at a word. */
#include "common/alloc.h"
#include "common/buf.h"
#include "common/utf8.h"
#include "tools/declarations/declarations.h"
#include "tools/declarations/doc.h"
#include "tools/declarations/set.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char index_head[] =
    "/** Every tool, loosely typed: see the list below, and describeTool(\"server.tool\") for "
    "one tool's declaration. */\n"
    "declare const tools: { [server: string]: { [tool: string]: (args?: object) => "
    "Promise<unknown> } };\n"
    "// Tools (server.tool - summary):\n";

static int is_blank(const char *s)
{
    return s == NULL || s[strspn(s, " \t\r\n")] == '\0';
}

static int is_space(char c)
{
    return c == ' ' || c == '\n';
}

/* Ends a sentence: . ! ? before a space or the end, unless a lower-case
 * word follows ("e.g. this", "approx. ten"). */
static int sentence_end(const char *p)
{
    if (*p != '.' && *p != '!' && *p != '?')
        return 0;
    if (p[1] == '\0' || p[1] == '\n')
        return 1;
    if (p[1] != ' ')
        return 0;
    const char *q = p + 1;
    while (*q == ' ')
        q++;
    return !(*q >= 'a' && *q <= 'z');
}

/* The first sentence (or line) of clean text, whitespace collapsed. */
static void first_sentence(struct buf *out, const char *p)
{
    int space = 0;
    for (; *p && *p != '\n'; p++) {
        if (is_space(*p)) {
            space = out->len > 0;
            continue;
        }
        if (space)
            buf_append_char(out, ' ');
        space = 0;
        buf_append_char(out, *p);
        if (sentence_end(p))
            break;
    }
}

/* Cuts b to at most max bytes on a UTF-8 boundary, at a space when one is
 * in the second half, and appends "...". */
static void cut(struct buf *b, size_t max)
{
    if (b->len <= max)
        return;
    size_t n = max > 3 ? max - 3 : 0;
    while (n > 0 && ((unsigned char) b->data[n] & 0xC0) == 0x80)
        n--; /* b->data[n] starts a code point: keep what precedes it */
    size_t sp = n;
    while (sp > 0 && b->data[sp] != ' ')
        sp--;
    if (sp > n / 2)
        n = sp;
    while (n > 0 && (b->data[n - 1] == ' ' || b->data[n - 1] == ',' || b->data[n - 1] == ';'))
        n--;
    b->len = n;
    b->data[n] = '\0';
    buf_append_str(b, max >= 3 ? "..." : "");
}

char *tools_declarations_summary(const char *description, const char *title, size_t max)
{
    if (max == 0)
        max = TOOLS_DECLARATIONS_SUMMARY_MAX;
    struct buf clean, out;
    buf_init(&clean, 0);
    buf_init(&out, 0);
    tools__decl_doc_clean(&clean, is_blank(description) ? title : description);
    if (clean.len)
        first_sentence(&out, clean.data);
    cut(&out, max);
    buf_free(&clean);
    return buf_steal(&out);
}

/* Appends s to a // comment line: cleaned, newlines as spaces. */
static void comment_text(struct buf *out, const char *s)
{
    struct buf c;
    buf_init(&c, 0);
    tools__decl_doc_clean(&c, s);
    for (size_t i = 0; i < c.len; i++)
        buf_append_char(out, c.data[i] == '\n' ? ' ' : c.data[i]);
    buf_free(&c);
}

int tools_declarations_index(const struct tools_decl_tool *tools, size_t count, struct buf *out)
{
    struct buf tmp;
    buf_init(&tmp, 0);
    tools_declarations_runtime(&tmp);
    buf_append_str(&tmp, index_head);
    size_t n;
    size_t *order = tools__decl_order(tools, count, &n);
    for (size_t k = 0; k < n; k++) {
        const struct tools_decl_tool *t = &tools[order[k]];
        if (t->login_only) {
            buf_append_str(&tmp, "// ");
            comment_text(&tmp, t->server_id);
            buf_append_str(&tmp, ".* - needs login: its tools are not known yet; calling any "
                                 "of them logs in first\n");
            continue;
        }
        char *summary = tools_declarations_summary(t->description, t->title, 0);
        buf_append_str(&tmp, "// ");
        comment_text(&tmp, t->server_id);
        buf_append_char(&tmp, '.');
        comment_text(&tmp, t->id);
        if (summary[0]) {
            buf_append_str(&tmp, " - ");
            buf_append_str(&tmp, summary);
        }
        buf_append_char(&tmp, '\n');
        free(summary);
    }
    free(order);
    int rc = buf_append(out, tmp.len ? tmp.data : "", tmp.len) < 0 ? -ENOSPC : 0;
    buf_free(&tmp);
    return rc;
}
