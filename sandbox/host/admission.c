/* Admission of executions: counts per principal and in all, the FIFO queue
 * of the executions that do not fit yet, and the executions waiting for a
 * person. Principals are kept in a short list while they have executions. */
#include "sandbox/host/admission.h"
#include "common/alloc.h"

#include <stdlib.h>

struct principal {
    uint64_t id;
    unsigned active, queued;
    struct principal *next;
};

struct sandbox_ticket {
    struct sandbox_admission *a;
    struct principal *p;
    int admitted;
    unsigned holds;
    sandbox_admitted_cb *cb;
    void *ud;
    struct sandbox_ticket *prev, *next; /* in the queue while it waits, else in the admitted list */
};

struct sandbox_admission {
    struct sandbox_admission_limits l;
    struct principal *principals;
    struct sandbox_ticket *queue, *queue_tail; /* oldest first */
    struct sandbox_ticket *admitted;
    unsigned active, queued, holding;
};

static unsigned mul_cap(unsigned a, unsigned b)
{
    uint64_t n = (uint64_t) a * b;
    return n > 1000000 ? 1000000 : (unsigned) n;
}

struct sandbox_admission_limits sandbox_admission_limits_for(unsigned max_workers,
                                                             unsigned max_per_principal)
{
    struct sandbox_admission_limits l = {
        .max_active = max_workers,
        .max_per_principal = max_per_principal,
        .max_queued = mul_cap(max_workers, SANDBOX_QUEUE_PER_WORKER),
        .max_queued_per_principal = mul_cap(max_per_principal, SANDBOX_QUEUE_PER_CONCURRENT),
        .max_holding = max_workers == 0 ? 0 : (max_workers / 2 ? max_workers / 2 : 1),
    };
    return l;
}

unsigned sandbox_admission_default_workers(unsigned cpus, uint64_t memory_bytes,
                                           uint64_t worker_bytes)
{
    uint64_t n = 4 * (uint64_t) (cpus ? cpus : 1);
    if (memory_bytes && worker_bytes) {
        uint64_t by_memory = memory_bytes / 2 / worker_bytes;
        if (by_memory < n)
            n = by_memory;
    }
    if (n < 2)
        n = 2;
    return n > 4096 ? 4096 : (unsigned) n;
}

struct sandbox_admission *sandbox_admission_new(const struct sandbox_admission_limits *l)
{
    struct sandbox_admission *a = xcalloc(1, sizeof *a);
    a->l = *l;
    return a;
}

static void free_list(struct sandbox_ticket *t)
{
    while (t) {
        struct sandbox_ticket *next = t->next;
        free(t);
        t = next;
    }
}

void sandbox_admission_free(struct sandbox_admission *a)
{
    if (a == NULL)
        return;
    free_list(a->queue);
    free_list(a->admitted);
    while (a->principals) {
        struct principal *p = a->principals;
        a->principals = p->next;
        free(p);
    }
    free(a);
}

const struct sandbox_admission_limits *sandbox_admission_limits(const struct sandbox_admission *a)
{
    return &a->l;
}

static struct principal *find(const struct sandbox_admission *a, uint64_t id)
{
    for (struct principal *p = a->principals; p; p = p->next)
        if (p->id == id)
            return p;
    return NULL;
}

static struct principal *find_or_add(struct sandbox_admission *a, uint64_t id)
{
    struct principal *p = find(a, id);
    if (p == NULL) {
        p = xcalloc(1, sizeof *p);
        p->id = id;
        p->next = a->principals;
        a->principals = p;
    }
    return p;
}

static void drop_if_unused(struct sandbox_admission *a, struct principal *p)
{
    if (p->active || p->queued)
        return;
    struct principal **pp = &a->principals;
    while (*pp != p)
        pp = &(*pp)->next;
    *pp = p->next;
    free(p);
}

static int under(unsigned n, unsigned limit)
{
    return limit == 0 || n < limit;
}

/* Whether one more execution of p may hold a worker now. */
static int fits(const struct sandbox_admission *a, const struct principal *p)
{
    return under(a->active, a->l.max_active) && under(p->active, a->l.max_per_principal);
}

static void push_admitted(struct sandbox_ticket *t)
{
    struct sandbox_admission *a = t->a;
    t->admitted = 1;
    t->prev = NULL;
    t->next = a->admitted;
    if (a->admitted)
        a->admitted->prev = t;
    a->admitted = t;
    a->active++;
    t->p->active++;
}

