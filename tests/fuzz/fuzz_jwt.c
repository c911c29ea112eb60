/* Fuzz target: the inbound access token's parsers (mcp-server/http/oauth/):
 * the input's first byte picks what it is, the rest is the text.
 *   0: a token: strict base64url, the compact form, the header and payload
 *      JSON, the claim checks of a JWT and of an introspection answer, and
 *      a signature check with RFC 8037's Ed25519 key when alg is EdDSA;
 *   1: a JWKS document: every key built through libcrypto;
 *   2: a Cache-Control header.
 * Nothing may crash or leak; a token that passes the claims has a subject
 * and a scope vector, and decoded lengths stay within their bound. */
#include "fuzz.h"

#include "mcp-server/http/oauth/jose.h"
#include "mcp-server/http/oauth/jwks.h"
#include "mcp-server/http/oauth/jwt.h"
#include "common/json.h"

#include <string.h>

static struct jose_key ed;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    char why[200];
    cJSON *j = cJSON_Parse("{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"ed\","
                           "\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}");
    FUZZ_CHECK(jose_key_from_jwk(j, &ed, why, sizeof why) == 0, "%s", why);
    cJSON_Delete(j);
    return 0;
}

static void token(const char *t, size_t n)
{
    char why[300];
    unsigned char *raw = xmalloc(JOSE_B64URL_DECODED_MAX(n));
    long got = jose_b64url_decode(t, n, raw);
    FUZZ_CHECK(got < 0 || (size_t) got <= JOSE_B64URL_DECODED_MAX(n) - 1, "decoded %ld", got);
    free(raw);
    struct jwt jwt;
    if (jwt_parse(t, n, &jwt, why, sizeof why) == 0) {
        FUZZ_CHECK(jwt.alg != JOSE_ALG_NONE && jwt.payload && jwt.sig_len > 0, "parsed badly");
        FUZZ_CHECK(jwt.signing_len < n, "signing input past the token");
        if (jose_key_allows(&ed, jwt.alg))
            FUZZ_CHECK(jwt_signature_ok(&jwt, t, &ed) >= 0, "libcrypto failed");
        struct jwt_rules r = {.issuer = "https://as.example",
                              .audience = "https://rs.example",
                              .clock_skew_seconds = 30};
        struct jwt_identity id;
        for (int intro = 0; intro < 2; intro++) {
            int rc =
                intro ? jwt_check_introspection(jwt.payload, &r, 1700000000, &id, why, sizeof why)
                      : jwt_check_claims(jwt.payload, &r, 1700000000, &id, why, sizeof why);
            if (rc == 0) {
                FUZZ_CHECK(id.sub && id.sub[0] && id.iss && id.scopes, "identity incomplete");
                jwt_identity_clear(&id);
            }
        }
    }
    jwt_clear(&jwt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int mode = data[0] % 3;
    char *text = xstrndup((const char *) data + 1, size - 1);
    size_t n = strlen(text);
    if (mode == 0) {
        token(text, n);
    } else if (mode == 1) {
        cJSON *doc = json_parse(text, n);
        struct jwks set;
        char why[300];
        if (jwks_parse(doc, &set, why, sizeof why) == 0) {
            FUZZ_CHECK(set.n > 0 && set.n <= JWKS_MAX_KEYS, "%zu keys", set.n);
            jwks_clear(&set);
        }
        cJSON_Delete(doc);
    } else {
        long age = jwks_cache_max_age(text);
        FUZZ_CHECK(age >= -1 && age <= 100000000L, "age %ld", age);
    }
    free(text);
    return 0;
}
