/* The `__zygote` command, shared by the two executables that can serve it
 * (mcp-codemode and mcp-codemode-sandbox), and the choice between them. */
#include "mcp-server/zygote_cmd.h"
#include "mcp-server/cli.h"
#include "sandbox/zygote.h"
#include "common/alloc.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SANDBOX_IMAGE "mcp-codemode-sandbox"

int zygote_cmd_run(const struct cli *cli)
{
    enum log_level level = LOG_WARNING;
    if (cli->log_level)
        log_level_parse(cli->log_level, &level);
    log_set_level(level);
    struct sandbox_worker_config wc = {cli->worker_as, cli->worker_cpu, 1, NULL};
#if defined(__SANITIZE_ADDRESS__)
    wc.address_space_bytes = 0;
#endif
    return sandbox_zygote_main(STDIN_FILENO, &wc, cli->host_pid);
}

char *zygote_cmd_exe(const char *exe)
{
    const char *slash = strrchr(exe, '/');
    size_t dir = slash ? (size_t) (slash - exe) + 1 : 0;
    size_t sz = dir + sizeof SANDBOX_IMAGE;
    char *image = xmalloc(sz);
    snprintf(image, sz, "%.*s%s", (int) dir, exe, SANDBOX_IMAGE);
    if (access(image, X_OK) == 0)
        return image;
    free(image);
    return xstrdup(exe);
}
