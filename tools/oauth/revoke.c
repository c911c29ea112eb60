/* Revocation of a logged-out server's tokens (see revoke.h): one POST per
 * token, refresh token first (RFC 7009 section 2.1: revoking it may revoke
 * the access tokens of its grant too). */
#include "tools/oauth/revoke.h"
#include "tools/oauth/client_auth.h"
#include "tools/oauth/fetch.h"
#include "tools/oauth/metadata.h"
#include "transport/http_client.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tools_oauth_revoke {
    uv_loop_t *loop;
    cJSON *row;
    char *secret, *key_file;
    struct http_client *hc;
    struct tools_oauth_fetch *fetch;
    tools_oauth_revoke_cb *cb;
    void *ud;
    int next; /* 0: refresh token, 1: access token, 2: over */
    int ok;
    char why[512];
    uv_timer_t start; /* the first request starts on the loop */
};

static void send_next(struct tools_oauth_revoke *r);

static void answered(void *ud, const struct tools_oauth_answer *a)
{
    struct tools_oauth_revoke *r = ud;
    r->fetch = NULL;
    /* RFC 7009 2.2: 200 whether or not the token was valid; 2.2.1:
     * unsupported_token_type for a kind it cannot revoke (self-contained
     * access tokens, say), which then simply expire */
    const char *e = tools_oauth_str(a->json, "error");
    if (a->status != 200 && r->ok && !(e && strcmp(e, "unsupported_token_type") == 0)) {
        if (a->error)
            snprintf(r->why, sizeof r->why, "its revocation endpoint %s %s", a->url ? a->url : "",
                     a->error);
        else
            snprintf(r->why, sizeof r->why, "the revocation endpoint answered HTTP %d%s%s",
                     a->status, e ? ": " : "", e ? e : "");
        r->ok = 0;
    }
    send_next(r);
}

static void send_next(struct tools_oauth_revoke *r)
{
    static const char *const kinds[] = {"refresh_token", "access_token"};
    while (r->next < 2) {
        const char *kind = kinds[r->next++];
        const char *token = tools_oauth_str(r->row, kind);
        if (token == NULL || *token == '\0')
            continue;
        const char *endpoint = tools_oauth_str(r->row, "revocation_endpoint");
        const char *method = tools_oauth_str(r->row, "auth_method");
        const char *secret = r->secret ? r->secret : tools_oauth_str(r->row, "client_secret");
        const char *id = tools_oauth_str(r->row, "client_id");
        struct buf form;
        buf_init(&form, 0);
        tools_oauth_form_add(&form, "token", token);
        tools_oauth_form_add(&form, "token_type_hint", kind);
        char *authorization = NULL;
        if (tools_oauth_client_auth(
                method   ? method
                : secret ? "client_secret_post"
                         : "none",
                id ? id : "", secret, r->key_file,
                tools_oauth_str(r->row, "issuer") ? tools_oauth_str(r->row, "issuer") : "", &form,
                &authorization, r->why, sizeof r->why) != 0) {
            r->ok = 0;
            buf_free(&form);
            continue;
        }
        struct tools_oauth_request rq = {.method = "POST",
                                         .url = endpoint,
                                         .content_type = "application/x-www-form-urlencoded",
                                         .body = form.data,
                                         .authorization = authorization};
        r->fetch = tools_oauth_fetch_start(r->hc, &rq, answered, r);
        buf_free(&form);
        free(authorization);
        if (r->fetch)
            return;
        snprintf(r->why, sizeof r->why, "cannot reach its revocation endpoint %s", endpoint);
        r->ok = 0;
    }
    r->next = 2;
    r->cb(r->ud, r->ok, r->ok ? NULL : r->why);
}

static void kick(uv_timer_t *t)
{
    send_next(t->data);
}

struct tools_oauth_revoke *tools_oauth_revoke_start(uv_loop_t *loop, const cJSON *row,
                                                    const char *secret, const char *key_file,
                                                    tools_oauth_revoke_cb *cb, void *ud)
{
    const char *endpoint = tools_oauth_str(row, "revocation_endpoint");
    char why[300];
    if (endpoint == NULL || !tools_oauth_url_ok(endpoint, why, sizeof why) ||
        (tools_oauth_str(row, "refresh_token") == NULL &&
         tools_oauth_str(row, "access_token") == NULL))
        return NULL;
    struct http_client *hc = http_client_new(loop, "mcp-codemode", why, sizeof why);
    if (hc == NULL)
        return NULL;
    struct tools_oauth_revoke *r = xcalloc(1, sizeof *r);
    r->loop = loop;
    r->row = cJSON_Duplicate(row, 1);
    r->secret = secret ? xstrdup(secret) : NULL;
    r->key_file = key_file ? xstrdup(key_file) : NULL;
    r->hc = hc;
    r->cb = cb;
    r->ud = ud;
    r->ok = 1;
    uv_timer_init(loop, &r->start);
    r->start.data = r;
    uv_timer_start(&r->start, kick, 0, 0);
    return r;
}

static void closed(uv_handle_t *h)
{
    free(h->data);
}

void tools_oauth_revoke_free(struct tools_oauth_revoke *r)
{
    if (r == NULL)
        return;
    tools_oauth_fetch_cancel(r->fetch);
    http_client_free(r->hc);
    cJSON_Delete(r->row);
    free(r->secret);
    free(r->key_file);
    uv_close((uv_handle_t *) &r->start, closed);
}
