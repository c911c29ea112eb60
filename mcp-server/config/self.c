/* Detects a configured stdio server that would start mcp-codemode itself
 * (users often copy their whole Claude Desktop file, including the entry
 * that launches us): by the command's basename, or by the file the command
 * resolves to being the running executable (same device and inode). */
#include "mcp-server/config/internal.h"

#include "common/buf.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_self(const char *path, const struct stat *self)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_dev == self->st_dev && st.st_ino == self->st_ino;
}

static const char *search_path(char *const *env)
{
    for (; env && *env; env++)
        if (strncmp(*env, "PATH=", 5) == 0)
            return *env + 5;
    const char *path = getenv("PATH");
    return path ? path : "/usr/local/bin:/usr/bin:/bin";
}

/* The first executable `command` along PATH (as execvp finds it) is us? */
static int found_on_path(const char *command, char *const *env, const struct stat *self)
{
    const char *dir = search_path(env);
    struct buf b;
    buf_init(&b, 0);
    int r = 0;
    for (;;) {
        size_t n = strcspn(dir, ":");
        buf_reset(&b);
        buf_printf(&b, "%.*s/%s", n ? (int) n : 1, n ? dir : ".", command);
        if (access(b.data, X_OK) == 0) {
            r = is_self(b.data, self);
            break;
        }
        if (dir[n] == '\0')
            break;
        dir += n + 1;
    }
    buf_free(&b);
    return r;
}

int config__launches_self(const char *command, const char *cwd, char *const *env)
{
    const char *base = strrchr(command, '/');
    if (strcmp(base ? base + 1 : command, "mcp-codemode") == 0)
        return 1;
    struct stat self;
    if (stat("/proc/self/exe", &self) != 0)
        return 0;
    if (strchr(command, '/') == NULL)
        return found_on_path(command, env, &self);
    if (command[0] == '/' || cwd == NULL)
        return is_self(command, &self);
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "%s/%s", cwd, command);
    int r = is_self(b.data, &self);
    buf_free(&b);
    return r;
}