static void unlink_queued(struct sandbox_ticket *t)
{
    struct sandbox_admission *a = t->a;
    if (t->prev)
        t->prev->next = t->next;
    else
        a->queue = t->next;
    if (t->next)
        t->next->prev = t->prev;
    else
        a->queue_tail = t->prev;
    a->queued--;
    t->p->queued--;
}

enum sandbox_admit sandbox_admission_enter(struct sandbox_admission *a, uint64_t principal,
                                           sandbox_admitted_cb *cb, void *ud,
                                           struct sandbox_ticket **out)
{
    struct principal *p = find_or_add(a, principal);
    *out = NULL;
    /* Nobody of this principal waits: the queue is kept in order per principal. */
    if (p->queued == 0 && fits(a, p)) {
        struct sandbox_ticket *t = xcalloc(1, sizeof *t);
        t->a = a;
        t->p = p;
        push_admitted(t);
        *out = t;
        return SANDBOX_ADMIT_NOW;
    }
    enum sandbox_admit refused = SANDBOX_ADMIT_NOW;
    if (!under(p->queued, a->l.max_queued_per_principal))
        refused = SANDBOX_ADMIT_PRINCIPAL_FULL;
    else if (!under(a->queued, a->l.max_queued))
        refused = SANDBOX_ADMIT_SERVER_FULL;
    if (refused != SANDBOX_ADMIT_NOW) {
        drop_if_unused(a, p);
        return refused;
    }
    struct sandbox_ticket *t = xcalloc(1, sizeof *t);
    t->a = a;
    t->p = p;
    t->cb = cb;
    t->ud = ud;
    t->prev = a->queue_tail;
    if (a->queue_tail)
        a->queue_tail->next = t;
    else
        a->queue = t;
    a->queue_tail = t;
    a->queued++;
    p->queued++;
    *out = t;
    return SANDBOX_ADMIT_QUEUED;
}

/* The oldest queued ticket that fits now, or NULL. */
static struct sandbox_ticket *next_fitting(struct sandbox_admission *a)
{
    if (!under(a->active, a->l.max_active))
        return NULL;
    for (struct sandbox_ticket *t = a->queue; t; t = t->next)
        if (fits(a, t->p))
            return t;
    return NULL;
}

void sandbox_admission_leave(struct sandbox_ticket *t)
{
    struct sandbox_admission *a = t->a;
    struct principal *p = t->p;
    if (t->admitted) {
        if (t->prev)
            t->prev->next = t->next;
        else
            a->admitted = t->next;
        if (t->next)
            t->next->prev = t->prev;
        a->active--;
        p->active--;
        if (t->holds)
            a->holding--;
    } else {
        unlink_queued(t);
    }
    free(t);
    drop_if_unused(a, p);
    /* Each admission is complete before its callback runs, which may enter
     * or leave again (a nested call admits what fits by itself). */
    struct sandbox_ticket *n;
    while ((n = next_fitting(a)) != NULL) {
        unlink_queued(n);
        push_admitted(n);
        n->cb(n->ud);
    }
}

int sandbox_admission_admitted(const struct sandbox_ticket *t)
{
    return t->admitted;
}

int sandbox_admission_hold(struct sandbox_ticket *t, int on)
{
    struct sandbox_admission *a = t->a;
    if (!t->admitted)
        return on ? -1 : 0;
    if (on) {
        if (t->holds == 0 && !under(a->holding, a->l.max_holding))
            return -1;
        if (t->holds++ == 0)
            a->holding++;
        return 0;
    }
    if (t->holds && --t->holds == 0)
        a->holding--;
    return 0;
}

unsigned sandbox_admission_active(const struct sandbox_admission *a)
{
    return a->active;
}

unsigned sandbox_admission_queued(const struct sandbox_admission *a)
{
    return a->queued;
}

unsigned sandbox_admission_holding(const struct sandbox_admission *a)
{
    return a->holding;
}

unsigned sandbox_admission_active_of(const struct sandbox_admission *a, uint64_t principal)
{
    const struct principal *p = find(a, principal);
    return p ? p->active : 0;
}

unsigned sandbox_admission_queued_of(const struct sandbox_admission *a, uint64_t principal)
{
    const struct principal *p = find(a, principal);
    return p ? p->queued : 0;
}
