/* The hidden `__zygote` command: runs the sandbox zygote with the limits the
 * host passed on its command line. Shared by mcp-codemode (re-executed as
 * `mcp-codemode __zygote`) and the small mcp-codemode-sandbox image. */
#ifndef MCP_SERVER_ZYGOTE_CMD_H
#define MCP_SERVER_ZYGOTE_CMD_H

struct cli;

/* Runs the zygote on stdin (its control channel) until the host goes away.
 * cli: a parsed CLI_ZYGOTE command line (log level, worker limits, host pid).
 * Returns the process exit status (0, or 1 when the template engine cannot
 * be built). */
int zygote_cmd_run(const struct cli *cli);

/* The executable the sandbox pool starts as its zygote, for a binary at exe:
 * mcp-codemode-sandbox in the same directory when it is there, executable
 * and from the same build (it contains zygote_cmd_build_tag: an image left
 * by an older install is ignored with a warning), else exe itself (which
 * serves `__zygote` too). Returns a new string (free it). */
char *zygote_cmd_exe(const char *exe);

/* The tag both executables of a build carry (NUL included in the match). */
extern const char zygote_cmd_build_tag[];

#endif
