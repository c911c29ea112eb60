/* The `__zygote` command, shared by the two executables that can serve it
 * (mcp-codemode and mcp-codemode-sandbox), and the choice between them. */
#include "mcp-server/zygote_cmd.h"
#include "mcp-server/cli.h"
#include "mcp-server/version.h"
#include "sandbox/worker/zygote.h"
#include "common/alloc.h"
#include "common/log.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SANDBOX_IMAGE "mcp-codemode-sandbox"

/* The two executables of one build link this same object, so each carries
 * the tag of the other: an image without ours is from another build. */
const char zygote_cmd_build_tag[] =
    "mcp-codemode build " MCP_CODEMODE_VERSION " " __DATE__ " " __TIME__;

/* 1 when the file at path contains zygote_cmd_build_tag. */
static int same_build(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    void *m = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return 0;
    int found = memmem(m, (size_t) st.st_size, zygote_cmd_build_tag,
                       sizeof zygote_cmd_build_tag) != NULL;
    munmap(m, (size_t) st.st_size);
    return found;
}

int zygote_cmd_run(const struct cli *cli)
{
    enum log_level level = LOG_WARNING;
    if (cli->log_level)
        log_level_parse(cli->log_level, &level);
    log_set_level(level);
    struct sandbox_worker_config wc = {cli->worker_as, cli->worker_cpu, NULL};
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
    if (access(image, X_OK) == 0) {
        if (same_build(image))
            return image;
        log_warn("sandbox", "%s is from another build than %s: not used (the server runs its own "
                 "zygote; reinstall both)", image, exe);
    }
    free(image);
    return xstrdup(exe);
}
