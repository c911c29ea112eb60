/* Unit tests for sandbox/host/image.c: which executable the pool starts
 * as its zygote (mcp-codemode-sandbox next to the binary when it is there,
 * executable and from the same build, else the binary itself). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sandbox/host/image.h"
#include "sandbox/ipc.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void expect_exe(const char *exe, const char *want)
{
    char *got = sandbox_image_path(exe);
    assert_string_equal(got, want);
    free(got);
}

/* Creates path with mode; with tag, its contents hold the build tag between
 * other bytes, as an executable of this build does. */
static void make_file(const char *path, mode_t mode, const char *tag)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
    assert_true(fd >= 0);
    const char pad[] = "\x7f" "ELF padding before and after";
    assert_int_equal(write(fd, pad, sizeof pad), (ssize_t) sizeof pad);
    if (tag)
        assert_int_equal(write(fd, tag, strlen(tag) + 1), (ssize_t) strlen(tag) + 1);
    assert_int_equal(write(fd, pad, sizeof pad), (ssize_t) sizeof pad);
    close(fd);
    assert_int_equal(chmod(path, mode), 0);
}

static void touch(const char *path, mode_t mode)
{
    make_file(path, mode, sandbox_build_tag);
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

static void test_image_of_another_build_is_ignored(void **state)
{
    (void) state;
    char dir[] = "/tmp/zygote-cmd-XXXXXX", exe[256], image[256];
    assert_non_null(mkdtemp(dir));
    snprintf(exe, sizeof exe, "%s/mcp-codemode", dir);
    snprintf(image, sizeof image, "%s/mcp-codemode-sandbox", dir);
    touch(exe, 0755);
    make_file(image, 0755, NULL); /* no tag at all */
    expect_exe(exe, exe);
    make_file(image, 0755, "mcp-codemode build 0.0.1 Jan  1 2020 00:00:00"); /* an older one */
    expect_exe(exe, exe);
    char longer[256]; /* ours as a prefix of another tag does not count */
    snprintf(longer, sizeof longer, "%s.5", sandbox_build_tag);
    make_file(image, 0755, longer);
    expect_exe(exe, exe);
    make_file(image, 0755, sandbox_build_tag);
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
        cmocka_unit_test(test_image_of_another_build_is_ignored),
        cmocka_unit_test(test_bare_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
