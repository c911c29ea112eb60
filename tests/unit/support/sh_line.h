/* Test helper (header-only, after cmocka.h): runs `sh -c script` the way
 * the host starts a stdio server (transport/child.c) on a caller's loop,
 * writes `input` (may be NULL) to its stdin, and returns the first line it
 * printed once it has exited. */
#ifndef TESTS_UNIT_SH_LINE_H
#define TESTS_UNIT_SH_LINE_H

#include "transport/child.h"
#include "loop_wait.h"

#include <string.h>

static struct {
    char line[256];
    int done;
} sh_line_state;

static void sh_line_on_line(void *ud, char *line, size_t len)
{
    (void) ud;
    if (len < sizeof sh_line_state.line && sh_line_state.line[0] == '\0')
        memcpy(sh_line_state.line, line, len + 1);
}

static void sh_line_on_exit(void *ud, int64_t status, int sig)
{
    (void) ud;
    (void) status;
    (void) sig;
    sh_line_state.done = 1;
}

static const char *sh_first_line(uv_loop_t *loop, const char *script, const char *input)
{
    char *const args[] = {"-c", (char *) script, NULL};
    char *const env[] = {"PATH=/usr/bin:/bin", NULL};
    struct transport_child_options o = {
        .name = "sh", .file = "/bin/sh", .args = args, .env = env, .max_line = 4096};
    struct transport_child_events ev = {.line = sh_line_on_line, .exit = sh_line_on_exit};
    struct transport_child *c;
    memset(&sh_line_state, 0, sizeof sh_line_state);
    assert_int_equal(transport_child_spawn(loop, &o, &ev, NULL, &c), 0);
    if (input)
        assert_int_equal(transport_child_write(c, input, strlen(input)), 0);
    assert_true(loop_run_until(loop, &sh_line_state.done, 5000));
    loop_run_for(loop, 50); /* the last stdout bytes */
    transport_child_close(c, 0);
    uv_run(loop, UV_RUN_DEFAULT);
    return sh_line_state.line;
}

#endif
