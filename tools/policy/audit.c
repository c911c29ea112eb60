/* The audit log file: O_APPEND writes of whole lines (one write(2) each, so
 * lines from one process never interleave and nothing waits in a buffer),
 * reopening for logrotate, and a single stderr report of the first write
 * error (later ones are counted, not repeated). */
#include "tools/policy/audit.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/log.h"
#include "common/random.h"
#include "common/sha256.h"
#include "common/utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

struct tools_audit {
    char *path;
    int fd;
    enum tools_audit_arguments args;
    int reported; /* a write error was reported on stderr */
};

int tools_audit_arguments_parse(const char *s, enum tools_audit_arguments *out)
{
    static const char *const names[] = {"hash", "full", "none"};
    for (int i = 0; i < 3; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = (enum tools_audit_arguments) i;
            return 0;
        }
    }
    return -1;
}

static int open_path(const char *path)
{
    return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
}

struct tools_audit *tools_audit_open(const char *path, enum tools_audit_arguments args, char **err)
{
    int fd = open_path(path);
    if (fd < 0) {
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "audit log %s: %s", path, strerror(errno));
        *err = buf_steal(&b);
        return NULL;
    }
    struct tools_audit *a = xcalloc(1, sizeof *a);
    a->path = xstrdup(path);
    a->fd = fd;
    a->args = args;
    return a;
}

static void report(struct tools_audit *a, const char *what, int errnum)
{
    if (a->reported)
        return;
    a->reported = 1;
    log_error("audit", "audit log %s: %s: %s (executions go on; further errors are not reported)",
              a->path, what, strerror(errnum));
}

void tools_audit_reopen(struct tools_audit *a)
{
    if (a == NULL)
        return;
    int fd = open_path(a->path);
    if (fd < 0) {
        report(a, "reopen failed", errno);
        return;
    }
    close(a->fd);
    a->fd = fd;
    a->reported = 0; /* a new file: its first error is news again */
}

void tools_audit_close(struct tools_audit *a)
{
    if (a == NULL)
        return;
    close(a->fd);
    free(a->path);
    free(a);
}

static void write_line(struct tools_audit *a, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(a->fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            report(a, "write failed", n < 0 ? errno : EIO);
            return;
        }
        data += n;
        len -= (size_t) n;
    }
}

static void rfc3339_now(char out[32])
{
    struct timeval tv;
    struct tm tm;
    gettimeofday(&tv, NULL);
    gmtime_r(&tv.tv_sec, &tm);
    size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, 32 - n, ".%03dZ", (int) (tv.tv_usec / 1000));
}

void tools_audit_write(struct tools_audit *a, const char *event_name, cJSON *event)
{
    if (a == NULL) {
        cJSON_Delete(event);
        return;
    }
    char now[32];
    rfc3339_now(now);
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, "{\"time\":\"");
    buf_append_str(&b, now);
    buf_append_str(&b, "\",\"event\":");
    json_append_string(&b, event_name, strlen(event_name));
    for (const cJSON *m = event ? event->child : NULL; m; m = m->next) {
        buf_append_char(&b, ',');
        json_append_string(&b, m->string, strlen(m->string));
        buf_append_char(&b, ':');
        json_append(&b, m);
    }
    buf_append_str(&b, "}\n");
    write_line(a, b.data, b.len);
    buf_free(&b);
    cJSON_Delete(event);
}

void tools_audit_add_arguments(const struct tools_audit *a, cJSON *event, const cJSON *args)
{
    if (a == NULL || a->args == TOOLS_AUDIT_ARGS_NONE)
        return;
    char *text = args ? json_print(args) : xstrdup("{}");
    size_t len = strlen(text);
    if (a->args == TOOLS_AUDIT_ARGS_FULL && len <= TOOLS_AUDIT_ARGUMENTS_MAX) {
        cJSON_AddItemToObject(event, "arguments",
                              args ? cJSON_Duplicate(args, 1) : cJSON_CreateObject());
        free(text);
        return;
    }
    char hex[65];
    sha256_hex(text, len, hex);
    cJSON_AddStringToObject(event, "argumentsSha256", hex);
    cJSON_AddNumberToObject(event, "argumentsBytes", (double) len);
    if (a->args == TOOLS_AUDIT_ARGS_FULL) {
        cJSON_AddTrueToObject(event, "argumentsTruncated");
        text[utf8_cut_length(text, len, TOOLS_AUDIT_ARGUMENTS_MAX)] = '\0';
        cJSON_AddStringToObject(event, "argumentsHead", text);
    }
    free(text);
}

void tools_audit_add_tool(cJSON *event, const char *name)
{
    size_t len = strlen(name);
    size_t n = utf8_cut_length(name, len, TOOLS_AUDIT_ARGUMENTS_MAX);
    if (n == len) {
        cJSON_AddStringToObject(event, "tool", name);
        return;
    }
    char *cut = xmalloc(n + 1);
    memcpy(cut, name, n);
    cut[n] = '\0';
    cJSON_AddStringToObject(event, "tool", cut);
    cJSON_AddNumberToObject(event, "toolBytes", (double) len);
    free(cut);
}

void tools_audit_new_id(char id[33])
{
    random_hex(id, 16);
}

void tools_audit_new_call_id(char id[17])
{
    random_hex(id, 8);
}

void tools_audit_call_end(struct tools_audit *a, cJSON *event, const char *outcome, uint64_t t0,
                          size_t result_bytes)
{
    if (event == NULL)
        return;
    cJSON_AddStringToObject(event, "outcome", outcome);
    cJSON_AddNumberToObject(event, "durationMs", (double) ((uv_hrtime() - t0) / 1000) / 1000.0);
    if (result_bytes)
        cJSON_AddNumberToObject(event, "resultBytes", (double) result_bytes);
    tools_audit_write(a, "tool_call", event);
}
