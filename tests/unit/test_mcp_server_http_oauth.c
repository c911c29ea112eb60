/* Unit tests of the inbound token verifier (mcp-server/http/oauth/): keys
 * made here with libcrypto (RSA 2048, EC P-256, Ed25519), tokens signed here
 * with EVP_DigestSign, the JWKS, metadata and introspection served by
 * tests/fixtures/servers/oauth-keys.mjs on loopback. Valid RS256, PS256,
 * ES256 and EdDSA tokens; every refusal (expired, not yet valid, issued in
 * the future, wrong issuer, wrong audience, no sub, bad signature, alg
 * none, HS256 signed with the RSA public key, an alg the key does not
 * allow, malformed base64 and JSON, a 1 MB token); an unknown kid (one
 * refetch, then refusal, then rate-limited), a burst of unknown kids and of
 * first checks (one fetch), the JWKS down (fail closed, logged), keys past
 * their lifetime kept while the JWKS is down (stale-if-error, bounded;
 * an unknown kid refused), discovery
 * through RFC 8414 and OpenID metadata with path insertion, Cache-Control,
 * introspection (cached, shared, bounded) and cancellation; and tokens of a
 * real authorization server (npm oidc-provider, all four algorithms and an
 * opaque token introspected). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/http/oauth/jose.h"
#include "mcp-server/http/oauth/jwks.h"
#include "mcp-server/http/oauth/verifier.h"
#include "transport/http_client.h"
#include "tools/oauth/fetch.h"
#include "common/alloc.h"
#include "common/base64.h"
#include "common/buf.h"
#include "common/log.h"
#include "support/loop_wait.h"
#include "support/node_server.h"
#include "support/repo_root.h"

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <limits.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SERVER   "tests/fixtures/servers/oauth-keys.mjs"
#define AUDIENCE "https://mcp.example.com/mcp"

static uv_loop_t loop;
static struct node_server srv;
static char dir[PATH_MAX], base[64], jwks_url[96];
static EVP_PKEY *rsa, *rsa_other, *ec, *ed;

/* --- keys and tokens ------------------------------------------------------------------------ */

static void b64url(struct buf *b, const unsigned char *p, size_t n)
{
    char *t = xmalloc((n + 2) / 3 * 4 + 1);
    size_t len = base64_encode(p, n, t);
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '=')
            break;
        buf_append_char(b, t[i] == '+' ? '-' : t[i] == '/' ? '_' : t[i]);
    }
    free(t);
}

static void b64url_str(struct buf *b, const char *s)
{
    b64url(b, (const unsigned char *) s, strlen(s));
}

static void bn_member(struct buf *b, const char *name, EVP_PKEY *k, const char *param, int pad)
{
    BIGNUM *bn = NULL;
    assert_int_equal(EVP_PKEY_get_bn_param(k, param, &bn), 1);
    unsigned char raw[512];
    int n = pad ? BN_bn2binpad(bn, raw, pad) : BN_bn2bin(bn, raw);
    BN_free(bn);
    buf_printf(b, ",\"%s\":\"", name);
    b64url(b, raw, (size_t) n);
    buf_append_char(b, '"');
}

/* The public JWK of k with kid (and alg when not NULL). */
static void jwk(struct buf *b, EVP_PKEY *k, const char *kid, const char *alg)
{
    buf_printf(b, "{\"kid\":\"%s\",\"use\":\"sig\"", kid);
    if (alg)
        buf_printf(b, ",\"alg\":\"%s\"", alg);
    if (EVP_PKEY_is_a(k, "RSA")) {
        buf_append_str(b, ",\"kty\":\"RSA\"");
        bn_member(b, "n", k, OSSL_PKEY_PARAM_RSA_N, 0);
        bn_member(b, "e", k, OSSL_PKEY_PARAM_RSA_E, 0);
    } else if (EVP_PKEY_is_a(k, "EC")) {
        buf_append_str(b, ",\"kty\":\"EC\",\"crv\":\"P-256\"");
        bn_member(b, "x", k, OSSL_PKEY_PARAM_EC_PUB_X, 32);
        bn_member(b, "y", k, OSSL_PKEY_PARAM_EC_PUB_Y, 32);
    } else {
        unsigned char raw[32];
        size_t n = sizeof raw;
        assert_int_equal(EVP_PKEY_get_raw_public_key(k, raw, &n), 1);
        buf_append_str(b, ",\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"");
        b64url(b, raw, n);
        buf_append_char(b, '"');
    }
    buf_append_char(b, '}');
}

static void write_file(const char *name, const char *text)
{
    char path[PATH_MAX + 64], tmp[PATH_MAX + 80];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(rename(tmp, path), 0);
}

static void remove_file(const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
}

/* How many requests the fixture counted for name ("jwks", "as", ...). */
static int served(const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s-count", dir, name);
    FILE *f = fopen(path, "r");
    int n = 0;
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = 0;
        fclose(f);
    }
    return n;
}

/* The JWKS served: rsa1 (RS256/PS256), rsa-ps (alg PS256 pinned), ec1, ed1,
 * plus extra ("" or ",{...}"). */
static void serve_jwks(const char *extra)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, "{\"keys\":[");
    jwk(&b, rsa, "rsa1", NULL);
    buf_append_char(&b, ',');
    jwk(&b, rsa, "rsa-ps", "PS256");
    buf_append_char(&b, ',');
    jwk(&b, ec, "ec1", NULL);
    buf_append_char(&b, ',');
    jwk(&b, ed, "ed1", NULL);
    buf_append_str(&b, extra);
    buf_append_str(&b, "]}");
    write_file("jwks.json", b.data);
    buf_free(&b);
}

static void sign(EVP_PKEY *k, const char *alg, const char *input, struct buf *out)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    int eddsa = strcmp(alg, "EdDSA") == 0;
    assert_int_equal(EVP_DigestSignInit(md, &pctx, eddsa ? NULL : EVP_sha256(), NULL, k), 1);
    if (strcmp(alg, "PS256") == 0) {
        assert_int_equal(EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING), 1);
        assert_int_equal(EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST), 1);
    }
    size_t n = 0;
    assert_int_equal(EVP_DigestSign(md, NULL, &n, (const unsigned char *) input, strlen(input)), 1);
    unsigned char *sig = xmalloc(n);
    assert_int_equal(EVP_DigestSign(md, sig, &n, (const unsigned char *) input, strlen(input)), 1);
    EVP_MD_CTX_free(md);
    if (strcmp(alg, "ES256") == 0) { /* DER to JOSE's r||s */
        const unsigned char *p = sig;
        ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &p, (long) n);
        assert_non_null(es);
        unsigned char raw[64];
        BN_bn2binpad(ECDSA_SIG_get0_r(es), raw, 32);
        BN_bn2binpad(ECDSA_SIG_get0_s(es), raw + 32, 32);
        ECDSA_SIG_free(es);
        b64url(out, raw, 64);
    } else {
        b64url(out, sig, n);
    }
    free(sig);
}

/* A token: header {"alg":alg,"kid":kid} (kid NULL: none), payload as
 * given, signed with k (NULL: the signature is the text "sig"). */
