/* Writing to a libuv stream without a request when it can take the bytes
 * at once: uv_try_write first (no copy, no uv_write_t, no completion
 * callback, and no epoll_ctl for libuv to stop watching for POLLOUT
 * afterwards), and only what it did not take is queued with uv_write.
 * uv_try_write refuses while earlier writes are queued, so the order holds.
 * Used for the host's writes to workers, the zygote, stdio servers and
 * HTTP clients. */
#ifndef COMMON_STREAM_WRITE_H
#define COMMON_STREAM_WRITE_H

#include <stddef.h>
#include <uv.h>

/* Told once the queued part of a write is written (status 0) or failed
 * (a negative libuv error, UV_ECANCELED when the stream closed). queued is
 * how many bytes were queued. */
typedef void stream_write_done(void *ud, size_t queued, int status);

/* Writes len bytes of data to s. With own, data is a malloc'd block the
 * call takes over (freed once written or failed; never copied); without,
 * the part that is queued is copied. Returns the bytes queued (0: all went
 * at once), after which done(ud, ...) runs exactly once (done may be NULL);
 * or a negative libuv error when s refused at once (the peer is gone):
 * nothing queued, done not called, an owned block freed. */
long stream_write(uv_stream_t *s, char *data, size_t len, int own, stream_write_done *done,
                  void *ud);

#endif
