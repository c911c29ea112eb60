/* PKCE (RFC 7636) with S256, and the other random values of one
 * authorization attempt (state). The verifier lives in the memory of the
 * attempt that made it and nowhere else. */
#ifndef TOOLS_OAUTH_PKCE_H
#define TOOLS_OAUTH_PKCE_H

#include <stddef.h>

#define TOOLS_OAUTH_VERIFIER_LEN  64 /* characters: 48 random bytes, base64url */
#define TOOLS_OAUTH_CHALLENGE_LEN 43 /* base64url of a SHA-256 digest */

struct tools_oauth_pkce {
    char verifier[TOOLS_OAUTH_VERIFIER_LEN + 1];
    char challenge[TOOLS_OAUTH_CHALLENGE_LEN + 1];
    char state[TOOLS_OAUTH_VERIFIER_LEN + 1]; /* the `state` parameter, as random */
};

/* Fills p with a fresh random verifier, its S256 challenge and a state. */
void tools_oauth_pkce_new(struct tools_oauth_pkce *p);

/* The S256 challenge of verifier: BASE64URL(SHA256(ASCII(verifier))),
 * without padding, into out (TOOLS_OAUTH_CHALLENGE_LEN + 1 bytes). */
void tools_oauth_pkce_challenge(const char *verifier, char *out);

/* base64url without padding of in[0..n) into out (room for (n + 2) / 3 * 4
 * + 1 bytes); returns the length (out is NUL-terminated). */
size_t tools_oauth_base64url(const unsigned char *in, size_t n, char *out);

#endif