static char *token_raw(EVP_PKEY *k, const char *alg, const char *kid, const char *payload)
{
    struct buf b, h;
    buf_init(&b, 0);
    buf_init(&h, 0);
    buf_printf(&h, "{\"alg\":\"%s\",\"typ\":\"at+jwt\"", alg);
    if (kid)
        buf_printf(&h, ",\"kid\":\"%s\"", kid);
    buf_append_char(&h, '}');
    b64url_str(&b, h.data);
    buf_append_char(&b, '.');
    b64url_str(&b, payload);
    char *input = xstrdup(b.data);
    buf_append_char(&b, '.');
    if (k)
        sign(k, alg, input, &b);
    else
        buf_append_str(&b, "c2ln");
    free(input);
    buf_free(&h);
    return buf_steal(&b);
}

/* A payload with the usual claims; each override NULL keeps the default. */
static char *claims(const char *iss, const char *aud_json, long exp_in, const char *extra)
{
    struct buf b;
    buf_init(&b, 0);
    long now = (long) time(NULL);
    buf_printf(&b,
               "{\"iss\":\"%s\",\"aud\":%s,\"sub\":\"alice\",\"exp\":%ld,\"iat\":%ld,"
               "\"scope\":\"crm:read  crm:write\",\"client_id\":\"app1\"%s}",
               iss ? iss : base, aud_json ? aud_json : "\"" AUDIENCE "\"", now + exp_in, now,
               extra ? extra : "");
    return buf_steal(&b);
}

static char *good_token(EVP_PKEY *k, const char *alg, const char *kid)
{
    char *p = claims(NULL, NULL, 600, NULL);
    char *t = token_raw(k, alg, kid, p);
    free(p);
    return t;
}

/* --- the verifier under test ---------------------------------------------------------------- */

struct fixture {
    struct http_client *hc;
    struct http_token_verifier *v;
    struct http_oauth_settings s;
    char issuer[128];
};

static struct fixture *fx_new(const char *issuer_path, int with_jwks_uri, int introspect)
{
    struct fixture *f = xcalloc(1, sizeof *f);
    char err[300];
    f->hc = http_client_new(&loop, "test", err, sizeof err);
    assert_non_null(f->hc);
    snprintf(f->issuer, sizeof f->issuer, "%s%s", base, issuer_path ? issuer_path : "");
    f->s.issuer = f->issuer;
    f->s.audience = AUDIENCE;
    f->s.jwks_uri = with_jwks_uri ? jwks_url : NULL;
    f->s.clock_skew_seconds = 30;
    if (introspect) {
        static char url[128];
        snprintf(url, sizeof url, "%s/introspect", base);
        f->s.introspection_url = url;
        f->s.introspection_client_id = "rs";
        f->s.introspection_client_secret = "s3cret";
    }
    f->v = http_token_verifier_new(&loop, f->hc, &f->s, err, sizeof err);
    assert_non_null(f->v);
    return f;
}

static void fx_free(struct fixture *f)
{
    http_token_verifier_free(f->v);
    http_client_free(f->hc);
    uv_run(&loop, UV_RUN_NOWAIT);
    uv_run(&loop, UV_RUN_NOWAIT);
    free(f);
}

struct outcome {
    int done;
    int status;
    char sub[64], iss[128], client[64], scopes[128], reason[512];
    int64_t exp;
};

static void on_checked(void *ud, enum http_token_status status,
                       const struct http_token_identity *id, const char *reason)
{
    struct outcome *o = ud;
    o->done++;
    o->status = (int) status;
    if (id) {
        snprintf(o->sub, sizeof o->sub, "%s", id->sub);
        snprintf(o->iss, sizeof o->iss, "%s", id->iss);
        snprintf(o->client, sizeof o->client, "%s", id->client_id ? id->client_id : "");
        o->exp = id->exp;
        o->scopes[0] = '\0';
        for (size_t i = 0; id->scopes[i]; i++)
            snprintf(o->scopes + strlen(o->scopes), sizeof o->scopes - strlen(o->scopes), "%s[%s]",
                     i ? " " : "", id->scopes[i]);
    }
    if (reason)
        snprintf(o->reason, sizeof o->reason, "%s", reason);
}

/* The full check of token, waited for; asserts the callback came later. */
static struct outcome check(struct fixture *f, const char *token)
{
    struct outcome o = {0};
    struct http_token_check *c = http_token_verify(f->v, token, strlen(token), on_checked, &o);
    assert_non_null(c);
    assert_int_equal(o.done, 0); /* never inside the call */
    assert_true(loop_run_until(&loop, &o.done, 10000));
    uv_run(&loop, UV_RUN_NOWAIT);
    assert_int_equal(o.done, 1);
    return o;
}

static void expect_invalid(struct fixture *f, const char *token, const char *why)
{
    struct outcome o = check(f, token);
    if (o.status != HTTP_TOKEN_INVALID || strstr(o.reason, why) == NULL)
        fail_msg("expected invalid with \"%s\", got status %d reason \"%s\"", why, o.status,
                 o.reason);
}

static void expect_invalid_free(struct fixture *f, char *token, const char *why)
{
    expect_invalid(f, token, why);
    free(token);
}

/* --- harness -------------------------------------------------------------------------------- */

static int group_setup(void **state)
{
    (void) state;
    snprintf(dir, sizeof dir, "/tmp/oauth-keys-XXXXXX");
    if (mkdtemp(dir) == NULL)
        return -1;
    rsa = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t) 2048);
    rsa_other = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t) 2048);
    ec = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    ed = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
    if (!rsa || !rsa_other || !ec || !ed)
        return -1;
    const char *argv[] = {"node", SERVER, dir, "@PORT@", NULL};
    if (node_server_start(&srv, 0, argv, 10000) != 0)
        return -1;
    snprintf(base, sizeof base, "http://127.0.0.1:%d", srv.port);
    snprintf(jwks_url, sizeof jwks_url, "%s/jwks", base);
    return 0;
}

static int group_teardown(void **state)
{
    (void) state;
    node_server_stop(&srv);
    EVP_PKEY_free(rsa);
    EVP_PKEY_free(rsa_other);
    EVP_PKEY_free(ec);
    EVP_PKEY_free(ed);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return -1;
    return 0;
}

static int setup(void **state)
{
    (void) state;
    serve_jwks("");
    remove_file("jwks-down");
    remove_file("jwks-cache-control");
    return 0;
}

static struct node_server op;

static int teardown(void **state)
{
    (void) state;
    loop_wait_abort();
    node_server_stop(&op);
    return 0;
}

/* --- tests ------------------------------------------------------------------------------------ */

