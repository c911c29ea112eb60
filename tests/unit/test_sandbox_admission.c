/* Unit tests for sandbox/host/admission.c: executions are admitted up to the
 * server's and the principal's limits, the others queue in FIFO order up to
 * the queue bounds and are refused beyond them (saying which bound), a
 * leaving execution admits the oldest queued one that fits (not one of a
 * principal at its own limit), a queued execution can give up, holds for a
 * person are bounded, and the defaults follow the documented rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sandbox/host/admission.h"

#include <string.h>

struct log {
    int order[64];
    int n;
};

struct slot {
    struct log *log;
    int id;
    struct sandbox_ticket *t;
};

static void admitted(void *ud)
{
    struct slot *s = ud;
    s->log->order[s->log->n++] = s->id;
}

static enum sandbox_admit enter(struct sandbox_admission *a, uint64_t principal, struct slot *s,
                                struct log *log, int id)
{
    s->log = log;
    s->id = id;
    return sandbox_admission_enter(a, principal, admitted, s, &s->t);
}

static void test_limits_queue_and_order(void **state)
{
    (void) state;
    struct sandbox_admission_limits l = {
        .max_active = 3, .max_per_principal = 2, .max_queued = 4, .max_queued_per_principal = 3};
    struct sandbox_admission *a = sandbox_admission_new(&l);
    struct log log = {{0}, 0};
    struct slot s[16];
    assert_int_equal(enter(a, 1, &s[0], &log, 0), SANDBOX_ADMIT_NOW);
    assert_int_equal(enter(a, 1, &s[1], &log, 1), SANDBOX_ADMIT_NOW);
    /* principal 1 is at its limit: queued, up to its own queue bound */
    assert_int_equal(enter(a, 1, &s[2], &log, 2), SANDBOX_ADMIT_QUEUED);
    assert_int_equal(enter(a, 1, &s[3], &log, 3), SANDBOX_ADMIT_QUEUED);
    assert_int_equal(enter(a, 1, &s[4], &log, 4), SANDBOX_ADMIT_QUEUED);
    assert_int_equal(enter(a, 1, &s[5], &log, 5), SANDBOX_ADMIT_PRINCIPAL_FULL);
    assert_null(s[5].t);
    /* another principal still gets the server's last place at once */
    assert_int_equal(enter(a, 2, &s[6], &log, 6), SANDBOX_ADMIT_NOW);
    assert_int_equal(sandbox_admission_active(a), 3);
    /* the server is full: principal 3 queues, then the server's queue is full */
    assert_int_equal(enter(a, 3, &s[7], &log, 7), SANDBOX_ADMIT_QUEUED);
    assert_int_equal(enter(a, 2, &s[8], &log, 8), SANDBOX_ADMIT_SERVER_FULL);
    assert_int_equal(sandbox_admission_queued(a), 4);
    assert_int_equal(sandbox_admission_queued_of(a, 1), 3);
    assert_int_equal(sandbox_admission_active_of(a, 1), 2);
    assert_false(sandbox_admission_admitted(s[2].t));
    /* principal 2 leaves: principal 1's queued ones do not fit (2 run), so
     * principal 3's, queued after them, goes first */
    sandbox_admission_leave(s[6].t);
    assert_int_equal(log.n, 1);
    assert_int_equal(log.order[0], 7);
    assert_true(sandbox_admission_admitted(s[7].t));
    /* one of principal 1's leaves: its oldest queued one starts */
    sandbox_admission_leave(s[0].t);
    assert_int_equal(log.n, 2);
    assert_int_equal(log.order[1], 2);
    /* a queued execution gives up: it never starts, the next one keeps its place */
    sandbox_admission_leave(s[3].t);
    sandbox_admission_leave(s[1].t);
    assert_int_equal(log.n, 3);
    assert_int_equal(log.order[2], 4);
    assert_int_equal(sandbox_admission_queued(a), 0);
    sandbox_admission_leave(s[2].t);
    sandbox_admission_leave(s[4].t);
    sandbox_admission_leave(s[7].t);
    assert_int_equal(sandbox_admission_active(a), 0);
    assert_int_equal(sandbox_admission_active_of(a, 1), 0);
    sandbox_admission_free(a);
}

/* A principal's executions start in the order they came, and another
 * principal is admitted while the first one's wait. */
static void test_principal_order_kept(void **state)
{
    (void) state;
    struct sandbox_admission_limits l = sandbox_admission_limits_for(2, 1);
    struct sandbox_admission *a = sandbox_admission_new(&l);
    struct log log = {{0}, 0};
    struct slot s[4];
    assert_int_equal(enter(a, 1, &s[0], &log, 0), SANDBOX_ADMIT_NOW);
    assert_int_equal(enter(a, 1, &s[1], &log, 1), SANDBOX_ADMIT_QUEUED);
    sandbox_admission_leave(s[0].t);
    assert_int_equal(log.n, 1);
    assert_int_equal(enter(a, 1, &s[2], &log, 2), SANDBOX_ADMIT_QUEUED);
    assert_int_equal(enter(a, 2, &s[3], &log, 3), SANDBOX_ADMIT_NOW);
    sandbox_admission_leave(s[1].t);
    assert_int_equal(log.n, 2);
    assert_int_equal(log.order[1], 2);
    sandbox_admission_leave(s[2].t);
    sandbox_admission_leave(s[3].t);
    sandbox_admission_free(a);
}

