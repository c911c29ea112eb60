/* Client authentication at the token endpoint (see client_auth.h). The
 * signature of a private_key_jwt assertion is libcrypto's EVP_DigestSign;
 * this file only assembles the JWS (RFC 7515 compact form). */
#include "tools/oauth/client_auth.h"
#include "tools/oauth/fetch.h"
#include "tools/oauth/pkce.h"
#include "common/alloc.h"
#include "common/base64.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/random.h"

#include <errno.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *tools_oauth_auth_method(const cJSON *meta, int has_secret, int has_key)
{
    if (has_key)
        return "private_key_jwt";
    if (!has_secret)
        return "none";
    const cJSON *list =
        cJSON_GetObjectItemCaseSensitive(meta, "token_endpoint_auth_methods_supported");
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
        return "client_secret_basic";
    const cJSON *e;
    cJSON_ArrayForEach(e, list) if (cJSON_IsString(e) &&
                                    strcmp(e->valuestring, "client_secret_basic") ==
                                        0) return "client_secret_basic";
    return "client_secret_post";
}

/* The PEM file's text, NUL-terminated (malloc'd), or NULL with why. */
static char *read_key(const char *path, size_t *len, char *why, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(why, n, "cannot read its privateKeyFile %s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = xmalloc(TOOLS_OAUTH_KEY_FILE_MAX + 1);
    *len = fread(text, 1, TOOLS_OAUTH_KEY_FILE_MAX + 1, f);
    fclose(f);
    if (*len > TOOLS_OAUTH_KEY_FILE_MAX) {
        snprintf(why, n, "its privateKeyFile %s is over %d bytes: not a PEM key", path,
                 TOOLS_OAUTH_KEY_FILE_MAX);
        free(text);
        return NULL;
    }
    text[*len] = '\0';
    return text;
}

static void b64url(struct buf *b, const unsigned char *in, size_t len)
{
    char *out = xmalloc((len + 2) / 3 * 4 + 1);
    buf_append(b, out, tools_oauth_base64url(in, len, out));
    free(out);
}

/* An ECDSA signature in DER to the JWS form: r and s, each size bytes. */
static int ecdsa_raw(const unsigned char *der, size_t len, int size, unsigned char *out)
{
    const unsigned char *p = der;
    ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long) len);
    const BIGNUM *r, *s;
    if (sig == NULL)
        return -1;
    ECDSA_SIG_get0(sig, &r, &s);
    int ok = BN_bn2binpad(r, out, size) == size && BN_bn2binpad(s, out + size, size) == size;
    ECDSA_SIG_free(sig);
    return ok ? 0 : -1;
}

/* The signed assertion appended to out, or -1 with why. */
static int sign_assertion(const char *client_id, const char *audience, const char *key_file,
                          struct buf *out, char *why, size_t n)
{
    size_t len;
    char *pem = read_key(key_file, &len, why, n);
    if (pem == NULL)
        return -1;
    BIO *bio = BIO_new_mem_buf(pem, (int) len);
    EVP_PKEY *key = bio ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
    if (bio)
        BIO_free(bio);
    free(pem);
    if (key == NULL) {
        snprintf(why, n, "its privateKeyFile %s holds no unencrypted PEM private key", key_file);
        return -1;
    }
    int type = EVP_PKEY_get_base_id(key);
    const char *alg = type == EVP_PKEY_RSA                                   ? "RS256"
                      : type == EVP_PKEY_EC && EVP_PKEY_get_bits(key) == 256 ? "ES256"
                      : type == EVP_PKEY_ED25519                             ? "EdDSA"
                                                                             : NULL;
    if (alg == NULL) {
        EVP_PKEY_free(key);
        snprintf(why, n,
                 "its privateKeyFile %s is not an RSA, P-256 or Ed25519 key (RS256, ES256, EdDSA)",
                 key_file);
        return -1;
    }
    cJSON *h = cJSON_CreateObject(), *p = cJSON_CreateObject();
    char jti[33];
    random_hex(jti, 16);
    time_t now = time(NULL);
    cJSON_AddStringToObject(h, "alg", alg);
    cJSON_AddStringToObject(h, "typ", "JWT");
    cJSON_AddStringToObject(p, "iss", client_id);
    cJSON_AddStringToObject(p, "sub", client_id);
    cJSON_AddStringToObject(p, "aud", audience);
    cJSON_AddStringToObject(p, "jti", jti);
    cJSON_AddNumberToObject(p, "iat", (double) now);
    cJSON_AddNumberToObject(p, "exp", (double) now + 60);
    char *hj = json_print(h), *pj = json_print(p);
    cJSON_Delete(h);
    cJSON_Delete(p);
    struct buf input;
    buf_init(&input, 0);
    b64url(&input, (const unsigned char *) hj, strlen(hj));
    buf_append_char(&input, '.');
    b64url(&input, (const unsigned char *) pj, strlen(pj));
    free(hj);
    free(pj);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char sig[1024], raw[64];
    size_t siglen = sizeof sig;
    int ok = ctx &&
             EVP_DigestSignInit(ctx, NULL, type == EVP_PKEY_ED25519 ? NULL : EVP_sha256(), NULL,
                                key) == 1 &&
             EVP_DigestSign(ctx, sig, &siglen, (const unsigned char *) input.data, input.len) == 1;
    if (ctx)
        EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    if (ok && type == EVP_PKEY_EC) {
        ok = ecdsa_raw(sig, siglen, 32, raw) == 0;
        memcpy(sig, raw, sizeof raw);
        siglen = sizeof raw;
    }
    if (!ok) {
        buf_free(&input);
        snprintf(why, n, "signing the client assertion with %s failed", key_file);
        return -1;
    }
    buf_append(out, input.data, input.len);
    buf_append_char(out, '.');
    b64url(out, sig, siglen);
    buf_free(&input);
    return 0;
}

int tools_oauth_client_auth(const char *method, const char *client_id, const char *secret,
                            const char *key_file, const char *audience, struct buf *form,
                            char **authorization, char *why, size_t n)
{
    *authorization = NULL;
    if (strcmp(method, "client_secret_basic") == 0 && secret) {
        /* RFC 6749 2.3.1: each form-encoded, then base64 of "id:secret" */
        struct buf pair;
        buf_init(&pair, 0);
        tools_oauth_url_encode(&pair, client_id);
        buf_append_char(&pair, ':');
        tools_oauth_url_encode(&pair, secret);
        char *b64 = xmalloc((pair.len + 2) / 3 * 4 + 1);
        b64[base64_encode((const unsigned char *) pair.data, pair.len, b64)] = '\0';
        struct buf h;
        buf_init(&h, 0);
        buf_printf(&h, "Basic %s", b64);
        *authorization = buf_steal(&h);
        free(b64);
        buf_free(&pair);
        return 0;
    }
    tools_oauth_form_add(form, "client_id", client_id);
    if (strcmp(method, "private_key_jwt") == 0) {
        struct buf jwt;
        buf_init(&jwt, 0);
        if (sign_assertion(client_id, audience, key_file, &jwt, why, n) != 0) {
            buf_free(&jwt);
            return -1;
        }
        tools_oauth_form_add(form, "client_assertion_type",
                             "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
        tools_oauth_form_add(form, "client_assertion", jwt.data);
        buf_free(&jwt);
    } else if (secret) {
        tools_oauth_form_add(form, "client_secret", secret);
    }
    return 0;
}
