/* WWW-Authenticate parsing (RFC 9110 section 11.6.1 grammar): a list of
 * challenges "scheme [token68 | auth-param *(, auth-param)]", where a
 * comma may separate either two parameters or two challenges. We keep the
 * parameters of the Bearer challenge that matter to MCP authorization. */
#include "tools/oauth/challenge.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_tchar(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           (ch != '\0' && strchr("!#$%&'*+-.^_`|~", ch) != NULL);
}

static const char *skip_ows(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static const char *skip_list(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == ',')
        p++;
    return p;
}

/* A token at p: its end (p when there is none). */
static const char *token_end(const char *p)
{
    while (is_tchar(*p))
        p++;
    return p;
}

/* A quoted string at p (after the opening quote): its unescaped text into
 * out, and the position after the closing quote, or NULL when unterminated. */
static const char *quoted(const char *p, struct buf *out)
{
    for (; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1])
            p++;
        buf_append_char(out, *p);
    }
    return *p == '"' ? p + 1 : NULL;
}

static void keep(struct tools_oauth_challenge *c, const char *name, size_t n, char *value)
{
    static const struct {
        const char *name;
        size_t off;
    } wanted[] = {
        {"resource_metadata", offsetof(struct tools_oauth_challenge, resource_metadata)},
        {"scope", offsetof(struct tools_oauth_challenge, scope)},
        {"error", offsetof(struct tools_oauth_challenge, error)},
        {"error_description", offsetof(struct tools_oauth_challenge, error_description)},
    };
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        char **slot = (char **) ((char *) c + wanted[i].off);
        if (strlen(wanted[i].name) == n && strncasecmp(wanted[i].name, name, n) == 0 &&
            *slot == NULL) {
            *slot = value;
            return;
        }
    }
    free(value);
}

/* One auth-param "name = value" at p for the challenge in c (NULL: not
 * Bearer, values dropped). Returns the position after it, or NULL when
 * malformed; *was_param 0 when p starts a new challenge instead. */
static const char *param(const char *p, struct tools_oauth_challenge *c, int *was_param)
{
    const char *ne = token_end(p);
    const char *q = skip_ows(ne);
    *was_param = ne > p && *q == '=' && q[1] != '=';
    if (!*was_param)
        return p;
    q = skip_ows(q + 1);
    struct buf v;
    buf_init(&v, 0);
    if (*q == '"') {
        q = quoted(q + 1, &v);
    } else {
        const char *ve = token_end(q);
        buf_append(&v, q, (size_t) (ve - q));
        q = ve;
    }
    if (q == NULL) {
        buf_free(&v);
        return NULL;
    }
    if (v.data == NULL)
        buf_append_str(&v, "");
    if (c)
        keep(c, p, (size_t) (ne - p), buf_steal(&v));
    else
        buf_free(&v);
    return q;
}

void tools_oauth_challenge_free(struct tools_oauth_challenge *c)
{
    free(c->resource_metadata);
    free(c->scope);
    free(c->error);
    free(c->error_description);
    memset(c, 0, sizeof *c);
}

/* After a scheme: a token68 or the parameters. Returns the position of the
 * next challenge, or NULL when malformed. */
static const char *challenge_body(const char *p, struct tools_oauth_challenge *into)
{
    const char *t = token_end(p);
    const char *after = t;
    while (*after == '=')
        after++;
    if (t > p && *skip_ows(after) != '=' && (*skip_ows(after) == ',' || *skip_ows(after) == 0) &&
        after > t)
        return skip_list(after); /* token68 (ends in '=') */
    for (;;) {
        p = skip_list(p);
        if (*p == '\0')
            return p;
        int was_param;
        const char *next = param(p, into, &was_param);
        if (next == NULL)
            return NULL;
        if (!was_param)
            return p; /* the next challenge's scheme */
        p = skip_ows(next);
        if (*p != ',' && *p != '\0')
            return NULL;
    }
}

int tools_oauth_challenge_parse(const char *header, struct tools_oauth_challenge *c)
{
    memset(c, 0, sizeof *c);
    if (header == NULL)
        return 0;
    if (strlen(header) > TOOLS_OAUTH_CHALLENGE_MAX)
        return -1;
    const char *p = skip_list(header);
    while (*p) {
        const char *se = token_end(p);
        if (se == p)
            goto bad;
        int bearer = (size_t) (se - p) == 6 && strncasecmp(p, "Bearer", 6) == 0 && !c->bearer;
        if (bearer)
            c->bearer = 1;
        p = challenge_body(skip_ows(se), bearer ? c : NULL);
        if (p == NULL)
            goto bad;
        p = skip_list(p);
    }
    return 0;
bad:
    tools_oauth_challenge_free(c);
    return -1;
}
