/* Unit tests of the refill policy of sandbox/host/pool.c against a real zygote (the built binary in its
 * hidden mode, $MCP_CODEMODE_BIN or build/mcp-codemode): a lease that leaves
 * idle workers behind defers its replacement until the worker is released;
 * a burst that empties the pool refills it at once; workers forked for leases
 * that no longer need them do not stay idle beyond the pool's size, nor
 * beyond the smaller target a worker kept for a principal sets; a worker
 * holds only its own descriptors; close releases all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sandbox/host/pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

struct fixture {
    uv_loop_t loop;
    struct sandbox_pool *pool;
    struct sandbox_proc *leased[4];
    int nleased, closed;
};

static const char *zygote_exe(void)
{
    const char *bin = getenv("MCP_CODEMODE_BIN");
    return bin && *bin ? bin : "build/mcp-codemode";
}

static void on_lease(void *ud, struct sandbox_proc *w, const char *error)
{
    struct fixture *f = ud;
    assert_null(error);
    f->leased[f->nleased++] = w;
}

static void on_closed(void *ud)
{
    ((struct fixture *) ud)->closed = 1;
}

static void tick(uv_timer_t *t)
{
    (void) t;
}

/* Runs the loop for ms milliseconds. */
static void run_for(struct fixture *f, unsigned ms)
{
    uv_timer_t t;
    uv_timer_init(&f->loop, &t);
    uv_timer_start(&t, tick, 5, 5);
    uint64_t end = uv_now(&f->loop) + ms;
    while (uv_now(&f->loop) < end)
        uv_run(&f->loop, UV_RUN_ONCE);
    uv_close((uv_handle_t *) &t, NULL);
    uv_run(&f->loop, UV_RUN_NOWAIT);
}

/* Polls sandbox_pool_idle until it equals want or 5 s pass; returns it. */
static unsigned wait_idle(struct fixture *f, unsigned want)
{
    for (int i = 0; i < 500 && sandbox_pool_idle(f->pool) != want; i++)
        run_for(f, 10);
    return sandbox_pool_idle(f->pool);
}

/* Without the binary (state NULL) the tests skip. */
static int setup(void **state)
{
    *state = NULL;
    if (access(zygote_exe(), X_OK) != 0)
        return 0;
    struct fixture *f = calloc(1, sizeof *f);
    uv_loop_init(&f->loop);
    struct sandbox_pool_config cfg = {
        .exe = zygote_exe(),
        .size = 2,
        .cpu_seconds = 10,
        .max_line_bytes = 1u << 20,
        .log_level = "warning",
        .max_runs = 1000,
    };
    f->pool = sandbox_pool_new(&f->loop, &cfg);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    if (f == NULL)
        return 0;
    sandbox_pool_close(f->pool, on_closed, f);
    while (!f->closed)
        uv_run(&f->loop, UV_RUN_ONCE);
    int rc = uv_loop_close(&f->loop);
    free(f);
    return rc == 0 ? 0 : -1;
}

static void lease(struct fixture *f)
{
    int before = f->nleased;
    sandbox_pool_lease(f->pool, on_lease, f);
    for (int i = 0; i < 500 && f->nleased == before; i++)
        run_for(f, 10);
    assert_int_equal(f->nleased, before + 1);
}

static void test_replacement_waits_for_release(void **state)
{
    struct fixture *f = *state;
    if (f == NULL)
        skip();
    assert_int_equal(wait_idle(f, 2), 2);
    lease(f);
    run_for(f, 300); /* a replacement forked at lease time would arrive here */
    assert_int_equal(sandbox_pool_idle(f->pool), 1);
    sandbox_proc_release(f->leased[0]);
    assert_int_equal(wait_idle(f, 2), 2);
}

/* Leases both idle workers of the full pool. */
static void lease_two(struct fixture *f)
{
    assert_int_equal(wait_idle(f, 2), 2);
    lease(f);
    lease(f);
}

/* Releases the two leased workers and lets their replacements arrive. */
static void release_two(struct fixture *f)
{
    sandbox_proc_release(f->leased[0]);
    sandbox_proc_release(f->leased[1]);
    run_for(f, 300);
}

