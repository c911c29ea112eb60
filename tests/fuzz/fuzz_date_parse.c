/* libFuzzer target of sandbox/worker/date_parse.c: any bytes (NUL-terminated)
 * either parse to a time value within the ECMAScript range or are refused;
 * no read past the end, no overflow (UBSan), no crash. */
#include "tests/fuzz/fuzz.h"

#include "sandbox/worker/date_parse.h"

#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void) argc;
    (void) argv;
    fuzz_setup();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = xmalloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    double ms = 0;
    if (sandbox_date_parse(s, &ms))
        FUZZ_CHECK(ms >= -8.64e15 && ms <= 8.64e15, "time value %.0f out of range for '%s'", ms, s);
    free(s);
    return 0;
}
