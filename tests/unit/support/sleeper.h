/* Test helper (header-only, after cmocka.h): a child process that sleeps
 * until it is killed, to stand for a started process in tests of what the
 * host does to its children (CPU masks, resource limits). */
#ifndef TESTS_UNIT_SLEEPER_H
#define TESTS_UNIT_SLEEPER_H

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* Forks a child that pauses forever; returns its pid. */
static int sleeper(void)
{
    int pid = fork();
    if (pid == 0) {
        for (;;)
            pause();
    }
    assert_true(pid > 0);
    return pid;
}

/* Kills and reaps a sleeper. */
static void reap(int pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

#endif