/* A callback that leaves at once (its execution failed to start) lets the
 * next one in, inside the same call. */
struct chain {
    struct sandbox_ticket *t[4];
    int runs;
};

static struct chain chain;

static void leave_at_once(void *ud)
{
    chain.runs++;
    sandbox_admission_leave(*(struct sandbox_ticket **) ud);
}

static void test_reentrant_leave(void **state)
{
    (void) state;
    struct sandbox_admission_limits l = {.max_active = 1};
    struct sandbox_admission *a = sandbox_admission_new(&l);
    memset(&chain, 0, sizeof chain);
    for (int i = 0; i < 4; i++)
        assert_int_equal(sandbox_admission_enter(a, 7, leave_at_once, &chain.t[i], &chain.t[i]),
                         i == 0 ? SANDBOX_ADMIT_NOW : SANDBOX_ADMIT_QUEUED);
    sandbox_admission_leave(chain.t[0]);
    assert_int_equal(chain.runs, 3);
    assert_int_equal(sandbox_admission_active(a), 0);
    assert_int_equal(sandbox_admission_queued(a), 0);
    sandbox_admission_free(a);
}

static void test_holds_bounded(void **state)
{
    (void) state;
    struct sandbox_admission_limits l = sandbox_admission_limits_for(4, 4);
    assert_int_equal(l.max_holding, 2);
    struct sandbox_admission *a = sandbox_admission_new(&l);
    struct log log = {{0}, 0};
    struct slot s[5];
    for (int i = 0; i < 4; i++)
        assert_int_equal(enter(a, 1, &s[i], &log, i), SANDBOX_ADMIT_NOW);
    assert_int_equal(enter(a, 1, &s[4], &log, 4), SANDBOX_ADMIT_QUEUED);
    assert_int_equal(sandbox_admission_hold(s[4].t, 1), -1); /* not admitted */
    assert_int_equal(sandbox_admission_hold(s[0].t, 1), 0);
    assert_int_equal(sandbox_admission_hold(s[0].t, 1), 0); /* nested: still one */
    assert_int_equal(sandbox_admission_hold(s[1].t, 1), 0);
    assert_int_equal(sandbox_admission_holding(a), 2);
    assert_int_equal(sandbox_admission_hold(s[2].t, 1), -1);
    assert_int_equal(sandbox_admission_hold(s[0].t, 0), 0);
    assert_int_equal(sandbox_admission_holding(a), 2);
    assert_int_equal(sandbox_admission_hold(s[0].t, 0), 0);
    assert_int_equal(sandbox_admission_holding(a), 1);
    assert_int_equal(sandbox_admission_hold(s[2].t, 1), 0);
    sandbox_admission_leave(s[2].t); /* leaving drops its hold */
    assert_int_equal(sandbox_admission_holding(a), 1);
    assert_int_equal(log.n, 1);
    sandbox_admission_free(a); /* with tickets left: freed, no callback */
}

static void test_no_limits(void **state)
{
    (void) state;
    struct sandbox_admission_limits l = sandbox_admission_limits_for(0, 0);
    struct sandbox_admission *a = sandbox_admission_new(&l);
    struct slot s[100];
    struct log log = {{0}, 0};
    for (int i = 0; i < 100; i++)
        assert_int_equal(enter(a, 1, &s[i], &log, i), SANDBOX_ADMIT_NOW);
    assert_int_equal(sandbox_admission_hold(s[0].t, 1), 0);
    for (int i = 0; i < 100; i++)
        sandbox_admission_leave(s[i].t);
    sandbox_admission_free(a);
}

static void test_defaults(void **state)
{
    (void) state;
    struct sandbox_admission_limits l = sandbox_admission_limits_for(8, 4);
    assert_int_equal(l.max_active, 8);
    assert_int_equal(l.max_per_principal, 4);
    assert_int_equal(l.max_queued, 8 * SANDBOX_QUEUE_PER_WORKER);
    assert_int_equal(l.max_queued_per_principal, 4 * SANDBOX_QUEUE_PER_CONCURRENT);
    assert_int_equal(l.max_holding, 4);
    assert_int_equal(sandbox_admission_limits_for(1, 1).max_holding, 1);
    const uint64_t mib = 1024 * 1024, worker = 80 * mib;
    /* 4 per CPU when memory is plentiful */
    assert_int_equal(sandbox_admission_default_workers(2, 16384 * mib, worker), 8);
    assert_int_equal(sandbox_admission_default_workers(64, 1ull << 40, worker), 256);
    /* half the memory bounds it: 1 GiB / 2 / 80 MiB = 6 */
    assert_int_equal(sandbox_admission_default_workers(8, 1024 * mib, worker), 6);
    /* never under 2; memory unknown: CPUs only */
    assert_int_equal(sandbox_admission_default_workers(8, 100 * mib, worker), 2);
    assert_int_equal(sandbox_admission_default_workers(3, 0, worker), 12);
    assert_int_equal(sandbox_admission_default_workers(0, 0, 0), 4);
    assert_int_equal(sandbox_admission_default_workers(100000, 0, 0), 4096);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_limits_queue_and_order),
        cmocka_unit_test(test_principal_order_kept),
        cmocka_unit_test(test_reentrant_leave),
        cmocka_unit_test(test_holds_bounded),
        cmocka_unit_test(test_no_limits),
        cmocka_unit_test(test_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
