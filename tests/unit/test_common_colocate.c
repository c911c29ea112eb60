/* Unit tests of common/colocate.c on real processes: a call made alone pins
 * the host, the worker and the server it goes to on one CPU; each mask is put
 * back as it was (parallel calls, a worker computing between calls, the
 * execution's end, the idle timer, before a spawn); one worker holds the slot
 * at a time; a forgotten process is never touched again; and a process
 * started while pinned (transport/child.c) gets the host's whole mask.
 * Skipped on a single-CPU mask. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/colocate.h"
#include "support/sh_line.h"
#include "support/sleeper.h"

#include <sched.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static uv_loop_t loop;
static cpu_set_t all; /* this process's mask, and so its children's */
static int worker, worker2, server;

static int setup(void **state)
{
    (void) state;
    uv_loop_init(&loop);
    sched_getaffinity(0, sizeof all, &all);
    worker = sleeper();
    worker2 = sleeper();
    server = sleeper();
    colocate_init(&loop, 1);
    return 0;
}

static int teardown(void **state)
{
    (void) state;
    loop_wait_abort();
    colocate_shutdown();
    reap(worker);
    reap(worker2);
    reap(server);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
    return 0;
}

static void skip_on_one_cpu(void)
{
    if (CPU_COUNT(&all) < 2)
        skip();
}

/* pid's mask is exactly {cpu} (cpu >= 0) or the whole original mask (-1). */
static void expect_mask(int pid, int cpu)
{
    cpu_set_t m;
    assert_int_equal(sched_getaffinity(pid, sizeof m, &m), 0);
    if (cpu < 0) {
        assert_true(CPU_EQUAL(&m, &all));
        return;
    }
    assert_int_equal(CPU_COUNT(&m), 1);
    assert_true(CPU_ISSET(cpu, &m));
}

/* No pins: the host, the worker and the server have their whole masks. */
static void expect_unpinned(void)
{
    assert_int_equal(colocate_pinned_cpu(), -1);
    expect_mask(0, -1);
    expect_mask(worker, -1);
    expect_mask(server, -1);
}

static int call_alone(int w, int srv)
{
    colocate_call_begin(w, 1, 0);
    colocate_server(srv);
    colocate_call_end();
    return colocate_pinned_cpu();
}

static void test_call_alone_pins_the_chain(void **state)
{
    (void) state;
    skip_on_one_cpu();
    int cpu = call_alone(worker, server);
    assert_true(cpu >= 0);
    expect_mask(0, cpu);
    expect_mask(worker, cpu);
    expect_mask(server, cpu);
    assert_true(colocate_is_pinned(worker) && colocate_is_pinned(server));
    assert_int_equal(call_alone(worker, server), cpu); /* renewed, same CPU */
    colocate_worker_done(worker);
    expect_unpinned();
}

static void test_parallel_calls_unpin(void **state)
{
    (void) state;
    skip_on_one_cpu();
    int cpu = call_alone(worker, server);
    assert_true(cpu >= 0);
    colocate_call_begin(worker, 0, 0); /* a second call while the first is in flight */
    colocate_server(server);
    colocate_call_end();
    expect_unpinned();
}

static void test_computing_between_calls_unpins(void **state)
{
    (void) state;
    skip_on_one_cpu();
    assert_true(call_alone(worker, server) >= 0);
    colocate_call_begin(worker, 1, COLOCATE_BUSY_US); /* at the limit: still colocated */
    colocate_call_end();
    assert_true(colocate_is_pinned(worker));
    colocate_call_begin(worker, 1, COLOCATE_BUSY_US + 1);
    colocate_server(server);
    colocate_call_end();
    expect_unpinned();
    /* a busy worker never takes the slot either */
    colocate_call_begin(worker, 1, 10 * COLOCATE_BUSY_US);
    colocate_call_end();
    assert_int_equal(colocate_pinned_cpu(), -1);
}

