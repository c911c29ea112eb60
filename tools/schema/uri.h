/* URI references for $id and $ref (RFC 3986 section 5 resolution) and the
 * percent-decoding of fragments. */
#ifndef TOOLS_SCHEMA_URI_H
#define TOOLS_SCHEMA_URI_H

#include <stddef.h>

/* Resolves ref against the absolute base. Returns a malloc'd URI. */
char *schema__uri_resolve(const char *base, const char *ref);

/* Decodes %XX escapes (invalid ones are kept as they are). Caller frees. */
char *schema__uri_percent_decode(const char *s, size_t len);

#endif
