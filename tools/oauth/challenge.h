/* The Bearer challenge of a WWW-Authenticate header (RFC 6750 section 3,
 * RFC 9728 section 5.1): resource_metadata, scope and error of a 401 or
 * 403 answer from a protected MCP server. Pure parsing, no I/O. */
#ifndef TOOLS_OAUTH_CHALLENGE_H
#define TOOLS_OAUTH_CHALLENGE_H

#include <stddef.h>

#define TOOLS_OAUTH_CHALLENGE_MAX 8192 /* bytes of a header we read */

struct tools_oauth_challenge {
    int bearer;              /* a Bearer challenge was found */
    char *resource_metadata; /* each malloc'd, or NULL when absent */
    char *scope;
    char *error;
    char *error_description;
};

/* Parses header (one WWW-Authenticate value, which may hold several
 * challenges separated by commas) into *c, reading the parameters of its
 * Bearer challenge. Parameter values may be quoted strings (with \ escapes)
 * or tokens; names are case-insensitive; unknown parameters and other
 * schemes are skipped. Returns 0, or -1 when the header is malformed or
 * over TOOLS_OAUTH_CHALLENGE_MAX bytes (*c is then empty). header may be
 * NULL (returns 0 with an empty *c). Free with tools_oauth_challenge_free. */
int tools_oauth_challenge_parse(const char *header, struct tools_oauth_challenge *c);

void tools_oauth_challenge_free(struct tools_oauth_challenge *c);

#endif