static void test_empty_pool_refills_at_once(void **state)
{
    struct fixture *f = *state;
    if (f == NULL)
        skip();
    lease_two(f);
    assert_int_equal(wait_idle(f, 2), 2); /* both still leased */
    release_two(f);
    assert_int_equal(sandbox_pool_idle(f->pool), 2); /* no overshoot */
}

static void ignore_lease(void *ud, struct sandbox_proc *w, const char *error)
{
    (void) ud;
    (void) error;
    fail_msg("a cancelled lease was called back (worker %p)", (void *) w);
}

static void test_no_surplus_after_cancelled_leases(void **state)
{
    struct fixture *f = *state;
    if (f == NULL)
        skip();
    lease_two(f);
    /* two more wait (nothing idle): workers are forked for them; the leases
     * go away before those arrive */
    struct sandbox_lease *a = sandbox_pool_lease(f->pool, ignore_lease, f);
    struct sandbox_lease *b = sandbox_pool_lease(f->pool, ignore_lease, f);
    sandbox_lease_cancel(a);
    sandbox_lease_cancel(b);
    assert_int_equal(wait_idle(f, 2), 2);
    run_for(f, 500); /* every worker forked has arrived by now */
    assert_int_equal(sandbox_pool_idle(f->pool), 2);
    release_two(f);
    assert_int_equal(sandbox_pool_idle(f->pool), 2);
}

/* A client's first call while the pool still fills: a worker is forked for
 * its lease on top of the pool's two. Once that worker is kept for the
 * client, one fresh worker is the target, and the other is surplus. */
static void test_no_surplus_after_an_early_call_is_kept(void **state)
{
    struct fixture *f = *state;
    if (f == NULL)
        skip();
    sandbox_pool_lease_for(f->pool, 7, on_lease, f);
    for (int i = 0; i < 500 && f->nleased == 0; i++)
        run_for(f, 10);
    assert_int_equal(f->nleased, 1);
    assert_int_equal(wait_idle(f, 2), 2);
    run_for(f, 300); /* every worker forked has arrived by now */
    assert_int_equal(sandbox_proc_run_begins(f->leased[0]), 1);
    sandbox_proc_keep(f->leased[0]);
    assert_int_equal(sandbox_pool_kept(f->pool), 1);
    run_for(f, 300);
    assert_int_equal(sandbox_pool_idle(f->pool), 1);
    assert_int_equal(sandbox_pool_kept(f->pool), 1);
}

/* What worker pid holds open: "3=TARGET 4=TARGET ..." (readlink of each
 * /proc/pid/fd entry, in order), or "" when it cannot be read. */
static void worker_fds(int pid, char *out, size_t size)
{
    out[0] = '\0';
    size_t used = 0;
    for (int fd = 0; fd < 64; fd++) {
        char path[64], target[256];
        snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n < 0)
            continue;
        target[n] = '\0';
        used += (size_t) snprintf(out + used, size - used, "%s%d=%s", used ? " " : "", fd, target);
        if (used >= size)
            return;
    }
}

/* A worker holds its IPC socket, its own pagemap and the template's
 * snapshot (read-only), at fixed numbers, and nothing else: no descriptor
 * of the host or the zygote survives into it. */
static void test_worker_holds_only_its_descriptors(void **state)
{
    struct fixture *f = *state;
    if (f == NULL)
        skip();
    assert_int_equal(wait_idle(f, 2), 2);
    lease(f);
    int pid = sandbox_proc_pid(f->leased[0]);
    char fds[1024], want[256], rest[1024];
    snprintf(want, sizeof want, "4=/proc/%d/pagemap 5=/memfd:mcp-codemode-template (deleted)", pid);
    unsigned long inode;
    int ok = 0;
    for (int i = 0; i < 100 && !ok; i++) { /* it may still be locking itself down */
        worker_fds(pid, fds, sizeof fds);
        ok = sscanf(fds, "3=socket:[%lu] %1023[^\n]", &inode, rest) == 2 && strcmp(rest, want) == 0;
        if (!ok)
            run_for(f, 10);
    }
    if (!ok)
        fail_msg("the worker holds: %s (want 3=socket:[...] %s, nothing more)", fds, want);
    sandbox_proc_release(f->leased[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_replacement_waits_for_release, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_pool_refills_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_surplus_after_cancelled_leases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_surplus_after_an_early_call_is_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_worker_holds_only_its_descriptors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
