/* The host's descriptor limit (see fd_limit.h). */
#include "common/fd_limit.h"

#include <stddef.h>
#include <sys/resource.h>

#define UNLIMITED_CAP 1048576 /* Linux's default fs.nr_open, the most setrlimit allows */

static struct rlimit started_with;
static int raised;

unsigned long fd_limit_raise(void)
{
    struct rlimit l;
    if (getrlimit(RLIMIT_NOFILE, &l) != 0)
        return 0;
    if (!raised)
        started_with = l;
    rlim_t want = l.rlim_max == RLIM_INFINITY ? UNLIMITED_CAP : l.rlim_max;
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
