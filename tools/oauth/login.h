/* One interactive OAuth login to a remote MCP server (`mcp-codemode
 * login`): discovery from the server's 401 (WWW-Authenticate, protected
 * resource metadata, authorization server metadata checked for issuer and
 * S256), the client's identity (pre-registered, Client ID Metadata
 * Document, or Dynamic Client Registration kept per issuer), the
 * authorization code with PKCE S256, state and RFC 9207 iss checked, the
 * RFC 8707 resource, the loopback redirect (or a pasted redirect URL), and
 * the token exchange; the tokens go to the state database. On the loop,
 * never blocking. */
#ifndef TOOLS_OAUTH_LOGIN_H
#define TOOLS_OAUTH_LOGIN_H

#include <cjson/cJSON.h>
#include <uv.h>

struct tools_server_config;
struct tools_oauth_login;

struct tools_oauth_login_events {
    /* The authorization URL is ready (the redirect listener is up): show it
     * to the person (borrowed). */
    void (*authorize)(void *ud, const char *url);
    /* Over: ok 1 with "logged in ..." or 0 with the reason (borrowed). Last
     * event; free the login afterwards (not inside). */
    void (*done)(void *ud, int ok, const char *message);
};

/* Starts the login for server entry s (http or sse, with s->oauth). ev and
 * ud must outlive the login. Events come from the loop only. */
struct tools_oauth_login *tools_oauth_login_start(uv_loop_t *loop,
                                                  const struct tools_server_config *s,
                                                  const struct tools_oauth_login_events *ev,
                                                  void *ud);

/* The same for a running server (docs/oauth.md, logging in while a call
 * waits): redirect_uri (copied) is where the authorization server sends the
 * person back, a route of the server's own HTTP endpoint that hands the
 * query to tools_oauth_login_redirect; NULL: a loopback listener, as for
 * `mcp-codemode login`. A registration made for it is a "web" client's.
 * step_up (copied; may be NULL): scopes a call was just refused for
 * (tools_oauth_tokens_step_up_scope), asked for with those the token row
 * keeps, whose write may not have landed yet. */
struct tools_oauth_login *tools_oauth_login_start_at(uv_loop_t *loop,
                                                     const struct tools_server_config *s,
                                                     const char *redirect_uri, const char *step_up,
                                                     const struct tools_oauth_login_events *ev,
                                                     void *ud);

/* 1 when the login waits for the redirect with this query's state (an
 * application/x-www-form-urlencoded query, borrowed) on the redirect URI
 * given to tools_oauth_login_start_at; 0 otherwise (another login's, or
 * already used: a state is good for one redirect). */
int tools_oauth_login_expects(const struct tools_oauth_login *l, const char *query);

/* Hands the query of the redirect to the login (state, iss and error
 * checked, the code exchanged) and returns the sentence to show the person
 * in the browser (static). */
const char *tools_oauth_login_redirect(struct tools_oauth_login *l, const char *query);

/* The URL the browser was redirected to, pasted by the person (--no-browser):
 * handled like the loopback redirect. Ignored before authorize or after done. */
void tools_oauth_login_paste(struct tools_oauth_login *l, const char *url);

void tools_oauth_login_free(struct tools_oauth_login *l);

/* Forgets the tokens of server s. Returns 0 when there were some (their
 * row in *row when row is not NULL: a new object, for tools/oauth/revoke.h),
 * 1 when there were none, -1 with a sentence in err (errlen bytes). */
int tools_oauth_logout(const struct tools_server_config *s, cJSON **row, char *err, size_t errlen);

#endif
