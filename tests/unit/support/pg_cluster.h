/* Test helper (header-only, after cmocka.h): a throwaway PostgreSQL cluster
 * for one test file (tests/lib/pg_cluster.sh), started by the group setup on
 * a free port and stopped and removed by its teardown. Without initdb
 * have_pg stays 0 and the tests that need the cluster skip. */
#ifndef TESTS_UNIT_PG_CLUSTER_H
#define TESTS_UNIT_PG_CLUSTER_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char pg_dir[64]; /* the cluster's directory */
static int have_pg;

/* Runs cmd through sh; its output (up to size - 1 bytes) in out when out
 * is not NULL. Returns pclose's status (0: success). */
static int pg_sh(const char *cmd, char *out, size_t size)
{
    FILE *f = popen(cmd, "r");
    if (f == NULL)
        return -1;
    size_t n = out ? fread(out, 1, size - 1, f) : 0;
    if (out)
        out[n] = '\0';
    return pclose(f);
}

/* Starts a cluster in /tmp/NAME-PID and writes to url the URL of its
 * database db ("" for none). Returns 0 (have_pg set; still 0 when initdb is
 * missing), or -1 when the cluster did not start. */
static int pg_cluster_start(const char *name, const char *db, char *url, size_t n)
{
    if (pg_sh("sh tests/lib/pg_cluster.sh available 2>/dev/null", NULL, 0) != 0)
        return 0;
    snprintf(pg_dir, sizeof pg_dir, "/tmp/%s-%ld", name, (long) getpid());
    char cmd[256], port[32];
    snprintf(cmd, sizeof cmd, "sh tests/lib/pg_cluster.sh start %s", pg_dir);
    if (pg_sh(cmd, port, sizeof port) != 0)
        return -1;
    snprintf(url, n, "postgresql://postgres@127.0.0.1:%d/%s", atoi(port), db);
    have_pg = 1;
    return 0;
}

/* Stops the cluster (when one started) and removes its directory. */
static void pg_cluster_stop(void)
{
    if (!have_pg)
        return;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "sh tests/lib/pg_cluster.sh stop %s; rm -rf %s", pg_dir, pg_dir);
    pg_sh(cmd, NULL, 0);
}

#endif
