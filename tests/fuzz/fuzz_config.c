/* Fuzz target: the configuration file reader (mcp-server/config/): JSON
 * with positions for messages, mcpServers entries, the codemode block,
 * warnings, and ${VAR} / ${VAR:-default} expansion (a few variables are
 * set, one empty). The input is the file (loaded from a memfd through
 * config_load, like a real path), and its text also goes to config_expand
 * directly. Errors must come with a message; nothing may leak or crash. */
#include "fuzz.h"

#include "mcp-server/config/config.h"
#include "mcp-server/config/expand.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    setenv("FUZZ_A", "alpha", 1);
    setenv("FUZZ_EMPTY", "", 1);
    setenv("FUZZ_JSON", "\"quoted\" \\ ${FUZZ_A}", 1);
    unsetenv("FUZZ_UNSET");
    fd = memfd_create("fuzz-config", 0);
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return 0;
}

static void on_unset(void *ud, const char *name, size_t off)
{
    size_t *n = ud;
    FUZZ_CHECK(name && *n >= off, "unset report out of place");
    (void) n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t) size)
        abort();
    struct config c;
    config_init(&c);
    char *err = NULL;
    int rc = config_load(&c, path, &err);
    FUZZ_CHECK(rc == 0 ? err == NULL : err != NULL && err[0], "rc %d with message %s", rc,
               err ? err : "(none)");
    for (size_t i = 0; i < c.nwarnings; i++)
        FUZZ_CHECK(c.warnings[i] != NULL, "warning %zu missing", i);
    free(err);
    config_free(&c);

    char *s = xstrndup((const char *) data, size);
    size_t len = strlen(s);
    const char *e = NULL;
    size_t off = 0;
    char *out = config_expand(s, on_unset, &len, &e, &off);
    if (out == NULL)
        FUZZ_CHECK(e != NULL && off <= len, "no error for a failed expansion");
    free(out);
    free(s);
    return 0;
}
