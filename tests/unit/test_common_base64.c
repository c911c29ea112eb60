/* Unit tests of common/base64.c's codec: RFC 4648 vectors both ways,
 * forgiving decoding (whitespace, missing padding) and what it refuses
 * (foreign characters, data after padding, a lone last digit, too much
 * padding); all 256 byte values round-trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/base64.h"

#include <string.h>

static long decode(const char *in, unsigned char *out)
{
    return base64_decode(in, strlen(in), out);
}

static void test_vectors(void **state)
{
    (void) state;
    static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const coded[] = {"",         "Zg==",     "Zm8=",    "Zm9v",
                                        "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char enc[16];
        unsigned char dec[16];
        size_t n = base64_encode((const unsigned char *) plain[i], strlen(plain[i]), enc);
        assert_int_equal(n, strlen(coded[i]));
        assert_memory_equal(enc, coded[i], n);
        long m = decode(coded[i], dec);
        assert_int_equal(m, (long) strlen(plain[i]));
        assert_memory_equal(dec, plain[i], (size_t) m);
    }
}

static void test_forgiving(void **state)
{
    (void) state;
    unsigned char out[16];
    assert_int_equal(decode("Zm9v\nYmFy", out), 6);
    assert_int_equal(decode(" Zg = = ", out), 1);
    assert_int_equal(decode("Zg", out), 1);
    assert_int_equal(decode("Zm8", out), 2);
    assert_memory_equal(out, "fo", 2);
}

static void test_refused(void **state)
{
    (void) state;
    unsigned char out[16];
    assert_int_equal(decode("Zm9v!", out), -1);
    assert_int_equal(decode("Zg==Zg==", out), -1);
    assert_int_equal(decode("Z", out), -1);
    assert_int_equal(decode("Zm9vY", out), -1);
    assert_int_equal(decode("Zg=", out), -1);
    assert_int_equal(decode("Zm9v=", out), -1);
    assert_int_equal(decode("Zg===", out), -1);
    assert_int_equal(decode("Zm9-", out), -1); /* base64url is not base64 */
}

static void test_all_bytes(void **state)
{
    (void) state;
    unsigned char in[256], back[260];
    char enc[344 + 1];
    for (int i = 0; i < 256; i++)
        in[i] = (unsigned char) i;
    size_t n = base64_encode(in, sizeof in, enc);
    assert_int_equal(n, 344);
    assert_int_equal(base64_decode(enc, n, back), 256);
    assert_memory_equal(back, in, 256);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_forgiving),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_all_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
