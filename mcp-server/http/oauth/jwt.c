/* JWT access tokens (see jwt.h): split at the two dots, each part decoded
 * with strict base64url into a buffer sized from the (capped) token, the
 * header and payload parsed with common/json's parser; NumericDates may be
 * fractional and are compared in whole seconds. */
#include "mcp-server/http/oauth/jwt.h"
#include "common/alloc.h"
#include "common/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int jwt_shaped(const char *token, size_t len)
{
    size_t dots = 0;
    for (size_t i = 0; i < len && dots < 3; i++)
        dots += token[i] == '.';
    return dots == 2;
}

static cJSON *decode_json(const char *part, size_t len, const char *what, char *why, size_t n)
{
    unsigned char *raw = xmalloc(JOSE_B64URL_DECODED_MAX(len));
    long got = jose_b64url_decode(part, len, raw);
    cJSON *j = NULL;
    if (got < 0)
        snprintf(why, n, "its %s is not base64url", what);
    else if ((j = json_parse((const char *) raw, (size_t) got)) == NULL)
        snprintf(why, n, "its %s is not JSON", what);
    else if (!cJSON_IsObject(j)) {
        snprintf(why, n, "its %s is not a JSON object", what);
        cJSON_Delete(j);
        j = NULL;
    }
    free(raw);
    return j;
}

int jwt_parse(const char *token, size_t len, struct jwt *jwt, char *why, size_t n)
{
    memset(jwt, 0, sizeof *jwt);
    if (len > JWT_MAX_BYTES) {
        snprintf(why, n, "the token is %zu bytes long (at most %d are accepted)", len,
                 JWT_MAX_BYTES);
        return -1;
    }
    const char *d1 = memchr(token, '.', len);
    const char *d2 = d1 ? memchr(d1 + 1, '.', len - (size_t) (d1 + 1 - token)) : NULL;
    if (d2 == NULL || memchr(d2 + 1, '.', len - (size_t) (d2 + 1 - token))) {
        snprintf(why, n, "it is not a JWS compact serialization (three dot-separated parts)");
        return -1;
    }
    jwt->header = decode_json(token, (size_t) (d1 - token), "header", why, n);
    if (jwt->header == NULL)
        return -1;
    const cJSON *alg = cJSON_GetObjectItemCaseSensitive(jwt->header, "alg");
    const cJSON *kid = cJSON_GetObjectItemCaseSensitive(jwt->header, "kid");
    if (!cJSON_IsString(alg)) {
        snprintf(why, n, "its header names no alg");
        return -1;
    }
    jwt->alg_name = alg->valuestring;
    jwt->alg = jose_alg_parse(alg->valuestring);
    if (jwt->alg == JOSE_ALG_NONE) {
        snprintf(why, n,
                 "its alg \"%.20s\" is refused (RS256, PS256, ES256 and EdDSA are accepted)",
                 alg->valuestring);
        return -1;
    }
    if (kid && !cJSON_IsString(kid)) {
        snprintf(why, n, "its kid is not a string");
        return -1;
    }
    jwt->kid = kid ? kid->valuestring : NULL;
    if (cJSON_GetObjectItemCaseSensitive(jwt->header, "crit")) {
        snprintf(why, n, "its header has critical extensions (crit) we do not understand");
        return -1;
    }
    jwt->payload = decode_json(d1 + 1, (size_t) (d2 - d1 - 1), "payload", why, n);
    if (jwt->payload == NULL)
        return -1;
    size_t slen = len - (size_t) (d2 + 1 - token);
    jwt->sig = xmalloc(JOSE_B64URL_DECODED_MAX(slen));
    long got = jose_b64url_decode(d2 + 1, slen, jwt->sig);
    if (got <= 0) {
        snprintf(why, n, "its signature is %s", got == 0 ? "empty" : "not base64url");
        return -1;
    }
    jwt->sig_len = (size_t) got;
    jwt->signing_len = (size_t) (d2 - token);
    return 0;
}

