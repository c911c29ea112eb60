/* The loopback redirect listener of a login (RFC 8252 section 7.3): an HTTP
 * listener on 127.0.0.1 (a fixed port or any free one) that takes one GET
 * of /callback, hands its query to the login and answers the browser with
 * a short page. Anything else gets 404; requests are size-capped. */
#ifndef TOOLS_OAUTH_LOOPBACK_H
#define TOOLS_OAUTH_LOOPBACK_H

#include <uv.h>

struct tools_oauth_loopback;

/* Called with the query string of GET /callback (borrowed); returns the
 * sentence to show in the browser. */
typedef const char *tools_oauth_loopback_cb(void *ud, const char *query);

/* Listens on 127.0.0.1:port (0: any free port). NULL with a sentence in err
 * when the port cannot be bound. */
struct tools_oauth_loopback *tools_oauth_loopback_new(uv_loop_t *loop, unsigned port,
                                                      tools_oauth_loopback_cb *cb, void *ud,
                                                      char *err, size_t errlen);
unsigned tools_oauth_loopback_port(const struct tools_oauth_loopback *l);
/* Stops listening and closes every connection (freed once closed). */
void tools_oauth_loopback_free(struct tools_oauth_loopback *l);

#endif
