/* execute_code and the stash: keeps a result too large to inline, or a
 * value a program stashes on purpose (content.stash), as a
 * codemode://stash/ resource of the request's principal (its connection:
 * the stdio client, an HTTP session, or the stateless server of a token),
 * links it, and gives resources/read its contents. */
#ifndef MCP_SERVER_STASH_LINK_H
#define MCP_SERVER_STASH_LINK_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct buf;
struct mcp_request;

/* Keeps text[0..len) (a whole result's JSON) for r's principal; returns
 * the link block for r's revision (resource_link, or a text block with the
 * URI before 2025-06-18; the caller owns it) and writes the URI to uri
 * (MCP_STASH_URI_MAX bytes, stash.h), or
 * returns NULL when the stash is off or the text is over its byte bound. */
cJSON *mcp_stash_link_keep(struct mcp_request *r, const char *text, size_t len, char *uri);

/* The same for text that the caller gives up (malloc'd, NUL at text[len]):
 * kept without a copy, or freed. */
cJSON *mcp_stash_link_adopt(struct mcp_request *r, char *text, size_t len, char *uri);

/* The host call content.stash(value): keeps value (borrowed) and appends
 * to out the JSON of the resource_link object the program gets (returns
 * 1), or of an error (returns 0). Image and audio blocks and embedded
 * resources are kept as their data (blob or text, with their MIME type);
 * a string as text/plain; anything else as its JSON. */
int mcp_stash_link_call(struct mcp_request *r, const cJSON *value, struct buf *out);

/* The contents entry of resources/read for a stash URI of r's principal
 * ({uri, mimeType, text | blob}, caller owns), or NULL when there is no
 * such entry for r (never was, evicted, expired, another principal's). */
cJSON *mcp_stash_link_contents(struct mcp_request *r, const char *uri);

/* Sends execute_code's result (taken over) once the request's writes to
 * the shared stash are done (at once when there are none). */
void mcp_stash_link_finish(struct mcp_request *r, cJSON *result);

/* A resources/read of a stash URI this instance does not hold: with a
 * shared stash (PostgreSQL), asks it off the loop and calls cb later with
 * the contents entry (caller owns; NULL when r's principal has no such
 * entry), or answers r with an error itself when the database cannot be
 * read; returns 1. Returns 0 (nothing started) without a shared stash. */
typedef void mcp_stash_fetched_cb(struct mcp_request *r, const char *uri, cJSON *contents);
int mcp_stash_link_fetch(struct mcp_request *r, const char *uri, mcp_stash_fetched_cb *cb);

#endif