void jwt_clear(struct jwt *jwt)
{
    cJSON_Delete(jwt->header);
    cJSON_Delete(jwt->payload);
    free(jwt->sig);
    memset(jwt, 0, sizeof *jwt);
}

int jwt_signature_ok(const struct jwt *jwt, const char *token, const struct jose_key *key)
{
    return jose_verify(key, jwt->alg, (const unsigned char *) token, jwt->signing_len, jwt->sig,
                       jwt->sig_len);
}

/* A NumericDate claim: 1 and *t when present and a finite number, 0 when
 * absent, -1 when present but not a number. */
static int date_claim(const cJSON *o, const char *name, int64_t *t)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, name);
    if (c == NULL)
        return 0;
    if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble) || c->valuedouble < 0 ||
        c->valuedouble > 1e15)
        return -1;
    *t = (int64_t) floor(c->valuedouble);
    return 1;
}

static int audience_has(const cJSON *aud, const char *audience)
{
    if (cJSON_IsString(aud))
        return strcmp(aud->valuestring, audience) == 0;
    const cJSON *a;
    if (cJSON_IsArray(aud))
        cJSON_ArrayForEach(a, aud)
        {
            if (cJSON_IsString(a) && strcmp(a->valuestring, audience) == 0)
                return 1;
        }
    return 0;
}

/* scope (a space-separated string, RFC 9068 / RFC 8693) or scp (an array of
 * strings, Entra and Okta) into a NULL-terminated vector. */
static int take_scopes(const cJSON *o, char ***out, char *why, size_t n)
{
    const cJSON *scope = cJSON_GetObjectItemCaseSensitive(o, "scope");
    const cJSON *scp = cJSON_GetObjectItemCaseSensitive(o, "scp");
    size_t cap = 8, k = 0;
    char **v = xcalloc(cap, sizeof *v);
    if (cJSON_IsString(scope)) {
        for (const char *p = scope->valuestring; *p;) {
            while (*p == ' ')
                p++;
            size_t w = strcspn(p, " ");
            if (w) {
                if (k + 1 >= cap)
                    v = xrealloc(v, (cap *= 2) * sizeof *v);
                v[k++] = xstrndup(p, w);
            }
            p += w;
        }
    } else if (cJSON_IsArray(scp) || cJSON_IsString(scp)) {
        const cJSON *s;
        if (cJSON_IsString(scp)) { /* some providers send scp as one string */
            free(v);
            cJSON *tmp = cJSON_CreateObject();
            cJSON_AddStringToObject(tmp, "scope", scp->valuestring);
            int rc = take_scopes(tmp, out, why, n);
            cJSON_Delete(tmp);
            return rc;
        }
        cJSON_ArrayForEach(s, scp)
        {
            if (!cJSON_IsString(s)) {
                snprintf(why, n, "its scp claim holds a value that is not a string");
                for (size_t i = 0; i < k; i++)
                    free(v[i]);
                free(v);
                return -1;
            }
            if (k + 1 >= cap)
                v = xrealloc(v, (cap *= 2) * sizeof *v);
            v[k++] = xstrdup(s->valuestring);
        }
    } else if (scope || scp) {
        snprintf(why, n, "its scope claim is neither a string nor an array of strings");
        free(v);
        return -1;
    }
    v[k] = NULL;
    *out = v;
    return 0;
}

static const char *str_claim(const cJSON *o, const char *name)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(c) ? c->valuestring : NULL;
}

/* iss, aud, exp, nbf, iat and sub, shared by both checks; exp_required
 * for JWTs (RFC 9068), not for introspection answers. */
