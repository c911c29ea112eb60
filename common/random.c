/* Random bytes from the kernel's CSPRNG (see random.h). */
#include "common/random.h"
#include "common/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

void random_bytes(unsigned char *b, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(b + got, n - got, 0);
        if (r > 0)
            got += (size_t) r;
        else if (r < 0 && errno != EINTR)
            break;
    }
    if (got < n) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd < 0 || read(fd, b, n) != (ssize_t) n) {
            log_error("random", "no source of random bytes for identifiers");
            abort();
        }
        close(fd);
    }
}

void random_hex(char *out, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char raw[64];
    size_t at = 0;
    while (n > 0) {
        size_t k = n < sizeof raw ? n : sizeof raw;
        random_bytes(raw, k);
        for (size_t i = 0; i < k; i++) {
            out[at++] = hex[raw[i] >> 4];
            out[at++] = hex[raw[i] & 15];
        }
        n -= k;
    }
    out[at] = '\0';
}
