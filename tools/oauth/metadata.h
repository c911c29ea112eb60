/* The documents of OAuth discovery: where to look for a protected
 * resource's metadata (RFC 9728) and for its authorization server's (RFC
 * 8414 and OpenID Connect Discovery, in the order of MCP 2025-11-25), and
 * the checks a document must pass before it is used: issuer identity, PKCE
 * S256, HTTPS endpoints (http only on loopback hosts). Pure, no I/O. */
#ifndef TOOLS_OAUTH_METADATA_H
#define TOOLS_OAUTH_METADATA_H

#include <cjson/cJSON.h>
#include <stddef.h>

#define TOOLS_OAUTH_METADATA_MAX (256 * 1024) /* bytes of a metadata document */

/* The well-known protected resource metadata URLs of an MCP server URL, in
 * the order to try: "/.well-known/oauth-protected-resource" + the server's
 * path (when it has one), then the root document. A NULL-terminated vector
 * of malloc'd strings, or NULL when url is not an absolute http(s) URL.
 * Free with tools_oauth_free_vector. */
char **tools_oauth_prm_urls(const char *url);

/* The authorization server metadata URLs of an issuer, in order: with a
 * path component, oauth-authorization-server with path insertion, then
 * openid-configuration with path insertion, then openid-configuration
 * appended to the path; without one, oauth-authorization-server then
 * openid-configuration. NULL when issuer is not an absolute http(s) URL
 * without query or fragment. */
char **tools_oauth_as_urls(const char *issuer);

void tools_oauth_free_vector(char **v);

/* 1 when url may carry authorization traffic: https, or http to a loopback
 * host (127.0.0.0/8, [::1], localhost). Else 0 with a phrase in why. */
int tools_oauth_url_ok(const char *url, char *why, size_t n);

/* The canonical URI of an MCP server (RFC 8707, MCP "Canonical Server
 * URI"): scheme and host in lower case, no fragment, no trailing slash on
 * an empty path. malloc'd, or NULL when url is not absolute http(s). */
char *tools_oauth_canonical_uri(const char *url);

/* Checks a protected resource metadata document fetched for server_url:
 * an object whose authorization_servers is a non-empty array of strings,
 * whose resource (when present) names server_url's origin. 0, or -1 with a
 * sentence in why (n bytes). */
int tools_oauth_prm_check(const cJSON *prm, const char *server_url, char *why, size_t n);

/* Checks authorization server metadata fetched for issuer: its issuer is
 * identical to the one used to build the URL; authorization_endpoint and
 * token_endpoint are present and pass tools_oauth_url_ok (and
 * registration_endpoint when present); code_challenge_methods_supported
 * lists S256. 0, or -1 with a sentence in why. */
int tools_oauth_as_check(const cJSON *meta, const char *issuer, char *why, size_t n);

/* A string member of o, or NULL. */
const char *tools_oauth_str(const cJSON *o, const char *key);

#endif
