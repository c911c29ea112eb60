/* The arguments of a call as a person approving it sees them (see
 * approval_view.h): canonical JSON when short, otherwise a digest and every
 * field by path, keys sorted; characters that hide or reorder text escaped. */
#include "mcp-server/execute/approval_view.h"
#include "tools/names.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/sha256.h"
#include "common/utf8.h"

#include <stdlib.h>
#include <string.h>

#define FIELD_WHOLE_MAX 200 /* a field whose JSON is at most this long is shown whole */
#define STRING_HEAD     120 /* bytes of a longer string shown */
#define KEY_SHOWN_MAX   100 /* bytes of a key shown in a path */
#define LIST_DEPTH_MAX  8   /* levels listed field by field */
#define SORT_DEPTH_MAX  256 /* levels whose keys are sorted; deeper is printed as sent */
#define LINES_MAX       200 /* field lines of the long form */

/* --- canonical JSON ------------------------------------------------------------------------- */

struct keyed {
    const cJSON *item;
    size_t index; /* ties (duplicate keys) keep the program's order */
};

static int by_key(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->item->string ? x->item->string : "", y->item->string ? y->item->string : "");
    if (c != 0)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The children of an object sorted by key (malloc'd), their number in *n. */
static struct keyed *sorted_children(const cJSON *obj, size_t *n)
{
    size_t count = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        count++;
    struct keyed *k = xcalloc(count ? count : 1, sizeof *k);
    size_t i = 0;
    for (const cJSON *c = obj->child; c; c = c->next, i++)
        k[i] = (struct keyed){c, i};
    qsort(k, count, sizeof *k, by_key);
    *n = count;
    return k;
}

static void canonical(struct buf *b, const cJSON *item, int depth)
{
    if (depth > SORT_DEPTH_MAX || !(cJSON_IsObject(item) || cJSON_IsArray(item))) {
        json_append(b, item);
        return;
    }
    if (cJSON_IsArray(item)) {
        buf_append_char(b, '[');
        for (const cJSON *c = item->child; c; c = c->next) {
            if (c != item->child)
                buf_append_char(b, ',');
            canonical(b, c, depth + 1);
        }
        buf_append_char(b, ']');
        return;
    }
    size_t n;
    struct keyed *k = sorted_children(item, &n);
    buf_append_char(b, '{');
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_append_char(b, ',');
        const char *key = k[i].item->string ? k[i].item->string : "";
        json_append_string(b, key, strlen(key));
        buf_append_char(b, ':');
        canonical(b, k[i].item, depth + 1);
    }
    buf_append_char(b, '}');
    free(k);
}

/* --- characters that hide or reorder text ---------------------------------------------- */

static int hides(unsigned cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0xAD || cp == 0x61C || cp == 0x180E ||
           (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) ||
           (cp >= 0xE0000 && cp <= 0xE007F);
}

static unsigned decode(const unsigned char *p, size_t n)
{
    if (n == 2)
        return ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
    if (n == 3)
        return ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
    return ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
}

/* Appends s with every hiding character as a \uXXXX escape (a surrogate pair
 * past U+FFFF). s is text this file wrote: such characters occur only inside
 * JSON strings, where the escape means the same character. */
static void append_visible(struct buf *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *) s;
    size_t i = 0;
    while (i < len) {
        size_t run = i;
        while (run < len && p[run] < 0x80)
            run++;
        buf_append(out, s + i, run - i);
        i = run;
        if (i >= len)
            break;
        size_t n = utf8_valid_prefix(p + i, len - i);
        if (n == 0) { /* not from this file's printers; kept as it is */
            buf_append(out, s + i, 1);
            i++;
            continue;
        }
        unsigned cp = decode(p + i, n);
        if (!hides(cp))
            buf_append(out, s + i, n);
        else if (cp < 0x10000)
            buf_printf(out, "\\u%04x", cp);
        else
            buf_printf(out, "\\u%04x\\u%04x", 0xD800 + ((cp - 0x10000) >> 10),
                       0xDC00 + ((cp - 0x10000) & 0x3FF));
        i += n;
    }
}

/* --- the long form: every field by path ------------------------------------------------- */

struct listing {
    struct buf out;
    size_t lines;
    size_t unlisted, unlisted_bytes; /* fields past LINES_MAX */
};

/* A key shown as .name (an identifier of at most KEY_SHOWN_MAX bytes). */
static int plain_key(const char *k)
{
    size_t n = strlen(k);
    return n <= KEY_SHOWN_MAX && tools_names_is_identifier(k, n);
}


/* Appends the path segment of key to path: .name, or ["any key"] (cut, and
 * said so, past KEY_SHOWN_MAX bytes). */
