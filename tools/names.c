/* Server and tool names in the sandbox: sanitising to ASCII identifiers,
 * order-independent collision suffixes, nearest-name suggestions and the
 * first-dot split of "server.tool". See names.h for the rules. */
#include "tools/names.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sorted (strcmp) so that lookups can bsearch. */
static const char *const reserved[] = {
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
    "arguments",
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "constructor",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "eval",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "hasOwnProperty",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "isPrototypeOf",
    "let",
    "new",
    "null",
    "package",
    "private",
    "propertyIsEnumerable",
    "protected",
    "prototype",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "then",
    "this",
    "throw",
    "toJSON",
    "toLocaleString",
    "toString",
    "true",
    "try",
    "typeof",
    "valueOf",
    "var",
    "void",
    "while",
    "with",
    "yield",
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *) a, *(const char *const *) b);
}

static int is_ident_char(unsigned char c, int first)
{
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '$')
        return 1;
    return !first && c >= '0' && c <= '9';
}

int tools_names_is_identifier(const char *s, size_t len)
{
    if (s == NULL || len == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!is_ident_char((unsigned char) s[i], i == 0))
            return 0;
    return 1;
}

int tools_names_is_reserved(const char *s)
{
    size_t n = sizeof reserved / sizeof reserved[0];
    return s != NULL && bsearch(&s, reserved, n, sizeof reserved[0], cmp_str) != NULL;
}

/* Length of the code point at p (1 for an ill-formed byte). */
static size_t code_point_len(const char *p, size_t n)
{
    unsigned char c = (unsigned char) *p;
    if (c < 0x80)
        return 1;
    size_t k = utf8_valid_prefix((const unsigned char *) p, n);
    return k ? k : 1;
}

char *tools_names_sanitize(const char *name)
{
    struct buf b;
    buf_init(&b, 0);
    size_t n = name ? strlen(name) : 0;
    if (n > 0 && name[0] >= '0' && name[0] <= '9')
        buf_append_char(&b, '_');
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char) name[i];
        buf_append_char(&b, is_ident_char(c, 0) ? (char) c : '_');
        i += code_point_len(name + i, n - i);
    }
    if (b.len == 0)
        buf_append_char(&b, '_');
    else if (tools_names_is_reserved(b.data))
        buf_append_char(&b, '_');
    return buf_steal(&b);
}

/* --- collision-free assignment -------------------------------------------- */

struct entry {
    const char *orig; /* never NULL */
    char *base;       /* sanitised form */
    int exact;        /* orig is its own sanitised form */
    size_t index;     /* position in the caller's list */
};

static int cmp_entry(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int c = strcmp(x->base, y->base);
    if (c == 0)
        c = y->exact - x->exact; /* exact first */
    if (c == 0)
        c = strcmp(x->orig, y->orig);
    return c;
}

struct taken {
    const char **bases; /* sorted plain forms */
    size_t nbases;
    char **extra; /* suffixed identifiers handed out so far */
    size_t nextra;
};

static int is_taken(const struct taken *t, const char *id)
{
    if (bsearch(&id, t->bases, t->nbases, sizeof *t->bases, cmp_str))
        return 1;
    for (size_t i = 0; i < t->nextra; i++)
        if (strcmp(t->extra[i], id) == 0)
            return 1;
    return 0;
}

/* The first free "<base>_<k>", k >= 2; recorded in t, returned as a copy. */
static char *suffixed(struct taken *t, const char *base)
{
    size_t len = strlen(base) + 24;
    char *id = xmalloc(len);
    for (unsigned long k = 2;; k++) {
        snprintf(id, len, "%s_%lu", base, k);
        if (!is_taken(t, id))
            break;
    }
    t->extra[t->nextra++] = id;
    return xstrdup(id);
}

static struct entry *make_entries(const char *const *names, size_t count)
{
    struct entry *e = xcalloc(count, sizeof *e);
    for (size_t i = 0; i < count; i++) {
        e[i].orig = names[i] ? names[i] : "";
        e[i].base = tools_names_sanitize(e[i].orig);
        e[i].exact = strcmp(e[i].orig, e[i].base) == 0;
        e[i].index = i;
    }
    qsort(e, count, sizeof *e, cmp_entry);
    return e;
}

static void collect_bases(struct taken *t, const struct entry *e, size_t count)
{
    t->bases = xcalloc(count, sizeof *t->bases);
    t->nbases = 0;
    for (size_t i = 0; i < count; i++)
        if (t->nbases == 0 || strcmp(t->bases[t->nbases - 1], e[i].base) != 0)
            t->bases[t->nbases++] = e[i].base; /* e is sorted by base */
    t->extra = xcalloc(count, sizeof *t->extra);
    t->nextra = 0;
}