static void test_valid_algorithms(void **state)
{
    (void) state;
    struct fixture *f = fx_new(NULL, 1, 0);
    struct {
        EVP_PKEY **k;
        const char *alg, *kid;
    } cases[] = {{&rsa, "RS256", "rsa1"},
                 {&rsa, "PS256", "rsa1"},
                 {&rsa, "PS256", "rsa-ps"},
                 {&ec, "ES256", "ec1"},
                 {&ed, "EdDSA", "ed1"}};
    int before = served("jwks");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = good_token(*cases[i].k, cases[i].alg, cases[i].kid);
        struct outcome o = check(f, t);
        if (o.status != HTTP_TOKEN_VALID)
            fail_msg("%s/%s: %s", cases[i].alg, cases[i].kid, o.reason);
        assert_string_equal(o.sub, "alice");
        assert_string_equal(o.iss, base);
        assert_string_equal(o.client, "app1");
        assert_string_equal(o.scopes, "[crm:read] [crm:write]");
        assert_true(o.exp > (int64_t) time(NULL));
        /* the fast path has the key now */
        struct http_token_identity id;
        const char *why = NULL;
        assert_int_equal(http_token_verify_cached(f->v, t, strlen(t), &id, &why), HTTP_TOKEN_VALID);
        assert_string_equal(id.sub, "alice");
        free(t);
    }
    assert_int_equal(served("jwks") - before, 1); /* one fetch for all */
    /* no kid: every key that allows the alg is tried */
    char *t = good_token(ec, "ES256", NULL);
    assert_int_equal(check(f, t).status, HTTP_TOKEN_VALID);
    free(t);
    /* scp as an array, azp as the client, an audience array holding ours */
    long now = (long) time(NULL);
    char pl[512];
    snprintf(pl, sizeof pl,
             "{\"iss\":\"%s\",\"aud\":[\"https://other.example\",\"" AUDIENCE
             "\"],\"sub\":\"bob\",\"exp\":%ld,\"scp\":[\"a\",\"b\"],\"azp\":\"app2\"}",
             base, now + 60);
    t = token_raw(ed, "EdDSA", "ed1", pl);
    struct outcome o = check(f, t);
    assert_int_equal(o.status, HTTP_TOKEN_VALID);
    assert_string_equal(o.sub, "bob");
    assert_string_equal(o.scopes, "[a] [b]");
    assert_string_equal(o.client, "app2");
    free(t);
    /* within the clock skew (30 s) an expired token still passes */
    char *p = claims(NULL, NULL, -10, NULL);
    t = token_raw(rsa, "RS256", "rsa1", p);
    assert_int_equal(check(f, t).status, HTTP_TOKEN_VALID);
    free(t);
    free(p);
    fx_free(f);
}

static void test_claims_refused(void **state)
{
    (void) state;
    struct fixture *f = fx_new(NULL, 1, 0);
    long now = (long) time(NULL);
    char extra[128];
    char *p = claims(NULL, NULL, -120, NULL);
    expect_invalid_free(f, token_raw(rsa, "RS256", "rsa1", p), "expired");
    free(p);
    snprintf(extra, sizeof extra, ",\"nbf\":%ld", now + 300);
    p = claims(NULL, NULL, 600, extra);
    expect_invalid_free(f, token_raw(rsa, "RS256", "rsa1", p), "not valid before");
    free(p);
    p = claims("https://evil.example", NULL, 600, NULL);
    expect_invalid_free(f, token_raw(ec, "ES256", "ec1", p), "issuer https://evil.example");
    free(p);
    p = claims(NULL, "\"https://other.example/mcp\"", 600, NULL);
    expect_invalid_free(f, token_raw(ec, "ES256", "ec1", p), "another resource");
    free(p);
    p = claims(NULL, "[\"https://other.example/mcp\"]", 600, NULL);
    expect_invalid_free(f, token_raw(ed, "EdDSA", "ed1", p), "another resource");
    free(p);
    char pl[512];
    snprintf(pl, sizeof pl, "{\"iss\":\"%s\",\"aud\":\"" AUDIENCE "\",\"exp\":%ld}", base,
             now + 60);
    expect_invalid_free(f, token_raw(rsa, "RS256", "rsa1", pl), "no subject");
    snprintf(pl, sizeof pl, "{\"iss\":\"%s\",\"aud\":\"" AUDIENCE "\",\"sub\":\"a\"}", base);
    expect_invalid_free(f, token_raw(rsa, "RS256", "rsa1", pl), "no exp");
    snprintf(pl, sizeof pl,
             "{\"iss\":\"%s\",\"aud\":\"" AUDIENCE "\",\"sub\":\"a\",\"exp\":%ld,\"iat\":%ld}",
             base, now + 600, now + 300);
    expect_invalid_free(f, token_raw(rsa, "RS256", "rsa1", pl), "in the future");
    snprintf(pl, sizeof pl,
             "{\"iss\":\"%s\",\"aud\":\"" AUDIENCE "\",\"sub\":\"a\",\"exp\":\"soon\"}", base);
    expect_invalid_free(f, token_raw(rsa, "RS256", "rsa1", pl), "NumericDate");
    fx_free(f);
}

static void test_signatures_refused(void **state)
{
    (void) state;
    struct fixture *f = fx_new(NULL, 1, 0);
    /* a signature altered in the middle */
    char *t = good_token(rsa, "RS256", "rsa1");
    char *dot = strrchr(t, '.');
    dot[10] = dot[10] == 'A' ? 'B' : 'A';
    expect_invalid_free(f, t, "signature does not verify");
    /* signed by another key under a known kid */
    expect_invalid_free(f, good_token(rsa_other, "RS256", "rsa1"), "signature does not verify");
    /* a payload changed after signing */
    t = good_token(ec, "ES256", "ec1");
    char *p2 = claims(NULL, NULL, 600, ",\"admin\":true");
    struct buf b;
    buf_init(&b, 0);
    b64url_str(&b, p2);
    char *d1 = strchr(t, '.'), *d2 = strrchr(t, '.');
    struct buf forged;
    buf_init(&forged, 0);
    buf_append(&forged, t, (size_t) (d1 - t + 1));
    buf_append(&forged, b.data, b.len);
    buf_append_str(&forged, d2);
    expect_invalid(f, forged.data, "signature does not verify");
    buf_free(&forged);
    buf_free(&b);
    free(p2);
    free(t);
    /* alg none, with and without a signature */
    char *p = claims(NULL, NULL, 600, NULL);
    expect_invalid_free(f, token_raw(NULL, "none", "rsa1", p), "alg \"none\" is refused");
    struct buf nb;
    buf_init(&nb, 0);
    b64url_str(&nb, "{\"alg\":\"none\"}");
    buf_append_char(&nb, '.');
    b64url_str(&nb, p);
    buf_append_char(&nb, '.');
    expect_invalid(f, nb.data, "refused");
    buf_free(&nb);
    /* HS256 with the RSA public key (PEM) as the HMAC secret */
    {
        BIO *bio = BIO_new(BIO_s_mem());
        assert_int_equal(PEM_write_bio_PUBKEY(bio, rsa), 1);
        char *pem;
        long pemlen = BIO_get_mem_data(bio, &pem);
        struct buf hs;
        buf_init(&hs, 0);
        b64url_str(&hs, "{\"alg\":\"HS256\",\"kid\":\"rsa1\"}");
        buf_append_char(&hs, '.');
        b64url_str(&hs, p);
        unsigned char mac[32];
        size_t maclen = 0;
        assert_non_null(EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL, pem, (size_t) pemlen,
                                  (const unsigned char *) hs.data, hs.len, mac, sizeof mac,
                                  &maclen));
        buf_append_char(&hs, '.');
        b64url(&hs, mac, maclen);
        expect_invalid(f, hs.data, "alg \"HS256\" is refused");
        buf_free(&hs);
        BIO_free(bio);
    }
    /* the alg the key does not allow: ES256 under an RSA kid, RS256 under a
     * key pinned to PS256, EdDSA under the EC key */
    expect_invalid_free(f, token_raw(ec, "ES256", "rsa1", p), "does not fit key");
    expect_invalid_free(f, token_raw(rsa, "RS256", "rsa-ps", p), "does not fit key");
    expect_invalid_free(f, token_raw(ed, "EdDSA", "ec1", p), "does not fit key");
    /* PS256 signature presented as RS256 (same key): refused */
    t = token_raw(rsa, "PS256", "rsa1", p);
    char *hdr_rs = NULL;
    {
        struct buf h;
        buf_init(&h, 0);
        b64url_str(&h, "{\"alg\":\"RS256\",\"kid\":\"rsa1\"}");
        buf_append_str(&h, strchr(t, '.'));
        hdr_rs = buf_steal(&h);
    }
    expect_invalid_free(f, hdr_rs, "signature does not verify");
    free(t);
    free(p);
    fx_free(f);
}