static int check(const cJSON *o, const struct jwt_rules *r, int64_t now, int from_token,
                 struct jwt_identity *id, char *why, size_t n)
{
    memset(id, 0, sizeof *id);
    int64_t skew = r->clock_skew_seconds, exp = 0, nbf = 0, iat = 0;
    const char *iss = str_claim(o, "iss"), *sub = str_claim(o, "sub");
    const cJSON *aud = cJSON_GetObjectItemCaseSensitive(o, "aud");
    if (from_token || cJSON_GetObjectItemCaseSensitive(o, "iss")) {
        if (iss == NULL || strcmp(iss, r->issuer) != 0) {
            snprintf(why, n, "its issuer %.200s is not %.200s", iss ? iss : "(none)", r->issuer);
            return -1;
        }
    }
    if (from_token || aud) {
        if (!audience_has(aud, r->audience)) {
            snprintf(why, n, "its audience does not include %.200s (a token for another resource)",
                     r->audience);
            return -1;
        }
    }
    int has_exp = date_claim(o, "exp", &exp), has_nbf = date_claim(o, "nbf", &nbf);
    int has_iat = date_claim(o, "iat", &iat);
    if (has_exp < 0 || has_nbf < 0 || has_iat < 0) {
        snprintf(why, n, "its exp, nbf or iat is not a NumericDate");
        return -1;
    }
    if (from_token && !has_exp) {
        snprintf(why, n, "it has no exp (an access token must expire)");
        return -1;
    }
    if (has_exp && now >= exp + skew) {
        snprintf(why, n, "it expired %lld s ago", (long long) (now - exp));
        return -1;
    }
    if (has_nbf && now + skew < nbf) {
        snprintf(why, n, "it is not valid before %lld s from now", (long long) (nbf - now));
        return -1;
    }
    if (has_iat && now + skew < iat) {
        snprintf(why, n, "it was issued %lld s in the future", (long long) (iat - now));
        return -1;
    }
    const char *client = str_claim(o, "client_id");
    if (client == NULL)
        client = str_claim(o, "azp");
    /* an introspection answer may leave sub out for a client's own token
     * (client_credentials): the client is the subject then (as RFC 9068
     * asks of a JWT) */
    if (!from_token && (sub == NULL || sub[0] == '\0') && client && client[0])
        sub = client;
    if (sub == NULL || sub[0] == '\0') {
        snprintf(why, n, "it names no subject (sub)");
        return -1;
    }
    if (take_scopes(o, &id->scopes, why, n) != 0)
        return -1;
    id->iss = xstrdup(iss ? iss : r->issuer);
    id->sub = xstrdup(sub);
    id->client_id = client ? xstrdup(client) : NULL;
    id->exp = has_exp ? exp : 0;
    return 0;
}

int jwt_check_claims(const cJSON *payload, const struct jwt_rules *r, int64_t now,
                     struct jwt_identity *id, char *why, size_t n)
{
    return check(payload, r, now, 1, id, why, n);
}

int jwt_check_introspection(const cJSON *answer, const struct jwt_rules *r, int64_t now,
                            struct jwt_identity *id, char *why, size_t n)
{
    return check(answer, r, now, 0, id, why, n);
}

void jwt_identity_clear(struct jwt_identity *id)
{
    free(id->iss);
    free(id->sub);
    free(id->client_id);
    for (size_t i = 0; id->scopes && id->scopes[i]; i++)
        free(id->scopes[i]);
    free(id->scopes);
    memset(id, 0, sizeof *id);
}

void jwt_identity_copy(struct jwt_identity *dst, const struct jwt_identity *src)
{
    size_t k = 0;
    while (src->scopes && src->scopes[k])
        k++;
    dst->iss = src->iss ? xstrdup(src->iss) : NULL;
    dst->sub = src->sub ? xstrdup(src->sub) : NULL;
    dst->client_id = src->client_id ? xstrdup(src->client_id) : NULL;
    dst->exp = src->exp;
    dst->scopes = xcalloc(k + 1, sizeof(char *));
    for (size_t i = 0; i < k; i++)
        dst->scopes[i] = xstrdup(src->scopes[i]);
}