char **tools_names_assign(const char *const *names, size_t count)
{
    if (count == 0)
        return NULL;
    struct entry *e = make_entries(names, count);
    struct taken t;
    collect_bases(&t, e, count);
    char **ids = xcalloc(count, sizeof *ids);
    for (size_t i = 0; i < count; i++) {
        const char *id;
        if (i > 0 && strcmp(e[i].orig, e[i - 1].orig) == 0)
            id = ids[e[i - 1].index]; /* same name, same identifier */
        else if (i == 0 || strcmp(e[i].base, e[i - 1].base) != 0)
            id = e[i].base; /* first of its group keeps the plain form */
        else
            id = NULL;
        ids[e[i].index] = id ? xstrdup(id) : suffixed(&t, e[i].base);
    }
    for (size_t i = 0; i < count; i++)
        free(e[i].base);
    for (size_t i = 0; i < t.nextra; i++)
        free(t.extra[i]);
    free(t.extra);
    free(t.bases);
    free(e);
    return ids;
}

void tools_names_free(char **ids, size_t count)
{
    if (ids == NULL)
        return;
    for (size_t i = 0; i < count; i++)
        free(ids[i]);
    free(ids);
}

/* --- did you mean ----------------------------------------------------------- */

/* Lower-cases and folds the separators '-', '.', ' ' to '_'. */
static char *fold(const char *s)
{
    char *f = xstrdup(s);
    for (char *p = f; *p; p++) {
        if (*p >= 'A' && *p <= 'Z')
            *p = (char) (*p - 'A' + 'a');
        else if (*p == '-' || *p == '.' || *p == ' ')
            *p = '_';
    }
    return f;
}

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* Optimal string alignment distance, three rolling rows. */
static size_t osa_distance(const char *a, size_t n, const char *b, size_t m)
{
    size_t *rows = xmalloc(3 * (m + 1) * sizeof *rows);
    size_t *pp = rows, *prev = rows + (m + 1), *cur = rows + 2 * (m + 1);
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                pp[j - 2] + 1 < cur[j])
                cur[j] = pp[j - 2] + 1;
        }
        size_t *t = pp;
        pp = prev, prev = cur, cur = t;
    }
    size_t d = prev[m];
    free(rows);
    return d;
}

struct scored {
    size_t index;
    size_t score;
    const char *name;
};

static int cmp_scored(const void *a, const void *b)
{
    const struct scored *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? -1 : 1;
    int c = strcmp(x->name, y->name);
    if (c == 0)
        c = x->index < y->index ? -1 : x->index > y->index;
    return c;
}

/* Score of candidate c against the folded name f, or SIZE_MAX when it does
 * not qualify. Distances within the threshold rank before substring hits. */
static size_t score(const char *f, const char *c)
{
    size_t n = strlen(f), m = strlen(c);
    size_t longer = n > m ? n : m, shorter = n < m ? n : m;
    size_t limit = longer / 3 > 1 ? longer / 3 : 1;
    size_t d = osa_distance(f, n, c, m);
    if (d <= limit)
        return d;
    if (shorter >= 3 && (strstr(c, f) || strstr(f, c)))
        return limit + 1 + d;
    return SIZE_MAX;
}

size_t tools_names_suggest(const char *name, const char *const *candidates, size_t count,
                           size_t *out, size_t max)
{
    if (max == 0 || count == 0 || name == NULL)
        return 0;
    char *f = fold(name);
    struct scored *s = xcalloc(count, sizeof *s);
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        if (candidates[i] == NULL)
            continue;
        char *c = fold(candidates[i]);
        size_t sc = score(f, c);
        free(c);
        if (sc != SIZE_MAX)
            s[k++] = (struct scored){i, sc, candidates[i]};
    }
    qsort(s, k, sizeof *s, cmp_scored);
    size_t n = k < max ? k : max;
    for (size_t i = 0; i < n; i++)
        out[i] = s[i].index;
    free(s);
    free(f);
    return n;
}

int tools_names_append_suggestions(struct buf *out, const char *name, const char *const *candidates,
                                   size_t count, size_t max)
{
    if (max == 0)
        return 0;
    size_t *idx = xcalloc(max, sizeof *idx);
    size_t n = tools_names_suggest(name, candidates, count, idx, max);
    struct buf tmp;
    buf_init(&tmp, 0);
    for (size_t i = 0; i < n; i++)
        buf_printf(&tmp, "%s%s", i ? ", " : " Did you mean: ", candidates[idx[i]]);
    if (n)
        buf_append_char(&tmp, '?');
    int rc = tmp.len ? buf_append(out, tmp.data, tmp.len) : 0;
    buf_free(&tmp);
    free(idx);
    return rc;
}

const char *tools_names_split(const char *qualified, size_t *server_len)
{
    const char *dot = qualified ? strchr(qualified, '.') : NULL;
    if (dot == NULL)
        return NULL;
    if (server_len)
        *server_len = (size_t) (dot - qualified);
    return dot + 1;
}
