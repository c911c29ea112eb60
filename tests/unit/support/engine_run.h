/* Test helper: runs a program to its end in an in-process engine (no host,
 * so no tool calls) and returns its outcome JSON, NUL-terminated (caller
 * frees); fails the test if the program did not finish. Include after
 * cmocka.h. */
#ifndef TESTS_UNIT_ENGINE_RUN_H
#define TESTS_UNIT_ENGINE_RUN_H

#include <string.h>

#include "common/buf.h"
#include "sandbox/worker/engine.h"

static inline char *engine_run(struct sandbox_engine *e, const char *code)
{
    struct sandbox_run_limits rl = {5000, 64u << 20, 16};
    sandbox_engine_start(e, code, strlen(code), NULL, &rl);
    assert_int_equal(sandbox_engine_state(e), SANDBOX_DONE);
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    buf_append(&out, "", 1);
    return out.data;
}

#endif
