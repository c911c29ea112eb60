/* Unit tests for mcp-server/zygote_cmd.c: which executable the pool starts
 * as its zygote (mcp-codemode-sandbox next to the binary when it is there
 * and executable, else the binary itself). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mcp-server/zygote_cmd.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void expect_exe(const char *exe, const char *want)
{
    char *got = zygote_cmd_exe(exe);
    assert_string_equal(got, want);
    free(got);
}

static void touch(const char *path, mode_t mode)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(chmod(path, mode), 0);
}

static void test_sandbox_image_next_to_the_binary(void **state)
{
    (void) state;
    char dir[] = "/tmp/zygote-cmd-XXXXXX", exe[256], image[256];
    assert_non_null(mkdtemp(dir));
    snprintf(exe, sizeof exe, "%s/mcp-codemode", dir);
    snprintf(image, sizeof image, "%s/mcp-codemode-sandbox", dir);
    touch(exe, 0755);
    expect_exe(exe, exe); /* no image: the binary itself */
    touch(image, 0644);
    expect_exe(exe, exe); /* not executable: ignored */
    touch(image, 0755);
    expect_exe(exe, image);
    unlink(image);
    unlink(exe);
    rmdir(dir);
}

static void test_bare_name(void **state)
{
    (void) state;
    /* no directory part: looked up in the working directory */
    expect_exe("mcp-codemode-test-no-such-binary", "mcp-codemode-test-no-such-binary");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sandbox_image_next_to_the_binary),
        cmocka_unit_test(test_bare_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
