/* Unit tests of the command line (mcp-server/cli.c): the config file given
 * as -c, --config, --config=, or a plain path (which launchers such as the
 * MCP Inspector pass through untouched), for serve and the subcommands;
 * twice is an error; words that are neither a command nor a config path
 * are still refused; run --no-login; --help documents -c, --no-login and
 * every log level. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse(struct cli *c, char *err, const char *first, ...)
{
    char *argv[32] = {"mcp-codemode"};
    int argc = 1;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a != NULL && argc < 31; a = va_arg(ap, const char *))
        argv[argc++] = (char *) a;
    va_end(ap);
    err[0] = '\0';
    return cli_parse(argc, argv, c, err, 256);
}

static void test_config_flag_forms(void **state)
{
    (void) state;
    struct cli c;
    char err[256];
    assert_int_equal(parse(&c, err, "-c", "a.json", NULL), 0);
    assert_int_equal(c.cmd, CLI_SERVE);
    assert_string_equal(c.config_path, "a.json");
    assert_int_equal(parse(&c, err, "--config", "b.json", NULL), 0);
    assert_string_equal(c.config_path, "b.json");
    assert_int_equal(parse(&c, err, "--config=c.json", NULL), 0);
    assert_string_equal(c.config_path, "c.json");
    assert_int_equal(parse(&c, err, "check", "-c", "/etc/cfg", NULL), 0);
    assert_int_equal(c.cmd, CLI_CHECK);
    assert_string_equal(c.config_path, "/etc/cfg");
    assert_int_equal(parse(&c, err, "-c", NULL), -1);
    assert_string_equal(err, "option -c needs a value");
}

static void test_positional_config(void **state)
{
    (void) state;
    struct cli c;
    char err[256];
    /* serve: the first word, when it is no command but looks like a file */
    assert_int_equal(parse(&c, err, "examples/config.json", NULL), 0);
    assert_int_equal(c.cmd, CLI_SERVE);
    assert_string_equal(c.config_path, "examples/config.json");
    assert_int_equal(parse(&c, err, "codemode.json", "--pool-size", "1", NULL), 0);
    assert_string_equal(c.config_path, "codemode.json");
    assert_int_equal(c.noverrides, 1);
    assert_int_equal(parse(&c, err, "serve", "x.json", NULL), 0);
    assert_string_equal(c.config_path, "x.json");
    assert_int_equal(parse(&c, err, "--stdio", "dir/cfg", NULL), 0);
    assert_string_equal(c.config_path, "dir/cfg");
    /* subcommands */
    assert_int_equal(parse(&c, err, "check", "x.json", NULL), 0);
    assert_int_equal(c.cmd, CLI_CHECK);
    assert_string_equal(c.config_path, "x.json");
    assert_int_equal(parse(&c, err, "types", "x.json", NULL), 0);
    assert_string_equal(c.config_path, "x.json");
    assert_int_equal(parse(&c, err, "run", "prog.js", "x.json", "--json", NULL), 0);
    assert_string_equal(c.file, "prog.js");
    assert_string_equal(c.config_path, "x.json");
    assert_int_equal(parse(&c, err, "run", "-", "x.json", NULL), 0);
    assert_string_equal(c.file, "-");
    assert_string_equal(c.config_path, "x.json");
    assert_int_equal(parse(&c, err, "skills", "list", "x.json", NULL), 0);
    assert_string_equal(c.skill.action, "list");
    assert_string_equal(c.config_path, "x.json");
    assert_int_equal(parse(&c, err, "skills", "delete", "s", "x.json", NULL), 0);
    assert_string_equal(c.skill.name, "s");
    assert_string_equal(c.config_path, "x.json");
    /* lower has no config */
    assert_int_equal(parse(&c, err, "lower", "a.js", "x.json", NULL), -1);
    assert_string_equal(err, "unexpected argument \"x.json\" (see --help)");
}

static void test_twice_and_unknown(void **state)
{
    (void) state;
    struct cli c;
    char err[256];
    assert_int_equal(parse(&c, err, "a.json", "-c", "b.json", NULL), -1);
    assert_string_equal(err, "the config file is given twice (\"a.json\" and \"b.json\")");
    assert_int_equal(parse(&c, err, "check", "--config", "a.json", "b.json", NULL), -1);
    assert_string_equal(err, "the config file is given twice (\"a.json\" and \"b.json\")");
    assert_int_equal(parse(&c, err, "chek", NULL), -1);
    assert_non_null(strstr(err, "unknown command \"chek\""));
    assert_int_equal(parse(&c, err, "-x", NULL), -1);
    assert_string_equal(err, "unknown option \"-x\" (see --help)");
}

/* run --no-login (docs/oauth.md): run only; off unless given. */
static void test_no_login(void **state)
{
    (void) state;
    struct cli c;
    char err[256];
    assert_int_equal(parse(&c, err, "run", "prog.js", "x.json", NULL), 0);
    assert_int_equal(c.no_login, 0);
    assert_int_equal(parse(&c, err, "run", "prog.js", "--no-login", "x.json", NULL), 0);
    assert_int_equal(c.no_login, 1);
    assert_string_equal(c.config_path, "x.json");
    assert_int_equal(parse(&c, err, "login", "notes", "--no-login", NULL), -1);
    assert_string_equal(err, "unknown option \"--no-login\" (see --help)");
    assert_int_equal(parse(&c, err, "check", "--no-login", NULL), -1);
}

static void test_help_documents(void **state)
{
    (void) state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cli_usage(f);
    fclose(f);
    assert_non_null(strstr(text, "-c, --config FILE"));
    assert_non_null(strstr(text, "--no-login     run: never open a login page"));
    assert_non_null(strstr(text, "debug, info, notice, warning, error, critical, alert, "
                                 "emergency, off"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_flag_forms), cmocka_unit_test(test_positional_config),
        cmocka_unit_test(test_twice_and_unknown), cmocka_unit_test(test_no_login),
        cmocka_unit_test(test_help_documents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
