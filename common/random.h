/* Random bytes from the kernel's CSPRNG (getrandom, else /dev/urandom), for
 * identifiers that must not be guessable: session ids, stash URIs. */
#ifndef COMMON_RANDOM_H
#define COMMON_RANDOM_H

#include <stddef.h>

/* Fills b with n random bytes; logs and aborts when the system has no
 * source of random bytes (an id that could be guessed is worse). */
void random_bytes(unsigned char *b, size_t n);

/* Fills out with 2*n lower-case hex digits of n random bytes and a NUL
 * (out holds 2*n+1 bytes). */
void random_hex(char *out, size_t n);

#endif
