/* mcp-codemode-sandbox: the sandbox zygote as a small executable of its own.
 * The server starts it (when it sits next to the server's binary) instead of
 * re-executing itself as `mcp-codemode __zygote`, with the same arguments.
 * Every worker is a fork of the zygote, and this image maps 7 shared objects
 * (Duktape is linked in; libseccomp, cJSON, libm, libc) where the server maps
 * 37 (libcurl and its TLS, Kerberos, LDAP... dependencies): about 40 memory
 * mappings instead of 205, and fork + exit copy and tear down every one.
 * Linked with -z now: workers no longer resolve lazy PLT entries (each a
 * copy-on-write fault of a GOT page). Exit status as __zygote's, 2 for a
 * wrong command line. */
#include "mcp-server/cli.h"
#include "mcp-server/zygote_cmd.h"

#include <signal.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN); /* as mcp-codemode's main: a worker whose host left gets EPIPE */
    struct cli cli;
    char err[256];
    if (cli_parse(argc, argv, &cli, err, sizeof err) != 0) {
        fprintf(stderr, "mcp-codemode-sandbox: %s\n", err);
        return 2;
    }
    if (cli.cmd != CLI_ZYGOTE) {
        fprintf(stderr, "mcp-codemode-sandbox: the sandbox zygote, started by mcp-codemode only\n");
        return 2;
    }
    return zygote_cmd_run(&cli);
}
