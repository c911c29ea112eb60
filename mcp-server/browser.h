/* Opening a URL in the person's browser (docs/oauth.md): `$BROWSER URL`
 * when $BROWSER is set, else xdg-open when present. For `login` and for a
 * login while `run`'s program waits. */
#ifndef MCP_SERVER_BROWSER_H
#define MCP_SERVER_BROWSER_H

#include <uv.h>

/* Starts the browser on url, detached (nothing waits for it); says so on
 * stderr when it cannot be started. Without $BROWSER and xdg-open it does
 * nothing: the caller has printed the URL. */
void mcp_open_browser(uv_loop_t *loop, const char *url);

/* 1 when $BROWSER is set (not empty). */
int mcp_browser_set(void);

#endif
