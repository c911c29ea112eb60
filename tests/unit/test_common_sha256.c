/* Unit tests of common/sha256.c: the FIPS 180-4 / NIST example digests, the
 * padding boundaries (55, 56, 63, 64 bytes), and incremental updates in
 * pieces of every size giving the one-shot digest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/sha256.h"

#include <stdio.h>
#include <string.h>

static void expect_hex(const char *data, size_t len, const char *want)
{
    char hex[65];
    sha256_hex(data, len, hex);
    assert_string_equal(hex, want);
}

static void test_nist_examples(void **state)
{
    (void) state;
    expect_hex("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect_hex("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    expect_hex(two, strlen(two),
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_million_a(void **state)
{
    (void) state;
    struct sha256 s;
    unsigned char d[32];
    char a[1000];
    memset(a, 'a', sizeof a);
    sha256_init(&s);
    for (int i = 0; i < 1000; i++)
        sha256_update(&s, a, sizeof a);
    sha256_final(&s, d);
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_padding_boundaries(void **state)
{
    (void) state;
    char a[64];
    memset(a, 'a', sizeof a);
    expect_hex(a, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    expect_hex(a, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    expect_hex(a, 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
    expect_hex(a, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

static void test_incremental(void **state)
{
    (void) state;
    char data[300];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (char) (i * 7 + 3);
    char want[65];
    sha256_hex(data, sizeof data, want);
    for (size_t piece = 1; piece <= 130; piece++) {
        struct sha256 s;
        unsigned char d[32];
        char hex[65];
        sha256_init(&s);
        for (size_t off = 0; off < sizeof data; off += piece)
            sha256_update(&s, data + off, off + piece > sizeof data ? sizeof data - off : piece);
        sha256_final(&s, d);
        for (int i = 0; i < 32; i++)
            snprintf(hex + 2 * i, 3, "%02x", d[i]);
        assert_string_equal(hex, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nist_examples),
        cmocka_unit_test(test_million_a),
        cmocka_unit_test(test_padding_boundaries),
        cmocka_unit_test(test_incremental),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
