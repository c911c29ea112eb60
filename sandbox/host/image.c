/* Which executable the pool starts as the sandbox zygote: the slim image
 * mcp-codemode-sandbox next to the server's binary when it is of the same
 * build, else the server's binary itself (both serve `__zygote`:
 * sandbox/worker/zygote_args.h). */
#include "sandbox/host/image.h"
#include "sandbox/ipc.h"
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

/* 1 when the file at path contains sandbox_build_tag (an image without
 * ours is from another build). */
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
    int found = memmem(m, (size_t) st.st_size, sandbox_build_tag,
                       strlen(sandbox_build_tag) + 1) != NULL; /* its NUL too */
    munmap(m, (size_t) st.st_size);
    return found;
}

char *sandbox_image_path(const char *exe)
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