static void test_malformed(void **state)
{
    (void) state;
    struct fixture *f = fx_new(NULL, 1, 0);
    expect_invalid(f, "a.b!.c", "bearer token cannot");
    expect_invalid(f, "eyJhbGciOiJSUzI1NiJ9=x.e30.c2ln", "bearer token cannot");
    expect_invalid(f, "Zm9v.e30.c2ln", "header is not JSON");
    expect_invalid(f, "e30.e30.c2ln", "names no alg");
    expect_invalid(f, "eyJhbGciOiJSUzI1NiJ9.Zm9vYmFy.c2ln", "payload is not JSON");
    expect_invalid(f, "eyJhbGciOiJSUzI1NiJ9.WzFd.c2ln", "payload is not a JSON object");
    expect_invalid(f, "eyJhbGciOiJSUzI1NiJ9.e30.", "signature is empty");
    expect_invalid(f, "eyJhbGciOiJSUzI1NiJ9.e30.c2lnx", "signature is not base64url");
    expect_invalid(f, "eyJhbGciOiJSUzI1NiIsImNyaXQiOlsieCJdfQ.e30.c2ln", "crit");
    /* JWE (five parts) and opaque tokens without introspection */
    expect_invalid(f, "a.b.c.d.e", "opaque tokens need introspection");
    expect_invalid(f, "opaque-token", "opaque tokens need introspection");
    /* a 1 MB token: refused at once, by both paths, without a fetch and
     * without reading it: all but its first page is unreadable, so a read
     * (a decode, a copy, a scan) would crash the test */
    size_t big = 1024 * 1024, page = (size_t) sysconf(_SC_PAGESIZE);
    char *t = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(t != MAP_FAILED);
    memset(t, 'A', page);
    t[100] = '.';
    t[200] = '.';
    assert_int_equal(mprotect(t + page, big - page, PROT_NONE), 0);
    struct http_token_identity id;
    const char *why = NULL;
    assert_int_equal(http_token_verify_cached(f->v, t, big, &id, &why), HTTP_TOKEN_INVALID);
    assert_non_null(strstr(why, "1048576 bytes"));
    struct outcome o = {0};
    assert_non_null(http_token_verify(f->v, t, big, on_checked, &o));
    assert_true(loop_run_until(&loop, &o.done, 10000));
    assert_int_equal(o.status, HTTP_TOKEN_INVALID);
    assert_non_null(strstr(o.reason, "at most 16384"));
    munmap(t, big);
    expect_invalid(f, "", "empty");
    struct http_token_stats st;
    http_token_verifier_stats(f->v, &st);
    assert_int_equal(st.jwks_fetches, 0); /* nothing above needed the keys */
    fx_free(f);
}

static void test_unknown_kid(void **state)
{
    (void) state;
    struct fixture *f = fx_new(NULL, 1, 0);
    struct http_token_limits lim = {.refetch_seconds = 1};
    http_token_verifier_set_limits(f->v, &lim);
    int before = served("jwks");
    char *t = good_token(rsa, "RS256", "rsa1");
    assert_int_equal(check(f, t).status, HTTP_TOKEN_VALID);
    free(t);
    assert_int_equal(served("jwks") - before, 1);
    /* an unknown kid right after a fetch: refused without another */
    t = good_token(rsa_other, "RS256", "rotated");
    expect_invalid(f, t, "fetched again at most every 1 s");
    assert_int_equal(served("jwks") - before, 1);
    /* later: the fast path defers, the full check refetches once, then refuses */
    loop_run_for(&loop, 1100);
    struct http_token_identity id;
    const char *why = NULL;
    assert_int_equal(http_token_verify_cached(f->v, t, strlen(t), &id, &why), -1);
    expect_invalid(f, t, "was fetched again");
    assert_int_equal(served("jwks") - before, 2);
    /* at once again: rate-limited, no fetch */
    expect_invalid(f, t, "fetched again at most every 1 s");
    assert_int_equal(served("jwks") - before, 2);
    /* the key is published; once the rate limit allows, the refetch finds it */
    struct buf extra;
    buf_init(&extra, 0);
    buf_append_char(&extra, ',');
    jwk(&extra, rsa_other, "rotated", "RS256");
    serve_jwks(extra.data);
    buf_free(&extra);
    loop_run_for(&loop, 1100);
    assert_int_equal(check(f, t).status, HTTP_TOKEN_VALID);
    assert_int_equal(served("jwks") - before, 3);
    /* the default limit is 30 s */
    struct http_token_limits deflim = {0};
    http_token_verifier_set_limits(f->v, &deflim);
    free(t);
    t = good_token(rsa_other, "RS256", "rotated-2");
    expect_invalid(f, t, "fetched again at most every 30 s");
    free(t);
    fx_free(f);
}

static void test_bursts_share_one_fetch(void **state)
{
    (void) state;
    struct fixture *f = fx_new(NULL, 1, 0);
    int before = served("jwks");
    enum { N = 20 };
    struct outcome o[N];
    char *tokens[N];
    /* first checks of a fresh verifier wait on one fetch */
    memset(o, 0, sizeof o);
    for (int i = 0; i < N; i++) {
        tokens[i] = good_token(i % 2 ? ec : ed, i % 2 ? "ES256" : "EdDSA", i % 2 ? "ec1" : "ed1");
        assert_non_null(http_token_verify(f->v, tokens[i], strlen(tokens[i]), on_checked, &o[i]));
    }
    for (int i = 0; i < N; i++) {
        assert_true(loop_run_until(&loop, &o[i].done, 10000));
        assert_int_equal(o[i].status, HTTP_TOKEN_VALID);
        free(tokens[i]);
    }
    assert_int_equal(served("jwks") - before, 1);
    /* a burst of unknown kids: at most one more fetch */
    struct http_token_limits lim = {.refetch_seconds = 1};
    http_token_verifier_set_limits(f->v, &lim);
    loop_run_for(&loop, 1100);
    memset(o, 0, sizeof o);
    for (int i = 0; i < N; i++) {
        char kid[16];
        snprintf(kid, sizeof kid, "kid-%d", i);
        tokens[i] = good_token(rsa_other, "RS256", kid);
        assert_non_null(http_token_verify(f->v, tokens[i], strlen(tokens[i]), on_checked, &o[i]));
    }
    for (int i = 0; i < N; i++) {
        assert_true(loop_run_until(&loop, &o[i].done, 10000));
        assert_int_equal(o[i].status, HTTP_TOKEN_INVALID);
        free(tokens[i]);
    }
    assert_int_equal(served("jwks") - before, 2);
    struct http_token_stats st;
    http_token_verifier_stats(f->v, &st);
    assert_int_equal(st.jwks_fetches, 2);
    fx_free(f);
}