static void test_idle_timer_unpins(void **state)
{
    (void) state;
    skip_on_one_cpu();
    /* the idle timer counts from the loop's clock: bring it to now, so that
     * it and t0 start together (a stale clock unpins early in real time) */
    uv_update_time(&loop);
    uint64_t t0 = uv_hrtime();
    assert_true(call_alone(worker, server) >= 0);
    loop_run_for(&loop, COLOCATE_IDLE_MS / 2);
    if (uv_hrtime() - t0 < (uint64_t) COLOCATE_IDLE_MS * 1000000) /* unless the machine stalled */
        assert_true(colocate_pinned_cpu() >= 0);
    loop_run_for(&loop, 3 * COLOCATE_IDLE_MS);
    expect_unpinned();
}

static void test_one_worker_holds_the_slot(void **state)
{
    (void) state;
    skip_on_one_cpu();
    int cpu = call_alone(worker, server);
    assert_true(cpu >= 0);
    call_alone(worker2, 0);
    assert_false(colocate_is_pinned(worker2));
    expect_mask(worker2, -1);
    expect_mask(worker, cpu);
    /* once the first one has been idle, the next one takes the slot */
    loop_run_for(&loop, 2 * COLOCATE_IDLE_MS);
    cpu = call_alone(worker2, 0);
    assert_true(cpu >= 0);
    expect_mask(worker2, cpu);
    expect_mask(worker, -1);
    colocate_release();
    expect_mask(worker2, -1);
}

static void test_server_outside_a_call_is_left_alone(void **state)
{
    (void) state;
    skip_on_one_cpu();
    colocate_server(server);
    assert_false(colocate_is_pinned(server));
    call_alone(worker, 0);
    colocate_server(server); /* after colocate_call_end */
    assert_false(colocate_is_pinned(server));
    expect_mask(server, -1);
    colocate_release();
}

static void test_forgotten_process_is_not_touched(void **state)
{
    (void) state;
    skip_on_one_cpu();
    int cpu = call_alone(worker, server);
    assert_true(cpu >= 0);
    colocate_forget(server);
    assert_false(colocate_is_pinned(server));
    colocate_release();
    expect_mask(server, cpu); /* left as it was when forgotten */
    expect_mask(worker, -1);
    sched_setaffinity(server, sizeof all, &all);
    /* a forgotten worker ends the pins, and its mask is left alone */
    cpu = call_alone(worker, server);
    colocate_forget(worker);
    assert_int_equal(colocate_pinned_cpu(), -1);
    expect_mask(worker, cpu);
    expect_mask(server, -1);
    expect_mask(0, -1);
    sched_setaffinity(worker, sizeof all, &all);
}

static void test_disabled_does_nothing(void **state)
{
    (void) state;
    colocate_shutdown();
    uv_run(&loop, UV_RUN_NOWAIT); /* the timer's close */
    colocate_init(&loop, 0);
    assert_int_equal(call_alone(worker, server), -1);
    expect_unpinned();
}

/* --- a spawn while pinned --------------------------------------------------------------- */

static void test_spawn_gets_the_whole_mask(void **state)
{
    (void) state;
    skip_on_one_cpu();
    assert_true(call_alone(worker, server) >= 0);
    const char *line = sh_first_line(&loop, "grep Cpus_allowed_list /proc/self/status", NULL);
    assert_int_equal(colocate_pinned_cpu(), -1); /* released before the spawn */
    expect_mask(0, -1);
    expect_mask(worker, -1);
    char want[256];
    FILE *f = fopen("/proc/self/status", "r");
    assert_non_null(f);
    want[0] = '\0';
    while (fgets(want, sizeof want, f) && strncmp(want, "Cpus_allowed_list", 17) != 0)
        ;
    fclose(f);
    want[strcspn(want, "\n")] = '\0';
    assert_string_equal(line, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_call_alone_pins_the_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_parallel_calls_unpin, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computing_between_calls_unpins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_idle_timer_unpins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_worker_holds_the_slot, setup, teardown),
        cmocka_unit_test_setup_teardown(test_server_outside_a_call_is_left_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_forgotten_process_is_not_touched, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disabled_does_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spawn_gets_the_whole_mask, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
