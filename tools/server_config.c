/* The tool filters of a downstream server: allowTools/denyTools and
 * readOnlyTools globs. */
#include "tools/server_config.h"

#include <fnmatch.h>
#include <stddef.h>

static int any_match(char *const *globs, const char *tool)
{
    for (; globs && *globs; globs++)
        if (fnmatch(*globs, tool, 0) == 0)
            return 1;
    return 0;
}

int tools_server_config_allows(const struct tools_server_config *s, const char *tool)
{
    if (any_match(s->deny_tools, tool))
        return 0;
    return s->allow_tools == NULL || any_match(s->allow_tools, tool);
}

int tools_server_config_read_only(const struct tools_server_config *s, const char *tool)
{
    return any_match(s->read_only_tools, tool);
}