/* stderr into a file while fn runs; returns what was written (malloc'd). */
static char *capture_stderr(void (*fn)(void *), void *arg)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/stderr.txt", dir);
    fflush(stderr);
    int saved = dup(2);
    FILE *f = fopen(path, "w+");
    assert_non_null(f);
    dup2(fileno(f), 2);
    fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fseek(f, 0, SEEK_SET);
    char *text = xcalloc(1, 65536);
    size_t n = fread(text, 1, 65535, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

struct down_case {
    struct fixture *f;
    struct outcome o;
};

static void check_down(void *arg)
{
    struct down_case *d = arg;
    char *t = good_token(rsa, "RS256", "rsa1");
    d->o = check(d->f, t);
    free(t);
}

static void test_verified_cache(void **state)
{
    (void) state;
    struct fixture *f = fx_new(NULL, 1, 0);
    struct http_token_limits lim = {.refetch_seconds = 1};
    http_token_verifier_set_limits(f->v, &lim);
    /* a token within the skew for two more seconds: verified once, then
     * found, then refused once it expires although it was found before */
    char *p = claims(NULL, NULL, -28, NULL);
    char *t = token_raw(ed, "EdDSA", "ed1", p);
    free(p);
    assert_int_equal(check(f, t).status, HTTP_TOKEN_VALID);
    struct http_token_identity id;
    const char *why;
    struct http_token_stats st;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(http_token_verify_cached(f->v, t, strlen(t), &id, &why), HTTP_TOKEN_VALID);
        assert_string_equal(id.sub, "alice");
        assert_string_equal(id.scopes[1], "crm:write");
    }
    http_token_verifier_stats(f->v, &st);
    assert_int_equal(st.verified_hits, 3);
    /* a token differing in one signature byte is not the one found */
    char *bad = xstrdup(t);
    char *dot = strrchr(bad, '.');
    dot[5] = dot[5] == 'A' ? 'B' : 'A';
    expect_invalid_free(f, bad, "signature does not verify");
    loop_run_for(&loop, 2200);
    expect_invalid(f, t, "expired");
    free(t);
    /* a new key set: tokens found before are checked again (rsa1 removed) */
    t = good_token(rsa, "RS256", "rsa1");
    assert_int_equal(check(f, t).status, HTTP_TOKEN_VALID);
    struct buf keys;
    buf_init(&keys, 0);
    buf_append_str(&keys, "{\"keys\":[");
    jwk(&keys, ec, "ec1", NULL);
    buf_append_str(&keys, "]}");
    write_file("jwks.json", keys.data);
    buf_free(&keys);
    char *other = good_token(ec, "ES256", "unknown");
    expect_invalid_free(f, other, "was fetched again");
    expect_invalid(f, t, "no key of the JWKS has its kid \"rsa1\"");
    free(t);
    fx_free(f);
}

static void test_jwks_down(void **state)
{
    (void) state;
    enum log_level old = log_get_level();
    log_set_level(LOG_ERROR);
    /* nothing listens there */
    struct fixture *f = fx_new(NULL, 0, 0);
    int port = node_server_free_port();
    char url[96];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/jwks", port);
    f->s.jwks_uri = url;
    struct down_case d = {.f = f};
    char *log = capture_stderr(check_down, &d);
    assert_int_equal(d.o.status, HTTP_TOKEN_UNAVAILABLE);
    assert_non_null(strstr(d.o.reason, "could not connect"));
    assert_non_null(strstr(log, "fail closed"));
    assert_non_null(strstr(log, url));
    free(log);
    /* again at once: refused without another attempt */
    log = capture_stderr(check_down, &d);
    assert_int_equal(d.o.status, HTTP_TOKEN_UNAVAILABLE);
    assert_non_null(strstr(d.o.reason, "retried within"));
    free(log);
    struct http_token_stats st;
    http_token_verifier_stats(f->v, &st);
    assert_int_equal(st.jwks_fetches, 1);
    assert_int_equal(st.jwks_failures, 1);
    fx_free(f);
    /* the fixture cuts the connection, then answers 503 */
    write_file("jwks-down", "");
    f = fx_new(NULL, 1, 0);
    d.f = f;
    free(capture_stderr(check_down, &d));
    assert_int_equal(d.o.status, HTTP_TOKEN_UNAVAILABLE);
    struct http_token_limits lim = {.failure_retry_seconds = 1};
    http_token_verifier_set_limits(f->v, &lim);
    remove_file("jwks-down");
    remove_file("jwks.json");
    loop_run_for(&loop, 1100);
    log = capture_stderr(check_down, &d);
    assert_int_equal(d.o.status, HTTP_TOKEN_UNAVAILABLE);
    assert_non_null(strstr(d.o.reason, "HTTP 503"));
    free(log);
    /* and recovers once the keys are back */
    serve_jwks("");
    loop_run_for(&loop, 1100);
    check_down(&d);
    assert_int_equal(d.o.status, HTTP_TOKEN_VALID);
    /* the JWKS goes down while its keys are held: known keys keep working,
     * an unknown kid cannot be checked (unavailable, not invalid) */
    struct http_token_limits lim2 = {.failure_retry_seconds = 1, .refetch_seconds = 1};
    http_token_verifier_set_limits(f->v, &lim2);
    log_set_level(LOG_OFF);
    write_file("jwks-down", "");
    loop_run_for(&loop, 1100);
    char *unknown = good_token(rsa_other, "RS256", "rotated");
    struct outcome u = check(f, unknown);
    free(unknown);
    assert_int_equal(u.status, HTTP_TOKEN_UNAVAILABLE);
    assert_non_null(strstr(u.reason, "fetching the JWKS again failed"));
    unknown = good_token(rsa_other, "RS256", "rotated-again"); /* within the retry wait */
    u = check(f, unknown);
    free(unknown);
    assert_int_equal(u.status, HTTP_TOKEN_UNAVAILABLE);
    assert_non_null(strstr(u.reason, "could not be fetched again"));
    check_down(&d);
    assert_int_equal(d.o.status, HTTP_TOKEN_VALID);
    remove_file("jwks-down");
    fx_free(f);
    log_set_level(old);
}

/* Keys past their lifetime whose refresh fails stay in use for a bounded
 * time (stale-if-error): known tokens and new ones signed with a held key
 * are accepted, logged; an unknown kid is refused; past the bound every
 * token is refused; while stale, the keys are fetched again in the
 * background and taken when the JWKS is back. */
