/* How mcp-codemode proves its client identity at a token endpoint (RFC
 * 6749 section 2.3, RFC 7523, the MCP ext-auth extension): no secret (a
 * public client), client_secret_basic, client_secret_post, or
 * private_key_jwt with a signed client assertion (RS256, ES256 or EdDSA by
 * the key's type, signed by libcrypto). */
#ifndef TOOLS_OAUTH_CLIENT_AUTH_H
#define TOOLS_OAUTH_CLIENT_AUTH_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct buf;

#define TOOLS_OAUTH_KEY_FILE_MAX (64 * 1024) /* bytes of a PEM key file */

/* The method to use, as named in token_endpoint_auth_methods_supported: a
 * key file: "private_key_jwt"; a secret: "client_secret_basic" when meta
 * lists it or lists nothing (RFC 8414's default), else "client_secret_post";
 * else "none". meta may be NULL. Static string. */
const char *tools_oauth_auth_method(const cJSON *meta, int has_secret, int has_key);

/* Adds the client's credentials to a token request by method: client_id
 * (and client_secret) in form, or *authorization (malloc'd, "Basic ...");
 * for private_key_jwt a client assertion for audience (the authorization
 * server's issuer identifier, as RFC 7523bis and the MCP ext-auth
 * extension say), valid 60 seconds, signed with the PEM key in key_file. 0, or -1 with a
 * sentence in why (n bytes). */
int tools_oauth_client_auth(const char *method, const char *client_id, const char *secret,
                            const char *key_file, const char *audience, struct buf *form,
                            char **authorization, char *why, size_t n);

#endif
