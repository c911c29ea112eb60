/* Shared by the libFuzzer targets of tests/fuzz/: the entry points, quiet
 * logging and the checked cJSON allocator, and a failure that libFuzzer
 * reports as a crash (with the message) when an invariant does not hold. */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include "common/alloc.h"
#include "common/log.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* What every target does first: no log lines, the program's cJSON hooks. */
static inline void fuzz_setup(void)
{
    log_set_level(LOG_OFF);
    alloc_install_cjson_hooks();
}

/* An invariant of the module under test does not hold: abort (a crash for
 * libFuzzer, which saves the input). */
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz: check failed: %s: ", #cond);                                    \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