static void test_stale_if_error(void **state)
{
    (void) state;
    enum log_level old = log_get_level();
    log_set_level(LOG_ERROR);
    write_file("jwks-cache-control", "max-age=1");
    struct fixture *f = fx_new(NULL, 1, 0);
    struct http_token_limits lim = {.jwks_min_seconds = 1,
                                    .failure_retry_seconds = 1,
                                    .refetch_seconds = 1,
                                    .stale_if_error_seconds = 2};
    http_token_verifier_set_limits(f->v, &lim);
    struct down_case d = {.f = f};
    check_down(&d);
    assert_int_equal(d.o.status, HTTP_TOKEN_VALID);
    /* the keys expire (1 s) while the JWKS is down: still in use */
    write_file("jwks-down", "");
    loop_run_for(&loop, 1100);
    char *log = capture_stderr(check_down, &d);
    if (d.o.status != HTTP_TOKEN_VALID)
        fail_msg("expected the stale keys to be used, got %d: %s", d.o.status, d.o.reason);
    assert_non_null(strstr(log, "stale-if-error"));
    assert_non_null(strstr(log, jwks_url));
    free(log);
    char *p = claims(NULL, NULL, 600, NULL);
    char *t = token_raw(ec, "ES256", "ec1", p); /* never seen: its signature is checked */
    free(p);
    struct outcome o = check(f, t);
    assert_int_equal(o.status, HTTP_TOKEN_VALID);
    assert_string_equal(o.sub, "alice");
    struct http_token_stats st;
    http_token_verifier_stats(f->v, &st);
    assert_int_equal(st.jwks_failures, 1);
    assert_int_equal(st.stale_key_checks, 2);
    /* a bad signature is still refused with stale keys */
    char *bad = xstrdup(t);
    char *dot = strrchr(bad, '.');
    dot[5] = dot[5] == 'A' ? 'B' : 'A';
    expect_invalid_free(f, bad, "signature does not verify");
    /* an unknown kid cannot be checked: refused (fail closed) */
    char *unknown = good_token(rsa_other, "RS256", "rotated");
    o = check(f, unknown);
    free(unknown);
    assert_int_equal(o.status, HTTP_TOKEN_UNAVAILABLE);
    /* past the bound (2 s after the lifetime): refused */
    log_set_level(LOG_OFF);
    loop_run_for(&loop, 2100);
    check_down(&d);
    assert_int_equal(d.o.status, HTTP_TOKEN_UNAVAILABLE);
    o = check(f, t);
    assert_int_equal(o.status, HTTP_TOKEN_UNAVAILABLE);
    /* back: fetched again, accepted */
    remove_file("jwks-down");
    loop_run_for(&loop, 1100);
    check_down(&d);
    assert_int_equal(d.o.status, HTTP_TOKEN_VALID);
    /* stale again, then the JWKS returns: the fast path answers from the
     * stale keys at once and fetches them again in the background */
    write_file("jwks-down", "");
    loop_run_for(&loop, 1100);
    check_down(&d);
    assert_int_equal(d.o.status, HTTP_TOKEN_VALID);
    remove_file("jwks-down");
    loop_run_for(&loop, 1100);
    http_token_verifier_stats(f->v, &st);
    uint64_t fetches = st.jwks_fetches, failures = st.jwks_failures;
    struct http_token_identity id;
    const char *why;
    assert_int_equal(http_token_verify_cached(f->v, t, strlen(t), &id, &why), HTTP_TOKEN_VALID);
    loop_run_for(&loop, 300);
    http_token_verifier_stats(f->v, &st);
    assert_int_equal(st.jwks_fetches, fetches + 1);
    assert_int_equal(st.jwks_failures, failures);
    assert_int_equal(http_token_verify_cached(f->v, t, strlen(t), &id, &why), HTTP_TOKEN_VALID);
    http_token_verifier_stats(f->v, &st);
    uint64_t stale = st.stale_key_checks;
    assert_int_equal(http_token_verify_cached(f->v, t, strlen(t), &id, &why), HTTP_TOKEN_VALID);
    http_token_verifier_stats(f->v, &st);
    assert_int_equal(st.stale_key_checks, stale); /* fresh keys now */
    free(t);
    fx_free(f);
    remove_file("jwks-cache-control");
    log_set_level(old);
}

static void test_discovery(void **state)
{
    (void) state;
    /* RFC 8414 with path insertion */
    write_file("as-_tenant.json", "{\"issuer\":\"@BASE@/tenant\",\"jwks_uri\":\"@BASE@/jwks\"}");
    struct fixture *f = fx_new("/tenant", 0, 0);
    char *p = claims(f->issuer, NULL, 600, NULL);
    char *t = token_raw(rsa, "PS256", "rsa1", p);
    struct outcome o = check(f, t);
    if (o.status != HTTP_TOKEN_VALID)
        fail_msg("%s", o.reason);
    assert_string_equal(o.iss, f->issuer);
    struct http_token_stats st;
    http_token_verifier_stats(f->v, &st);
    assert_int_equal(st.metadata_fetches, 1);
    free(t);
    free(p);
    fx_free(f);
    remove_file("as-_tenant.json");
    /* OpenID discovery when RFC 8414 has nothing */
    write_file("oidc-_t2.json", "{\"issuer\":\"@BASE@/t2\",\"jwks_uri\":\"@BASE@/jwks\"}");
    f = fx_new("/t2", 0, 0);
    p = claims(f->issuer, NULL, 600, NULL);
    t = token_raw(ed, "EdDSA", "ed1", p);
    o = check(f, t);
    assert_int_equal(o.status, HTTP_TOKEN_VALID);
    http_token_verifier_stats(f->v, &st);
    assert_int_equal(st.metadata_fetches, 2);
    free(t);
    free(p);
    fx_free(f);
    remove_file("oidc-_t2.json");
    /* metadata naming another issuer is not used: fail closed */
    enum log_level old = log_get_level();
    log_set_level(LOG_OFF);
    write_file("as-_t3.json", "{\"issuer\":\"https://evil.example\",\"jwks_uri\":\"@BASE@/jwks\"}");
    f = fx_new("/t3", 0, 0);
    p = claims(f->issuer, NULL, 600, NULL);
    t = token_raw(ed, "EdDSA", "ed1", p);
    o = check(f, t);
    assert_int_equal(o.status, HTTP_TOKEN_UNAVAILABLE);
    assert_non_null(strstr(o.reason, "no usable metadata"));
    free(t);
    free(p);
    fx_free(f);
    remove_file("as-_t3.json");
    log_set_level(old);
}

static void test_cache_control(void **state)
{
    (void) state;
    assert_int_equal(jwks_cache_max_age("public, max-age=600"), 600);
    assert_int_equal(jwks_cache_max_age("no-store"), 0);
    assert_int_equal(jwks_cache_max_age("max-age=60, no-cache"), 0);
    assert_int_equal(jwks_cache_max_age("private"), -1);
    assert_int_equal(jwks_cache_max_age(NULL), -1);
    write_file("jwks-cache-control", "public, max-age=1");
    struct fixture *f = fx_new(NULL, 1, 0);
    struct http_token_limits lim = {.jwks_min_seconds = 1};
    http_token_verifier_set_limits(f->v, &lim);
    int before = served("jwks");
    char *t = good_token(rsa, "RS256", "rsa1");
    assert_int_equal(check(f, t).status, HTTP_TOKEN_VALID);
    struct http_token_identity id;
    const char *why;
    assert_int_equal(http_token_verify_cached(f->v, t, strlen(t), &id, &why), HTTP_TOKEN_VALID);
    loop_run_for(&loop, 1100);
    /* expired: the fast path defers, the full check fetches again */
    assert_int_equal(http_token_verify_cached(f->v, t, strlen(t), &id, &why), -1);
    assert_int_equal(check(f, t).status, HTTP_TOKEN_VALID);
    assert_int_equal(served("jwks") - before, 2);
    free(t);
    fx_free(f);
    remove_file("jwks-cache-control");
}

static void introspection_answers(void)
{
    long now = (long) time(NULL);
    char text[2048];
    snprintf(text, sizeof text,
             "{\"op-good\":{\"active\":true,\"iss\":\"%s\",\"sub\":\"carol\",\"aud\":\"" AUDIENCE
             "\",\"scope\":\"x y\",\"exp\":%ld,\"client_id\":\"cli\"},"
             "\"op-noaud\":{\"active\":true,\"sub\":\"dave\",\"exp\":%ld},"
             "\"op-other\":{\"active\":true,\"sub\":\"eve\",\"aud\":\"https://other.example\"},"
             "\"op-iss\":{\"active\":true,\"sub\":\"eve\",\"iss\":\"https://evil.example\"},"
             "\"op-expired\":{\"active\":true,\"sub\":\"eve\",\"exp\":%ld},"
             "\"op-client\":{\"active\":true,\"client_id\":\"svc\"},"
             "\"op-nosub\":{\"active\":true}}",
             base, now + 600, now + 600, now - 600);
    write_file("introspect.json", text);
}

