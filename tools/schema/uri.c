/* RFC 3986 reference resolution for $id and $ref: parse into components,
 * merge paths, remove dot segments. No normalisation beyond that: URIs are
 * compared as strings, as the JSON Schema specifications allow. */
#include "tools/schema/uri.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct part {
    const char *p;
    size_t len;
    int present;
};

struct uri {
    struct part scheme, auth, path, query, frag;
};

static size_t scheme_len(const char *s)
{
    if (!isalpha((unsigned char) s[0]))
        return 0;
    size_t i = 1;
    while (isalnum((unsigned char) s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.')
        i++;
    return s[i] == ':' ? i : 0;
}

static void parse(const char *s, struct uri *u)
{
    memset(u, 0, sizeof *u);
    size_t n = scheme_len(s);
    if (n) {
        u->scheme = (struct part){s, n, 1};
        s += n + 1;
    }
    if (s[0] == '/' && s[1] == '/') {
        size_t k = strcspn(s + 2, "/?#");
        u->auth = (struct part){s + 2, k, 1};
        s += 2 + k;
    }
    size_t k = strcspn(s, "?#");
    u->path = (struct part){s, k, 1};
    s += k;
    if (*s == '?') {
        k = strcspn(s + 1, "#");
        u->query = (struct part){s + 1, k, 1};
        s += 1 + k;
    }
    if (*s == '#')
        u->frag = (struct part){s + 1, strlen(s + 1), 1};
}

/* Removes the last segment (and its "/") from out. */
static void pop_segment(struct buf *out, size_t start)
{
    while (out->len > start && out->data[out->len - 1] != '/')
        out->len--;
    if (out->len > start)
        out->len--;
    if (out->data)
        out->data[out->len] = '\0';
}

/* RFC 3986 5.2.4 remove_dot_segments, appending the result to out. */
static void remove_dots(struct buf *out, const char *in, size_t len)
{
    size_t start = out->len, i = 0;
    while (i < len) {
        const char *p = in + i;
        size_t rest = len - i;
        if (rest >= 3 && memcmp(p, "../", 3) == 0) {
            i += 3;
        } else if (rest >= 2 && memcmp(p, "./", 2) == 0) {
            i += 2;
        } else if (rest >= 3 && memcmp(p, "/./", 3) == 0) {
            i += 2;
        } else if (rest == 2 && memcmp(p, "/.", 2) == 0) {
            buf_append_char(out, '/');
            i = len;
        } else if (rest >= 4 && memcmp(p, "/../", 4) == 0) {
            i += 3;
            pop_segment(out, start);
        } else if (rest == 3 && memcmp(p, "/..", 3) == 0) {
            pop_segment(out, start);
            buf_append_char(out, '/');
            i = len;
        } else if ((rest == 1 && p[0] == '.') || (rest == 2 && memcmp(p, "..", 2) == 0)) {
            i = len;
        } else {
            size_t k = p[0] == '/' ? 1 : 0;
            while (k < rest && p[k] != '/')
                k++;
            buf_append(out, p, k);
            i += k;
        }
    }
}

static void append_part(struct buf *b, const char *prefix, const struct part *pt,
                        const char *suffix)
{
    if (!pt->present)
        return;
    buf_append_str(b, prefix);
    buf_append(b, pt->p, pt->len);
    buf_append_str(b, suffix);
}

/* The path of a relative-path reference merged with the base (5.2.3). */
static void merged_path(struct buf *out, const struct uri *b, const struct uri *r)
{
    struct buf tmp;
    buf_init(&tmp, 0);
    if (b->auth.present && b->path.len == 0) {
        buf_append_char(&tmp, '/');
    } else {
        size_t k = b->path.len;
        while (k > 0 && b->path.p[k - 1] != '/')
            k--;
        buf_append(&tmp, b->path.p, k);
    }
    buf_append(&tmp, r->path.p, r->path.len);
    remove_dots(out, tmp.data, tmp.len);
    buf_free(&tmp);
}

char *schema__uri_resolve(const char *base, const char *ref)
{
    struct uri b, r;
    struct buf out;
    parse(base, &b);
    parse(ref, &r);
    buf_init(&out, 0);
    const struct uri *auth_from = &r, *query_from = &r;
    if (!r.scheme.present && !r.auth.present) {
        auth_from = &b;
        if (r.path.len == 0 && !r.query.present)
            query_from = &b;
    }
    append_part(&out, "", r.scheme.present ? &r.scheme : &b.scheme, ":");
    append_part(&out, "//", &auth_from->auth, "");
    if (r.scheme.present || r.auth.present || (r.path.len && r.path.p[0] == '/'))
        remove_dots(&out, r.path.p, r.path.len);
    else if (r.path.len == 0)
        buf_append(&out, b.path.p, b.path.len);
    else
        merged_path(&out, &b, &r);
    append_part(&out, "?", &query_from->query, "");
    append_part(&out, "#", &r.frag, "");
    return buf_steal(&out);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *schema__uri_percent_decode(const char *s, size_t len)
{
    char *out = xmalloc(len + 1);
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        int h, l;
        if (s[i] == '%' && i + 2 < len && (h = hexval((unsigned char) s[i + 1])) >= 0 &&
            (l = hexval((unsigned char) s[i + 2])) >= 0) {
            out[k++] = (char) (h * 16 + l);
            i += 2;
        } else {
            out[k++] = s[i];
        }
    }
    out[k] = '\0';
    return out;
}
