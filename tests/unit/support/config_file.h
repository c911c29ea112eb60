/* The config file of the config loader's unit tests: a temporary directory
 * made by config_file_setup (a cmocka group setup) and removed by
 * config_file_teardown; config_file_load writes a JSON text there and loads
 * it; config_file_rel strips the directory from a message;
 * config_file_expect_error checks the whole message of a refused file. Include after
 * <cmocka.h> and "mcp-server/config/config.h". */
#ifndef TESTS_UNIT_CONFIG_FILE_H
#define TESTS_UNIT_CONFIG_FILE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char config_file_dir[] = "/tmp/mcp-config-test-XXXXXX";
static char config_file_path[PATH_MAX];

static inline int config_file_setup(void **state)
{
    (void) state;
    if (mkdtemp(config_file_dir) == NULL)
        return -1;
    snprintf(config_file_path, sizeof config_file_path, "%s/config.json", config_file_dir);
    return 0;
}

static inline int config_file_teardown(void **state)
{
    (void) state;
    unlink(config_file_path);
    return rmdir(config_file_dir);
}

/* Writes json as the config file and loads it into c (config_init first). */
static inline int config_file_load(struct config *c, const char *json, char **err)
{
    FILE *f = fopen(config_file_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(json, 1, strlen(json), f), strlen(json));
    assert_int_equal(fclose(f), 0);
    config_init(c);
    *err = NULL;
    return config_load(c, config_file_path, err);
}

/* msg without the leading "<dir>/" (messages name the file by its path). */
static inline const char *config_file_rel(const char *msg)
{
    size_t n = strlen(config_file_dir);
    if (msg != NULL && strncmp(msg, config_file_dir, n) == 0 && msg[n] == '/')
        return msg + n + 1;
    return msg;
}

/* json is refused with exactly the message want (without the directory). */
static inline void config_file_expect_error(const char *json, const char *want)
{
    struct config c;
    char *err = NULL;
    int r = config_file_load(&c, json, &err);
    if (r != -1 || err == NULL || strcmp(config_file_rel(err), want) != 0)
        print_error("json: %s\nwant: %s\ngot:  %s\n", json, want,
                    err ? config_file_rel(err) : "(null)");
    assert_int_equal(r, -1);
    assert_string_equal(config_file_rel(err), want);
    free(err);
    config_free(&c);
}

#endif
