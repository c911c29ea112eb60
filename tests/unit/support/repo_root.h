/* Test helper (header-only): moves to the repository root, found from the
 * test binary's own path (build/tests/NAME), so that a test reads its
 * fixtures by their paths in the tree from whatever directory it is run. */
#ifndef TESTS_UNIT_REPO_ROOT_H
#define TESTS_UNIT_REPO_ROOT_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Changes to the nearest directory above the binary (at most 4 up) where
 * marker, a path in the tree, is readable; exits naming test when there is
 * none. */
static void repo_root_enter(const char *marker, const char *test)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    for (int up = 0; n > 0 && access(marker, R_OK) != 0 && up < 4; up++) {
        path[n] = '\0';
        char *slash = strrchr(path, '/');
        if (slash == NULL)
            break;
        *slash = '\0';
        n = (ssize_t) strlen(path);
        if (chdir(path) != 0)
            break;
    }
    if (access(marker, R_OK) != 0) {
        fprintf(stderr, "%s: run from the repository root\n", test);
        exit(1);
    }
}

#endif
