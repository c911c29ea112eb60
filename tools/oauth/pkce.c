/* PKCE S256 and the random values of an authorization attempt: SHA-256 from
 * common/sha256.c, randomness from the kernel (common/random.c). */
#include "tools/oauth/pkce.h"
#include "common/base64.h"
#include "common/random.h"
#include "common/sha256.h"

#include <string.h>

size_t tools_oauth_base64url(const unsigned char *in, size_t n, char *out)
{
    size_t len = base64_encode(in, n, out);
    while (len > 0 && out[len - 1] == '=')
        len--;
    for (size_t i = 0; i < len; i++)
        out[i] = out[i] == '+' ? '-' : out[i] == '/' ? '_' : out[i];
    out[len] = '\0';
    return len;
}

void tools_oauth_pkce_challenge(const char *verifier, char *out)
{
    struct sha256 s;
    unsigned char digest[32];
    sha256_init(&s);
    sha256_update(&s, verifier, strlen(verifier));
    sha256_final(&s, digest);
    tools_oauth_base64url(digest, sizeof digest, out);
}

void tools_oauth_pkce_new(struct tools_oauth_pkce *p)
{
    unsigned char raw[48];
    char tmp[68];
    random_bytes(raw, sizeof raw);
    tools_oauth_base64url(raw, sizeof raw, tmp);
    memcpy(p->verifier, tmp, TOOLS_OAUTH_VERIFIER_LEN + 1);
    tools_oauth_pkce_challenge(p->verifier, p->challenge);
    random_bytes(raw, sizeof raw);
    tools_oauth_base64url(raw, sizeof raw, tmp);
    memcpy(p->state, tmp, TOOLS_OAUTH_VERIFIER_LEN + 1);
}
