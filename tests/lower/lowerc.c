/* Command-line driver for tests: lowers FILE (or stdin) and prints the ES5
 * text, or the error (line:col: message + excerpt) on stderr with exit 1.
 *   lowerc [-s] [FILE]     -s: LOWER_MODE_SCRIPT (default: LOWER_MODE_MAIN) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "sandbox/lower/lower.h"

int main(int argc, char **argv)
{
    enum lower_mode mode = LOWER_MODE_MAIN;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0)
            mode = LOWER_MODE_SCRIPT;
        else
            path = argv[i];
    }
    FILE *f = path ? fopen(path, "rb") : stdin;
    if (!f) {
        perror(path);
        return 2;
    }
    struct buf in, out;
    buf_init(&in, 0);
    buf_init(&out, 0);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&in, chunk, n);
    if (path)
        fclose(f);
    struct lower_error err;
    if (sandbox_lower(in.data ? in.data : "", in.len, mode, &out, &err) < 0) {
        fprintf(stderr, "SyntaxError: %s (line %d, column %d)\n%s\n", err.message, err.line,
                err.column, err.excerpt);
        buf_free(&in);
        buf_free(&out);
        return 1;
    }
    fwrite(out.data ? out.data : "", 1, out.len, stdout);
    fputc('\n', stdout);
    buf_free(&in);
    buf_free(&out);
    return 0;
}