static void test_introspection(void **state)
{
    (void) state;
    introspection_answers();
    struct fixture *f = fx_new(NULL, 1, 1);
    int before = served("introspect");
    struct outcome o = check(f, "op-good");
    if (o.status != HTTP_TOKEN_VALID)
        fail_msg("%s", o.reason);
    assert_string_equal(o.sub, "carol");
    assert_string_equal(o.scopes, "[x] [y]");
    assert_string_equal(o.client, "cli");
    /* cached: the fast path answers, the full check does not ask again */
    struct http_token_identity id;
    const char *why;
    assert_int_equal(http_token_verify_cached(f->v, "op-good", 7, &id, &why), HTTP_TOKEN_VALID);
    assert_string_equal(id.sub, "carol");
    assert_int_equal(check(f, "op-good").status, HTTP_TOKEN_VALID);
    assert_int_equal(served("introspect") - before, 1);
    assert_int_equal(check(f, "op-noaud").status, HTTP_TOKEN_VALID);
    expect_invalid(f, "op-other", "another resource");
    expect_invalid(f, "op-iss", "issuer https://evil.example");
    expect_invalid(f, "op-expired", "expired");
    expect_invalid(f, "op-nosub", "no subject");
    o = check(f, "op-client"); /* a client's own token: the client is the subject */
    assert_int_equal(o.status, HTTP_TOKEN_VALID);
    assert_string_equal(o.sub, "svc");
    expect_invalid(f, "op-unknown", "not active");
    /* refusals are cached too (briefly) */
    before = served("introspect");
    expect_invalid(f, "op-unknown", "not active");
    assert_int_equal(http_token_verify_cached(f->v, "op-unknown", 10, &id, &why),
                     HTTP_TOKEN_INVALID);
    assert_int_equal(served("introspect") - before, 0);
    /* concurrent checks of one token share one request */
    struct outcome many[5];
    memset(many, 0, sizeof many);
    const char *tok = "op-noaud-2";
    for (int i = 0; i < 5; i++)
        http_token_verify(f->v, tok, strlen(tok), on_checked, &many[i]);
    for (int i = 0; i < 5; i++) {
        assert_true(loop_run_until(&loop, &many[i].done, 10000));
        assert_int_equal(many[i].status, HTTP_TOKEN_INVALID);
    }
    assert_int_equal(served("introspect") - before, 1);
    fx_free(f);

    /* a bounded cache: with 2 entries the oldest answer is asked again */
    f = fx_new(NULL, 1, 1);
    struct http_token_limits lim = {.introspection_entries = 2};
    http_token_verifier_set_limits(f->v, &lim);
    before = served("introspect");
    assert_int_equal(check(f, "op-good").status, HTTP_TOKEN_VALID);
    assert_int_equal(check(f, "op-noaud").status, HTTP_TOKEN_VALID);
    expect_invalid(f, "op-x", "not active");
    assert_int_equal(served("introspect") - before, 3);
    assert_int_equal(check(f, "op-good").status, HTTP_TOKEN_VALID);
    assert_int_equal(served("introspect") - before, 4);
    fx_free(f);

    /* a wrong client secret: the endpoint refuses, the token is unavailable */
    enum log_level old = log_get_level();
    log_set_level(LOG_OFF);
    f = fx_new(NULL, 1, 1);
    f->s.introspection_client_secret = "wrong";
    struct outcome bad = check(f, "op-good");
    assert_int_equal(bad.status, HTTP_TOKEN_UNAVAILABLE);
    assert_non_null(strstr(bad.reason, "HTTP 401"));
    fx_free(f);
    log_set_level(old);
}

static void never_called(void *ud, enum http_token_status status,
                         const struct http_token_identity *id, const char *reason)
{
    (void) ud;
    (void) status;
    (void) id;
    (void) reason;
    fail_msg("a cancelled check called back");
}

static void test_cancel_and_free(void **state)
{
    (void) state;
    introspection_answers();
    struct fixture *f = fx_new(NULL, 1, 1);
    char *t = good_token(rsa, "RS256", "rsa1");
    struct http_token_check *a = http_token_verify(f->v, t, strlen(t), never_called, NULL);
    struct http_token_check *b = http_token_verify(f->v, "op-good", 7, never_called, NULL);
    struct http_token_check *c = http_token_verify(f->v, "", 0, never_called, NULL);
    http_token_check_cancel(a);
    http_token_check_cancel(b);
    http_token_check_cancel(c);
    loop_run_for(&loop, 300);
    /* pending checks are dropped by free, without callbacks */
    http_token_verify(f->v, t, strlen(t), never_called, NULL);
    http_token_verify(f->v, "op-noaud", 8, never_called, NULL);
    fx_free(f);
    loop_run_for(&loop, 200);
    free(t);
}

static void test_settings_and_scopes(void **state)
{
    (void) state;
    char err[300];
    struct http_oauth_settings s = {.issuer = "http://auth.example.com", .audience = AUDIENCE};
    assert_null(http_token_verifier_new(&loop, NULL, &s, err, sizeof err));
    assert_non_null(strstr(err, "HTTPS"));
    s.issuer = "https://auth.example.com";
    s.audience = NULL;
    assert_null(http_token_verifier_new(&loop, NULL, &s, err, sizeof err));
    assert_non_null(strstr(err, "audience"));
    s.audience = AUDIENCE;
    s.introspection_url = "https://auth.example.com/introspect";
    assert_null(http_token_verifier_new(&loop, NULL, &s, err, sizeof err));
    assert_non_null(strstr(err, "clientId"));
    char *scopes[] = {"a", "b", NULL}, *need[] = {"b", NULL}, *more[] = {"b", "c", NULL};
    struct http_token_identity id = {.scopes = scopes};
    const char *missing = NULL;
    assert_true(http_token_scopes_cover(&id, need, &missing));
    assert_true(http_token_scopes_cover(&id, NULL, &missing));
    assert_false(http_token_scopes_cover(&id, more, &missing));
    assert_string_equal(missing, "c");
}

static void test_jwk_refusals(void **state)
{
    (void) state;
    char why[300];
    struct jose_key key;
    const char *bad[] = {
        "{\"kty\":\"oct\",\"k\":\"c2VjcmV0\"}",
        "{\"kty\":\"RSA\",\"n\":\"AQAB\",\"e\":\"AQAB\"}",
        "{\"kty\":\"EC\",\"crv\":\"P-384\",\"x\":\"AA\",\"y\":\"AA\"}",
        "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\","
        "\"y\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}",
        "{\"kty\":\"OKP\",\"crv\":\"X25519\",\"x\":\"AA\"}",
        "{\"kty\":\"RSA\",\"use\":\"enc\",\"n\":\"AQAB\",\"e\":\"AQAB\"}",
        "{\"kty\":\"RSA\",\"alg\":\"HS256\",\"n\":\"AQAB\",\"e\":\"AQAB\"}",
        "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"alg\":\"ES256\","
        "\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}",
        "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"AA\","
        "\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *j = cJSON_Parse(bad[i]);
        if (jose_key_from_jwk(j, &key, why, sizeof why) == 0)
            fail_msg("accepted %s", bad[i]);
        cJSON_Delete(j);
    }
    /* RFC 8037's Ed25519 example key is accepted */
    cJSON *j = cJSON_Parse("{\"kty\":\"OKP\",\"crv\":\"Ed25519\","
                           "\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}");
    assert_int_equal(jose_key_from_jwk(j, &key, why, sizeof why), 0);
    assert_true(jose_key_allows(&key, JOSE_ALG_EDDSA));
    assert_false(jose_key_allows(&key, JOSE_ALG_ES256));
    /* its verification context is set up once, for the one algorithm it allows */
    assert_non_null(key.ready[JOSE_ALG_EDDSA]);
    assert_null(key.ready[JOSE_ALG_ES256]);
    assert_null(key.ready[JOSE_ALG_RS256]);
    jose_key_clear(&key);
    cJSON_Delete(j);
    /* base64url: strict */
    unsigned char out[16];
    assert_int_equal(jose_b64url_decode("Zm9v", 4, out), 3);
    assert_int_equal(jose_b64url_decode("Zm9=", 4, out), -1);
    assert_int_equal(jose_b64url_decode("Zm+v", 4, out), -1); /* base64, not base64url */
    assert_int_equal(jose_b64url_decode("Z/9v", 4, out), -1);
    assert_int_equal(jose_b64url_decode("Zm9v\xc3\xa9Zm", 8, out), -1);
    assert_int_equal(jose_b64url_decode("-_-_", 4, out), 3);
    assert_memory_equal(out, "\xfb\xff\xbf", 3);
    assert_int_equal(jose_b64url_decode("Zm9vY", 5, out), -1);
    assert_int_equal(jose_b64url_decode("Zm9vYr", 6, out), -1); /* unused bits set */
    assert_int_equal(jose_b64url_decode("-w", 2, out), 1);
    assert_int_equal(out[0], 0xfb);
}

