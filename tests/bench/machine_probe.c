/* What this machine charges for the kernel work a process per execution
 * pays, measured in the benchmark's own run so that its ratios can be read:
 * the same build answers 10x slower on a host where page tables are
 * shadowed by the hypervisor (a PVM guest) than under hardware
 * virtualisation, while its in-process JavaScript runs at the same speed.
 * Prints one line of JSON, medians over ROUNDS rounds:
 *   syscallUs       one getppid() system call
 *   forkExitUs      fork + _exit + waitpid of a process holding 2 MiB of
 *                   touched anonymous memory (the floor of a worker's life)
 *   firstReadUs     the child's first read of a page the parent had touched,
 *                   per page (mapped by fork, never touched in the child)
 *   firstWriteUs    the child's first write of such a page (copy-on-write)
 *   freshPageUs     the first write of a page new to the child (zero-fill)
 *   pingSameCpuUs   a round trip over two pipes between two processes on
 *                   one CPU (two switches, no CPU wakes up)
 *   pingTwoCpusUs   the same with each process on its own CPU: each message
 *                   wakes the other CPU, which a virtual machine may have
 *                   halted (what a tool call pays per hand-off unless call
 *                   colocation keeps the processes on one CPU); -1 with a
 *                   single CPU
 * Usage: machine_probe [ROUNDS]   (default 5; ~1-5 s) */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096L
#define PARENT_PAGES 512 /* 2 MiB: 256 pages for the floor, 256 for touches */
#define FLOOR_PAGES 256
#define TOUCHES 200
#define FORKS 40
#define MAX_ROUNDS 51

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t) n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum touch { NONE, READ, WRITE, FRESH };

/* Microseconds per fork + child work + _exit + waitpid, over FORKS forks. */
static double fork_loop(volatile char *mem, enum touch what)
{
    double t0 = now_us();
    for (int i = 0; i < FORKS; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("machine_probe: fork");
            exit(1);
        }
        if (pid == 0) {
            volatile char sink = 0;
            if (what == READ)
                for (int k = 0; k < TOUCHES; k++)
                    sink += mem[(FLOOR_PAGES + k) * PAGE];
            else if (what == WRITE)
                for (int k = 0; k < TOUCHES; k++)
                    mem[(FLOOR_PAGES + k) * PAGE] = 2;
            else if (what == FRESH) {
                char *fresh = mmap(NULL, TOUCHES * PAGE, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (fresh == MAP_FAILED)
                    _exit(1);
                for (int k = 0; k < TOUCHES; k++)
                    fresh[k * PAGE] = 1;
            }
            (void) sink;
            _exit(0);
        }
        int status;
        if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "machine_probe: child failed\n");
            exit(1);
        }
    }
    return (now_us() - t0) / FORKS;
}

static double syscall_us(void)
{
    enum { N = 20000 };
    double t0 = now_us();
    for (int i = 0; i < N; i++)
        syscall(SYS_getppid);
    return (now_us() - t0) / N;
}

static void pin_to(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
}

/* The n-th CPU this process may use, or -1. */
static int allowed_cpu(const cpu_set_t *all, int n)
{
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, all) && n-- == 0)
            return c;
    return -1;
}

/* Round trip of one byte between this process on cpu_a and a child on
 * cpu_b, over two pipes, in us; the child sleeps in read() between them. */
static double ping_us(int cpu_a, int cpu_b)
{
    enum { N = 4000 };
    int to[2], back[2];
    if (pipe(to) || pipe(back))
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(to[1]);
        close(back[0]);
        pin_to(cpu_b);
        char c;
        while (read(to[0], &c, 1) == 1 && write(back[1], &c, 1) == 1)
            ;
        _exit(0);
    }
    close(to[0]);
    close(back[1]);
    pin_to(cpu_a);
    char c = 'x';
    for (int i = 0; i < 200; i++) /* both settled on their CPUs */
        if (write(to[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
            break;
    double t0 = now_us();
    for (int i = 0; i < N; i++)
        if (write(to[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
            break;
    double us = (now_us() - t0) / N;
    close(to[1]); /* the child reads EOF and exits */
    waitpid(pid, NULL, 0);
    close(back[0]);
    return us;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: machine_probe [ROUNDS 1-%d]\n", MAX_ROUNDS);
        return 2;
    }
    char *mem = mmap(NULL, PARENT_PAGES * PAGE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        perror("machine_probe: mmap");
        return 1;
    }
    memset(mem, 1, PARENT_PAGES * PAGE);
    double sys[MAX_ROUNDS], bare[MAX_ROUNDS], rd[MAX_ROUNDS], wr[MAX_ROUNDS], fresh[MAX_ROUNDS];
    double same[MAX_ROUNDS], two[MAX_ROUNDS];
    cpu_set_t all;
    CPU_ZERO(&all);
    sched_getaffinity(0, sizeof all, &all);
    int cpu0 = allowed_cpu(&all, 0), cpu1 = allowed_cpu(&all, 1);
    for (int r = 0; r < rounds; r++) {
        same[r] = ping_us(cpu0, cpu0);
        two[r] = cpu1 >= 0 ? ping_us(cpu0, cpu1) : -1;
        sched_setaffinity(0, sizeof all, &all);
        sys[r] = syscall_us();
        double base = bare[r] = fork_loop(mem, NONE);
        rd[r] = (fork_loop(mem, READ) - base) / TOUCHES;
        wr[r] = (fork_loop(mem, WRITE) - base) / TOUCHES;
        fresh[r] = (fork_loop(mem, FRESH) - base) / TOUCHES;
    }
    printf("{\"syscallUs\":%.2f,\"forkExitUs\":%.1f,\"firstReadUs\":%.2f,\"firstWriteUs\":%.2f,"
           "\"freshPageUs\":%.2f,\"pingSameCpuUs\":%.2f,\"pingTwoCpusUs\":%.2f,\"rounds\":%d}\n",
           median(sys, rounds), median(bare, rounds), median(rd, rounds), median(wr, rounds),
           median(fresh, rounds), median(same, rounds), median(two, rounds), rounds);
    return 0;
}
