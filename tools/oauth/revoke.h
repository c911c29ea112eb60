/* Token revocation at logout (RFC 7009): the refresh token, then the
 * access token, of a forgotten token row are sent to the authorization
 * server's revocation_endpoint (when its metadata named one), with the
 * client's authentication. On the loop, never blocking. */
#ifndef TOOLS_OAUTH_REVOKE_H
#define TOOLS_OAUTH_REVOKE_H

#include <cjson/cJSON.h>
#include <uv.h>

struct tools_oauth_revoke;

/* ok 1 when the server took every revocation; else 0 with a phrase in why
 * (borrowed). Runs once, from the loop; free afterwards (not inside). */
typedef void tools_oauth_revoke_cb(void *ud, int ok, const char *why);

/* Starts revoking the tokens of row (copied); key_file is the entry's
 * privateKeyFile for private_key_jwt (or NULL), secret the entry's
 * clientSecret for a client credentials row (or NULL). NULL when row names
 * no revocation endpoint or holds no token: nothing to do, no callback. */
struct tools_oauth_revoke *tools_oauth_revoke_start(uv_loop_t *loop, const cJSON *row,
                                                    const char *secret, const char *key_file,
                                                    tools_oauth_revoke_cb *cb, void *ud);
void tools_oauth_revoke_free(struct tools_oauth_revoke *r);

#endif
