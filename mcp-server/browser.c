/* Opening a URL in the person's browser (see browser.h): $BROWSER through
 * sh (so it may carry arguments), else xdg-open, started detached with
 * stderr inherited. */
#include "mcp-server/browser.h"
#include "common/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int mcp_browser_set(void)
{
    const char *b = getenv("BROWSER");
    return b != NULL && *b != '\0';
}

void mcp_open_browser(uv_loop_t *loop, const char *url)
{
    char *args[6] = {"/bin/sh", "-c", "exec $BROWSER \"$1\"", "sh", (char *) url, NULL};
    int browser = mcp_browser_set();
    if (!browser) {
        if (access("/usr/bin/xdg-open", X_OK) != 0)
            return;
        args[0] = "/usr/bin/xdg-open";
        args[1] = (char *) url;
        args[2] = NULL;
    }
    uv_process_t *p = xcalloc(1, sizeof *p);
    uv_stdio_container_t io[3] = {
        {.flags = UV_IGNORE}, {.flags = UV_IGNORE}, {.flags = UV_INHERIT_FD, .data.fd = 2}};
    uv_process_options_t o = {
        .file = args[0], .args = args, .stdio = io, .stdio_count = 3, .flags = UV_PROCESS_DETACHED};
    if (uv_spawn(loop, p, &o) == 0) {
        uv_unref((uv_handle_t *) p);
        uv_close((uv_handle_t *) p, (uv_close_cb) free);
    } else {
        fprintf(stderr, "mcp-codemode: cannot run the browser (%s); open the URL yourself\n",
                browser ? "$BROWSER" : "xdg-open");
        free(p);
    }
}
