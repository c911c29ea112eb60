/* UTF-8 validation and repair. Text from the JS engine (lone surrogates come
 * out of Duktape as invalid byte sequences) and from downstream servers must
 * be valid UTF-8 before it reaches a client's JSON parser. */
#ifndef COMMON_UTF8_H
#define COMMON_UTF8_H

#include <stddef.h>

struct buf;

/* Length (1-4) of the well-formed UTF-8 sequence at p, or 0 if the bytes at p
 * do not start one (overlongs, surrogates and values past U+10FFFF are
 * ill-formed). n > 0 is the number of readable bytes. */
size_t utf8_valid_prefix(const unsigned char *p, size_t n);

/* Repairs the ill-formed sequence at p (utf8_valid_prefix(p, n) == 0):
 * a CESU-8 surrogate pair (what Duktape stores for characters outside the
 * BMP) becomes the 4-byte UTF-8 of its code point; an encoded lone surrogate
 * (3 bytes) or any other bad byte (1) becomes U+FFFD. Writes the replacement
 * (1-4 bytes) into out, stores how many input bytes it stands for in
 * *consumed, and returns the replacement's length. */
size_t utf8_repair_one(const unsigned char *p, size_t n, char out[4], size_t *consumed);

/* The host's internal form of strings (json_parse in common/json.h) is
 * UTF-8 with two additions that valid UTF-8 never contains: U+0000 as the
 * two bytes C0 80 (as in Java's modified UTF-8), so that no C string is cut
 * at a NUL, and a lone surrogate as its three-byte generalised UTF-8 form
 * ED A0..BF 80..BF (WTF-8; also how Duktape stores it). JSON printers turn
 * them back into the escapes \u0000 and \ud800-\udfff. For the ill-formed sequence
 * at p, returns the code unit it stands for in that form (0, or a
 * surrogate 0xD800-0xDFFF) and stores its length in *consumed; -1 when it
 * is neither (a surrogate followed by its pair is a character: -1). */
int utf8_internal_unit(const unsigned char *p, size_t n, size_t *consumed);

/* Returns 1 when all n bytes are well-formed UTF-8. */
int utf8_is_valid(const char *s, size_t n);

/* Appends s to out with every ill-formed byte replaced by U+FFFD.
 * Returns 0, or -1 if out's limit was reached. */
int utf8_append_repaired(struct buf *out, const char *s, size_t n);

/* Turns each C0 80 of s (internal form) into a NUL byte, in place, for the
 * JS engine (which stores lone surrogates as the internal form does).
 * Returns the new length; a NUL follows the last byte when it shrank. */
size_t utf8_decode_nul(char *s, size_t n);

/* Appends s (internal form) as the bytes a terminal or file should get:
 * U+0000 as a NUL byte, a CESU-8 pair as its character, a lone surrogate
 * and other ill-formed bytes as U+FFFD. Returns 0, or -1 at out's limit. */
int utf8_append_external(struct buf *out, const char *s, size_t n);

/* The JS engine's form of text from outside: UTF-16 semantics need a
 * character outside the BMP to be two code units, which Duktape stores as a
 * CESU-8 surrogate pair (ED A0..AF xx ED B0..BF xx); from well-formed 4-byte
 * UTF-8 it would make one unit above 0xFFFF, which JavaScript cannot have.
 * utf8_astral_count is the number of well-formed 4-byte sequences in s (each
 * takes 2 bytes more as a pair), quick on ASCII; utf8_astral_to_pairs copies
 * s to out (n + 2 * that count bytes) with each of them as its pair and
 * every other byte unchanged (lone surrogates, C0 80, ill-formed bytes), and
 * returns the bytes written. */
size_t utf8_astral_count(const char *s, size_t n);
size_t utf8_astral_to_pairs(const char *s, size_t n, char *out);

/* Number of code points in a valid UTF-8 string in the internal form (C0 80
 * and a lone surrogate count one each, other ill-formed bytes one each). */
size_t utf8_length(const char *s, size_t n);

/* The length of s's first bytes, at most max, that end at a character
 * boundary (never inside a UTF-8 sequence, nor inside the two bytes of the
 * internal form of U+0000, whose second byte is a continuation byte). len
 * is s's length; len itself when it is at most max. */
size_t utf8_cut_length(const char *s, size_t len, size_t max);

#endif
