/* Content blocks in execute_code's result: whether a program's value is
 * content (one block, or an array of blocks, as the content.* constructors
 * make them and tools return them), and each block as the request's
 * revision can carry it, with a text fallback for a block type the revision
 * lacks (audio before 2025-03-26, resource_link before 2025-06-18). */
#ifndef MCP_SERVER_CONTENT_H
#define MCP_SERVER_CONTENT_H

#include "mcp-server/protocol.h"

#include <cjson/cJSON.h>

/* 1 when value (borrowed) is one well-formed content block or a non-empty
 * array of them, else 0. */
int mcp_content_is_content(const cJSON *value);

/* Appends to the content array the blocks of value (checked with
 * mcp_content_is_content first), as revision rev can carry them. */
void mcp_content_append(cJSON *content, const cJSON *value, enum mcp_revision rev);

/* A summary of value's blocks for structuredContent.content: per block its
 * type, and mimeType, uri and bytes (the decoded size of its base64
 * data) where it has them.
 * The caller owns the array. */
cJSON *mcp_content_summary(const cJSON *value);

/* A resource_link block (2025-06-18 and later) or, before, a text block
 * naming the URI. size < 0: unknown. The caller owns it. */
cJSON *mcp_content_link(enum mcp_revision rev, const char *uri, const char *name, const char *mime,
                        double size, const char *description);

/* What content.stash keeps of value (borrowed, any JSON a program sent):
 * an image or audio block its base64 data (*blob 1) and mimeType; a resource
 * block its resource's blob (*blob 1) or text, and mimeType (else
 * application/octet-stream for a blob, text/plain for text); a string
 * itself (text/plain); anything else its JSON text (application/json),
 * allocated into *owned (the caller frees it; NULL otherwise). Returns the
 * data: borrowed from value, or *owned. Never fails on a malformed block:
 * a value that is not well-formed content is kept as JSON. */
const char *mcp_content_stash_form(const cJSON *value, const char **mime, int *blob, char **owned);

#endif
