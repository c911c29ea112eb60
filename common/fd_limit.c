/* The host's descriptor limit (see fd_limit.h). */
#include "common/fd_limit.h"

#include <stddef.h>
#include <stdio.h>
#include <sys/resource.h>

#define UNLIMITED_CAP 1048576 /* Linux's default fs.nr_open */

static struct rlimit started_with;
static int raised;

/* The most setrlimit allows when the hard limit is unlimited: fs.nr_open. */
static rlim_t nr_open(void)
{
    FILE *f = fopen("/proc/sys/fs/nr_open", "r");
    unsigned long n = 0;
    if (f) {
        if (fscanf(f, "%lu", &n) != 1)
            n = 0;
        fclose(f);
    }
    return n ? (rlim_t) n : UNLIMITED_CAP;
}

unsigned long fd_limit_raise(void)
{
    struct rlimit l;
    if (getrlimit(RLIMIT_NOFILE, &l) != 0)
        return 0;
    if (!raised)
        started_with = l;
    rlim_t want = l.rlim_max == RLIM_INFINITY ? nr_open() : l.rlim_max;
    if (l.rlim_cur != RLIM_INFINITY && l.rlim_cur < want) {
        struct rlimit up = {want, l.rlim_max};
        if (setrlimit(RLIMIT_NOFILE, &up) == 0) {
            raised = 1;
            l.rlim_cur = want;
        }
    }
    return (unsigned long) l.rlim_cur;
}

void fd_limit_give_back(int pid)
{
    if (raised && pid > 0)
        prlimit(pid, RLIMIT_NOFILE, &started_with, NULL);
}
