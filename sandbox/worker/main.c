/* mcp-codemode-sandbox: the sandbox zygote as a small executable of its own.
 * The server starts it (when it sits next to the server's binary) instead of
 * re-executing itself as `mcp-codemode __zygote`, with the same arguments
 * (zygote_args.h). Every worker is a fork of the zygote, and this image maps
 * 7 shared objects (Duktape is linked in; libseccomp, cJSON, libm, libc)
 * where the server maps 37 (libcurl and its TLS, Kerberos, LDAP...
 * dependencies): about 40 memory mappings instead of 205, and fork + exit
 * copy and tear down every one. Linked with -z now: workers no longer
 * resolve lazy PLT entries (each a copy-on-write fault of a GOT page). It
 * links the worker side of sandbox/ and common/ only. Exit status as the
 * zygote's, 2 for a wrong command line. */
#include "sandbox/ipc.h"
#include "sandbox/worker/zygote_args.h"

#include <signal.h>
#include <stdio.h>

/* Carried, so that the host can tell this image is of its own build. */
static const char *const build_tag __attribute__((used)) = sandbox_build_tag;

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN); /* as mcp-codemode's main: a worker whose host left gets EPIPE */
    struct sandbox_zygote_args a;
    char err[256];
    if (sandbox_zygote_args_parse(argc, argv, &a, err, sizeof err) != 0) {
        fprintf(stderr, "mcp-codemode-sandbox: %s\n", err);
        return 2;
    }
    return sandbox_zygote_run(&a);
}
