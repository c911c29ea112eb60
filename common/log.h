/* Logging to stderr for every layer of mcp-codemode.
 * stdout belongs to the protocol in stdio mode, so nothing here writes there.
 * Levels follow MCP/syslog names; messages below the current level are dropped. */
#ifndef COMMON_LOG_H
#define COMMON_LOG_H

enum log_level {
    LOG_DEBUG = 0,
    LOG_INFO,
    LOG_NOTICE,
    LOG_WARNING,
    LOG_ERROR,
    LOG_CRITICAL,
    LOG_ALERT,
    LOG_EMERGENCY,
    LOG_OFF
};

/* Sets the threshold; messages below it are dropped. Default: LOG_WARNING. */
void log_set_level(enum log_level level);
enum log_level log_get_level(void);

/* Parses an MCP/syslog level name ("debug", "warning", ..., also "warn" and
 * "off"). Returns 0 and stores the level, or -1 for an unknown name. */
int log_level_parse(const char *name, enum log_level *out);

/* The MCP name of a level ("debug", "info", ...). */
const char *log_level_name(enum log_level level);

/* Writes "mcp-codemode[pid]: level: component: message\n" to stderr in one
 * write, when level is at or above the threshold. */
void log_msg(enum log_level level, const char *component, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define log_debug(comp, ...) log_msg(LOG_DEBUG, comp, __VA_ARGS__)
#define log_info(comp, ...) log_msg(LOG_INFO, comp, __VA_ARGS__)
#define log_warn(comp, ...) log_msg(LOG_WARNING, comp, __VA_ARGS__)
#define log_error(comp, ...) log_msg(LOG_ERROR, comp, __VA_ARGS__)

#endif