static void key_segment(struct buf *path, const char *key)
{
    if (plain_key(key)) {
        if (path->len)
            buf_append_char(path, '.');
        buf_append_str(path, key);
        return;
    }
    size_t len = strlen(key), n = utf8_cut_length(key, len, KEY_SHOWN_MAX);
    buf_append_char(path, '[');
    json_append_string(path, key, n);
    if (n < len)
        buf_printf(path, " (key cut: %zu bytes in all)", len);
    buf_append_char(path, ']');
}

static const char *kind(const cJSON *v)
{
    if (cJSON_IsObject(v))
        return "object";
    if (cJSON_IsArray(v))
        return "array";
    if (cJSON_IsString(v))
        return "string";
    if (cJSON_IsNumber(v))
        return "number";
    return "value";
}

static void list(struct listing *l, struct buf *path, const cJSON *v, int depth)
{
    struct buf t;
    buf_init(&t, 0);
    canonical(&t, v, depth);
    if (l->lines >= LINES_MAX) {
        l->unlisted++;
        l->unlisted_bytes += t.len;
        buf_free(&t);
        return;
    }
    l->lines++;
    buf_append_str(&l->out, "\n  ");
    buf_append_str(&l->out, path->len ? path->data : "(the arguments)");
    buf_append_str(&l->out, ": ");
    int nested = cJSON_IsObject(v) || cJSON_IsArray(v);
    if (t.len <= FIELD_WHOLE_MAX) {
        buf_append(&l->out, t.data, t.len);
    } else if (nested && depth < LIST_DEPTH_MAX) {
        size_t n = (size_t) cJSON_GetArraySize(v);
        buf_printf(&l->out, "%s of %zu %s, %zu bytes:", kind(v), n,
                   cJSON_IsObject(v) ? "fields" : "items", t.len);
        size_t mark = path->len;
        if (cJSON_IsObject(v)) {
            struct keyed *k = sorted_children(v, &n);
            for (size_t i = 0; i < n; i++) {
                key_segment(path, k[i].item->string ? k[i].item->string : "");
                list(l, path, k[i].item, depth + 1);
                path->len = mark;
                path->data[mark] = '\0';
            }
            free(k);
        } else {
            size_t i = 0;
            for (const cJSON *c = v->child; c; c = c->next, i++) {
                buf_printf(path, "[%zu]", i);
                list(l, path, c, depth + 1);
                path->len = mark;
                path->data[mark] = '\0';
            }
        }
    } else if (cJSON_IsString(v)) {
        size_t len = strlen(v->valuestring);
        buf_printf(&l->out, "string of %zu bytes, only its start shown: ", len);
        json_append_string(&l->out, v->valuestring,
                               utf8_cut_length(v->valuestring, len, STRING_HEAD));
        buf_append_str(&l->out, "...");
    } else {
        buf_printf(&l->out, "%s of %zu bytes, nested too deep to list", kind(v), t.len);
    }
    buf_free(&t);
}

static char *long_form(const cJSON *args, const char *sent, size_t sent_len)
{
    char hex[65];
    sha256_hex(sent, sent_len, hex);
    struct listing l;
    memset(&l, 0, sizeof l);
    buf_init(&l.out, 0);
    buf_printf(&l.out,
               "(%zu bytes, too long to show whole; SHA-256 of their JSON: %s. Every field "
               "follows, keys sorted.)",
               sent_len, hex);
    struct buf path;
    buf_init(&path, 0);
    if (cJSON_IsObject(args)) {
        size_t n;
        struct keyed *k = sorted_children(args, &n);
        for (size_t i = 0; i < n; i++) {
            key_segment(&path, k[i].item->string ? k[i].item->string : "");
            list(&l, &path, k[i].item, 1);
            path.len = 0;
            path.data[0] = '\0';
        }
        free(k);
    } else {
        list(&l, &path, args, 0);
    }
    buf_free(&path);
    if (l.unlisted)
        buf_printf(&l.out,
                   "\n  ... and %zu more fields (%zu bytes) NOT LISTED: deny unless you know "
                   "what they hold.",
                   l.unlisted, l.unlisted_bytes);
    struct buf out;
    buf_init(&out, 0);
    append_visible(&out, l.out.data, l.out.len);
    buf_free(&l.out);
    return buf_steal(&out);
}

char *mcp_approval_view(const cJSON *args)
{
    cJSON *empty = args ? NULL : cJSON_CreateObject();
    const cJSON *v = args ? args : empty;
    struct buf t, out;
    buf_init(&t, 0);
    buf_init(&out, 0);
    canonical(&t, v, 0);
    char *result;
    if (t.len <= MCP_APPROVAL_VIEW_WHOLE_MAX) {
        append_visible(&out, t.data, t.len);
        result = buf_steal(&out);
    } else {
        char *sent = json_print(v);
        result = long_form(v, sent, strlen(sent));
        free(sent);
    }
    buf_free(&t);
    buf_free(&out);
    cJSON_Delete(empty);
    return result;
}
