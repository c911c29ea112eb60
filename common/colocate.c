/* Call colocation (colocate.h): one slot, holding the CPU, the host's pin,
 * one worker's and those of the local servers its calls went to, each with
 * the mask it had before, and a timer that drops them all once the worker
 * has not renewed them for COLOCATE_IDLE_MS. */
#include "common/colocate.h"

#include <sched.h>
#include <stdint.h>

#define MAX_SERVERS 8

struct pin {
    int pid; /* 0: none; the host is pid 0 in its own slot */
    cpu_set_t saved;
};

static struct {
    int enabled;
    uv_loop_t *loop;
    uv_timer_t timer;
    int cpu; /* the CPU everything is pinned to; -1: no pins */
    struct pin host, worker;
    struct pin servers[MAX_SERVERS];
    int nservers;
    int current;      /* the colocated worker whose call is being handled (0: none) */
    uint64_t last_ms; /* loop time of the last call that renewed the pins */
} C = {.cpu = -1};

/* Pins pid (0: this process) to cpu, keeping its mask in p. */
static int pin(struct pin *p, int pid, int cpu)
{
    if (sched_getaffinity(pid, sizeof p->saved, &p->saved) != 0 || !CPU_ISSET(cpu, &p->saved))
        return -1;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(pid, sizeof one, &one);
}

static void unpin(const struct pin *p)
{
    sched_setaffinity(p->pid, sizeof p->saved, &p->saved); /* it may be gone: nothing to do */
}

void colocate_release(void)
{
    if (C.cpu < 0)
        return;
    for (int i = 0; i < C.nservers; i++)
        unpin(&C.servers[i]);
    C.nservers = 0;
    if (C.worker.pid)
        unpin(&C.worker);
    C.worker.pid = 0;
    unpin(&C.host);
    C.cpu = -1;
    C.current = 0;
    uv_timer_stop(&C.timer);
}

static void idle_check(uv_timer_t *t)
{
    uint64_t idle = uv_now(t->loop) - C.last_ms;
    if (idle >= COLOCATE_IDLE_MS)
        colocate_release();
    else
        uv_timer_start(t, idle_check, COLOCATE_IDLE_MS - idle, 0);
}

void colocate_init(uv_loop_t *loop, int enabled)
{
    cpu_set_t mask;
    C.enabled = enabled && sched_getaffinity(0, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) > 1;
    C.loop = loop;
    C.cpu = -1;
    uv_timer_init(loop, &C.timer);
    uv_unref((uv_handle_t *) &C.timer);
}

void colocate_shutdown(void)
{
    if (C.loop == NULL)
        return;
    colocate_release();
    uv_close((uv_handle_t *) &C.timer, NULL);
    C.loop = NULL;
    C.enabled = 0;
}

/* The host's pin, on the CPU it runs on now. */
static int pin_host(void)
{
    if (C.cpu >= 0)
        return 0;
    int cpu = sched_getcpu();
    if (cpu < 0 || pin(&C.host, 0, cpu) != 0)
        return -1;
    C.host.pid = 0;
    C.cpu = cpu;
    C.last_ms = uv_now(C.loop);
    uv_timer_start(&C.timer, idle_check, COLOCATE_IDLE_MS, 0);
    return 0;
}

void colocate_call_begin(int worker_pid, int alone, uint64_t computed_us)
{
    C.current = 0;
    if (!C.enabled || worker_pid <= 0)
        return;
    if (!alone || computed_us > COLOCATE_BUSY_US) {
        /* parallel calls use every CPU; a program that computes between
         * calls would hold the host's CPU */
        if (C.worker.pid == worker_pid)
            colocate_release();
        return;
    }
    if (C.worker.pid && C.worker.pid != worker_pid) {
        if (uv_now(C.loop) - C.last_ms < COLOCATE_IDLE_MS)
            return; /* another worker holds the slot */
        colocate_release();
    }
    if (pin_host() != 0)
        return;
    if (C.worker.pid == 0) {
        if (pin(&C.worker, worker_pid, C.cpu) != 0)
            return; /* the host's pin goes with the timer */
        C.worker.pid = worker_pid;
    }
    C.current = worker_pid;
    C.last_ms = uv_now(C.loop);
}

void colocate_call_end(void)
{
    C.current = 0;
}

void colocate_server(int pid)
{
    if (C.current == 0 || pid <= 0 || C.nservers == MAX_SERVERS)
        return;
    for (int i = 0; i < C.nservers; i++)
        if (C.servers[i].pid == pid)
            return;
    struct pin *p = &C.servers[C.nservers];
    if (pin(p, pid, C.cpu) != 0)
        return;
    p->pid = pid;
    C.nservers++;
}

void colocate_worker_done(int worker_pid)
{
    if (worker_pid > 0 && C.worker.pid == worker_pid)
        colocate_release();
}

void colocate_forget(int pid)
{
    if (pid <= 0 || C.cpu < 0)
        return;
    if (C.worker.pid == pid) {
        C.worker.pid = 0; /* gone: nothing to put back */
        colocate_release();
        return;
    }
    for (int i = 0; i < C.nservers; i++)
        if (C.servers[i].pid == pid) {
            C.servers[i] = C.servers[--C.nservers];
            return;
        }
}

int colocate_pinned_cpu(void)
{
    return C.cpu;
}

int colocate_is_pinned(int pid)
{
    if (C.cpu < 0 || pid < 0)
        return 0;
    if (pid == 0 || pid == C.worker.pid)
        return 1;
    for (int i = 0; i < C.nservers; i++)
        if (C.servers[i].pid == pid)
            return 1;
    return 0;
}
