/* Raw JSON scanning (see json_scan.h). */
#include "transport/json_scan.h"

#include <string.h>

#define MAX_DEPTH 512

const char *json_scan_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static const char *scan_string(const char *p, const char *end)
{
    if (p >= end || *p != '"')
        return NULL;
    for (p++; p < end; p++) {
        if (*p == '\\') {
            if (++p >= end)
                return NULL;
        } else if (*p == '"') {
            return p + 1;
        } else if ((unsigned char) *p < 0x20) {
            return NULL;
        }
    }
    return NULL;
}

static const char *scan_literal(const char *p, const char *end)
{
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if ((size_t) (end - p) >= n && memcmp(p, words[i], n) == 0)
            return p + n;
    }
    return NULL;
}

static const char *scan_number(const char *p, const char *end)
{
    const char *s = p;
    if (p < end && *p == '-')
        p++;
    if (p >= end || *p < '0' || *p > '9')
        return NULL;
    while (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' ||
                       *p == '+' || *p == '-'))
        p++;
    return p > s ? p : NULL;
}

static const char *scan(const char *p, const char *end, int depth);

static const char *scan_container(const char *p, const char *end, int depth)
{
    char close = *p == '{' ? '}' : ']';
    int object = *p == '{';
    p = json_scan_ws(p + 1, end);
    if (p < end && *p == close)
        return p + 1;
    for (;;) {
        if (object) {
            p = scan_string(json_scan_ws(p, end), end);
            if (p == NULL)
                return NULL;
            p = json_scan_ws(p, end);
            if (p >= end || *p != ':')
                return NULL;
            p++;
        }
        p = scan(p, end, depth + 1);
        if (p == NULL)
            return NULL;
        p = json_scan_ws(p, end);
        if (p >= end)
            return NULL;
        if (*p == close)
            return p + 1;
        if (*p != ',')
            return NULL;
        p++;
    }
}

static const char *scan(const char *p, const char *end, int depth)
{
    p = json_scan_ws(p, end);
    if (p >= end || depth > MAX_DEPTH)
        return NULL;
    switch (*p) {
    case '{':
    case '[':
        return scan_container(p, end, depth);
    case '"':
        return scan_string(p, end);
    case 't':
    case 'f':
    case 'n':
        return scan_literal(p, end);
    default:
        return scan_number(p, end);
    }
}

const char *json_scan_value(const char *p, const char *end)
{
    return scan(p, end, 0);
}

/* Finds member `key` in the object at p; returns the value start. */
static const char *find_key(const char *p, const char *end, const char *key, size_t *vlen)
{
    p = json_scan_ws(p, end);
    if (p >= end || *p != '{')
        return NULL;
    p = json_scan_ws(p + 1, end);
    size_t klen = strlen(key);
    while (p < end && *p == '"') {
        const char *ks = p;
        const char *ke = scan_string(p, end);
        if (ke == NULL)
            return NULL;
        p = json_scan_ws(ke, end);
        if (p >= end || *p != ':')
            return NULL;
        const char *vs = json_scan_ws(p + 1, end);
        const char *ve = scan(vs, end, 1);
        if (ve == NULL)
            return NULL;
        if ((size_t) (ke - ks) == klen + 2 && memcmp(ks + 1, key, klen) == 0) {
            *vlen = (size_t) (ve - vs);
            return vs;
        }
        p = json_scan_ws(ve, end);
        if (p < end && *p == ',')
            p = json_scan_ws(p + 1, end);
    }
    return NULL;
}

const char *json_scan_member(const char *text, size_t len, const char *const *path, size_t depth,
                             size_t *vlen)
{
    const char *p = text, *end = text + len;
    size_t n = len;
    for (size_t i = 0; i < depth; i++) {
        p = find_key(p, end, path[i], &n);
        if (p == NULL)
            return NULL;
        end = p + n;
    }
    *vlen = n;
    return p;
}
