/* Logging to stderr: one write(2) per message so lines from the host, the
 * zygote and child processes sharing stderr never interleave mid-line. */
#include "common/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static enum log_level threshold = LOG_WARNING;

static const char *const level_names[] = {"debug",    "info",  "notice", "warning",
                                          "error",    "critical", "alert", "emergency",
                                          "off"};

void log_set_level(enum log_level level)
{
    threshold = level;
}

enum log_level log_get_level(void)
{
    return threshold;
}

int log_level_parse(const char *name, enum log_level *out)
{
    for (int i = 0; i <= LOG_OFF; i++) {
        if (strcasecmp(name, level_names[i]) == 0) {
            *out = (enum log_level) i;
            return 0;
        }
    }
    if (strcasecmp(name, "warn") == 0) {
        *out = LOG_WARNING;
        return 0;
    }
    return -1;
}

const char *log_level_name(enum log_level level)
{
    if ((int) level < 0 || level > LOG_OFF)
        return "unknown";
    return level_names[level];
}

void log_msg(enum log_level level, const char *component, const char *fmt, ...)
{
    if (level < threshold || threshold == LOG_OFF)
        return;
    char line[4096];
    int n = snprintf(line, sizeof line, "mcp-codemode[%d]: %s: %s: ", (int) getpid(),
                     log_level_name(level), component);
    if (n < 0 || (size_t) n >= sizeof line)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - (size_t) n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t) n;
    if (m > 0)
        len += (size_t) m < sizeof line - (size_t) n - 1 ? (size_t) m : sizeof line - (size_t) n - 2;
    line[len++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, len);
    (void) w;
}