/* --- interop with a real authorization server (npm oidc-provider) -------------------------- */

#define OP_SERVER "tests/fixtures/servers/oidc-provider.mjs"

struct op_token {
    int done;
    char token[4096];
};

static void on_token(void *ud, const struct tools_oauth_answer *a)
{
    struct op_token *t = ud;
    const cJSON *at = a->json ? cJSON_GetObjectItemCaseSensitive(a->json, "access_token") : NULL;
    if (cJSON_IsString(at))
        snprintf(t->token, sizeof t->token, "%s", at->valuestring);
    t->done = 1;
}

/* A client_credentials token of oidc-provider for resource. */
static void op_token(struct http_client *hc, const char *issuer, const char *resource,
                     struct op_token *t)
{
    char url[160];
    struct buf body;
    buf_init(&body, 0);
    tools_oauth_form_add(&body, "grant_type", "client_credentials");
    tools_oauth_form_add(&body, "scope", "crm:read crm:write");
    tools_oauth_form_add(&body, "resource", resource);
    snprintf(url, sizeof url, "%s/token", issuer);
    char *auth = NULL;
    {
        const char *cred = "rs-client:rs-secret";
        char enc[64];
        size_t n = base64_encode((const unsigned char *) cred, strlen(cred), enc);
        enc[n] = '\0';
        struct buf a;
        buf_init(&a, 0);
        buf_printf(&a, "Basic %s", enc);
        auth = buf_steal(&a);
    }
    struct tools_oauth_request rq = {.method = "POST",
                                     .url = url,
                                     .content_type = "application/x-www-form-urlencoded",
                                     .body = body.data,
                                     .authorization = auth};
    memset(t, 0, sizeof *t);
    assert_non_null(tools_oauth_fetch_start(hc, &rq, on_token, t));
    assert_true(loop_run_until(&loop, &t->done, 10000));
    buf_free(&body);
    free(auth);
    if (t->token[0] == '\0')
        fail_msg("oidc-provider issued no token for %s", resource);
}

static void test_oidc_provider_interop(void **state)
{
    (void) state;
    if (access("tests/node_modules/oidc-provider/package.json", R_OK) != 0) {
        print_message("oidc-provider is not installed (make npm-deps): interop skipped\n");
        skip();
    }
    const char *argv[] = {"node", OP_SERVER, "@PORT@", NULL};
    assert_int_equal(node_server_start(&op, 0, argv, 20000), 0);
    char issuer[64], intro[128], err[300];
    snprintf(issuer, sizeof issuer, "http://127.0.0.1:%d", op.port);
    snprintf(intro, sizeof intro, "%s/token/introspection", issuer);
    struct http_client *hc = http_client_new(&loop, "test", err, sizeof err);
    struct {
        const char *resource, *alg;
    } cases[] = {{"https://mcp.example.com/mcp", "RS256"},
                 {"https://mcp.example.com/ps", "PS256"},
                 {"https://mcp.example.com/es", "ES256"},
                 {"https://mcp.example.com/ed", "EdDSA"}};
    struct op_token t;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* discovery: oidc-provider publishes OpenID metadata only */
        struct http_oauth_settings s = {.issuer = issuer, .audience = cases[i].resource};
        struct fixture f = {.hc = hc};
        f.v = http_token_verifier_new(&loop, hc, &s, err, sizeof err);
        assert_non_null(f.v);
        op_token(hc, issuer, cases[i].resource, &t);
        char want[32];
        snprintf(want, sizeof want, "\"alg\":\"%s\"", cases[i].alg);
        unsigned char hdr[256];
        long hl = jose_b64url_decode(t.token, (size_t) (strchr(t.token, '.') - t.token), hdr);
        assert_true(hl > 0);
        hdr[hl] = '\0';
        assert_non_null(strstr((char *) hdr, want));
        struct outcome o = check(&f, t.token);
        if (o.status != HTTP_TOKEN_VALID)
            fail_msg("%s token of oidc-provider: %s", cases[i].alg, o.reason);
        assert_string_equal(o.sub, "rs-client");
        assert_string_equal(o.client, "rs-client");
        assert_string_equal(o.scopes, "[crm:read] [crm:write]");
        assert_string_equal(o.iss, issuer);
        /* a token for another resource is refused */
        struct op_token other;
        op_token(hc, issuer, i ? cases[0].resource : cases[1].resource, &other);
        expect_invalid(&f, other.token, "another resource");
        http_token_verifier_free(f.v);
    }
    /* an opaque token, introspected (RFC 7662) */
    struct http_oauth_settings s = {.issuer = issuer,
                                    .audience = "https://mcp.example.com/opaque",
                                    .introspection_url = intro,
                                    .introspection_client_id = "rs-client",
                                    .introspection_client_secret = "rs-secret"};
    struct fixture f = {.hc = hc};
    f.v = http_token_verifier_new(&loop, hc, &s, err, sizeof err);
    assert_non_null(f.v);
    op_token(hc, issuer, "https://mcp.example.com/opaque", &t);
    assert_null(strchr(t.token, '.'));
    struct outcome o = check(&f, t.token);
    if (o.status != HTTP_TOKEN_VALID)
        fail_msg("opaque token of oidc-provider: %s", o.reason);
    assert_string_equal(o.sub, "rs-client");
    expect_invalid(&f, "not-a-token-it-issued", "not active");
    http_token_verifier_free(f.v);
    http_client_free(hc);
    uv_run(&loop, UV_RUN_NOWAIT);
    node_server_stop(&op);
}

int main(void)
{
    repo_root_enter(SERVER, "test_mcp_server_http_oauth");
    uv_loop_init(&loop);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_valid_algorithms, setup, teardown),
        cmocka_unit_test_setup_teardown(test_claims_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_signatures_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_kid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bursts_share_one_fetch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_verified_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(test_jwks_down, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_if_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_discovery, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cache_control, setup, teardown),
        cmocka_unit_test_setup_teardown(test_introspection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel_and_free, setup, teardown),
        cmocka_unit_test_setup_teardown(test_settings_and_scopes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_jwk_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oidc_provider_interop, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, group_setup, group_teardown);
    uv_run(&loop, UV_RUN_NOWAIT);
    uv_loop_close(&loop);
    return rc;
}
