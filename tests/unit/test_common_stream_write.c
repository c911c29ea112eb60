/* Unit tests of common/stream_write.c: a write the stream takes whole needs
 * no callback; a larger one goes partly at once and partly queued, in
 * order, with one done for the queued part; an owned block is taken over;
 * a peer that is gone is said at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/stream_write.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static uv_loop_t loop;
static uv_pipe_t pipe_w;
static int fds[2];
static size_t done_bytes;
static int done_calls, done_status;

static void on_done(void *ud, size_t queued, int status)
{
    (void) ud;
    done_calls++;
    done_bytes = queued;
    done_status = status;
}

static void open_pair(void)
{
    uv_loop_init(&loop);
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    uv_pipe_init(&loop, &pipe_w, 0);
    assert_int_equal(uv_pipe_open(&pipe_w, fds[0]), 0);
    done_calls = 0;
    done_bytes = 0;
}

static void close_pair(void)
{
    uv_close((uv_handle_t *) &pipe_w, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
}

static void test_small_write_goes_at_once(void **state)
{
    (void) state;
    open_pair();
    assert_int_equal(stream_write((uv_stream_t *) &pipe_w, "hello", 5, 0, on_done, NULL), 0);
    char got[8] = "";
    assert_int_equal(read(fds[1], got, sizeof got), 5);
    assert_memory_equal(got, "hello", 5);
    char *owned = strdup("owned"); /* taken over and freed (ASan would see a leak) */
    assert_int_equal(stream_write((uv_stream_t *) &pipe_w, owned, 5, 1, on_done, NULL), 0);
    assert_int_equal(read(fds[1], got, sizeof got), 5);
    assert_int_equal(done_calls, 0);
    close(fds[1]);
    close_pair();
}

static void test_large_write_queues_the_rest_in_order(void **state)
{
    (void) state;
    open_pair();
    size_t len = 4u << 20;
    char *data = malloc(len);
    for (size_t i = 0; i < len; i++)
        data[i] = (char) (i * 7);
    long queued = stream_write((uv_stream_t *) &pipe_w, data, len, 1, on_done, NULL);
    assert_true(queued > 0 && (size_t) queued < len); /* the socket took a part */
    long more = stream_write((uv_stream_t *) &pipe_w, "tail", 4, 0, on_done, NULL);
    assert_int_equal(more, 4); /* behind the queue: never before it */
    size_t at = 0;
    char chunk[65536];
    int ok = 1;
    while (at < len + 4) {
        uv_run(&loop, UV_RUN_NOWAIT);
        ssize_t n = recv(fds[1], chunk, sizeof chunk, MSG_DONTWAIT);
        for (ssize_t i = 0; i < n; i++, at++)
            ok &= at < len ? chunk[i] == (char) (at * 7) : chunk[i] == "tail"[at - len];
    }
    uv_run(&loop, UV_RUN_NOWAIT);
    assert_true(ok);
    assert_int_equal(done_calls, 2);
    assert_int_equal(done_bytes, 4);
    assert_int_equal(done_status, 0);
    close(fds[1]);
    close_pair();
}

static void test_peer_gone(void **state)
{
    (void) state;
    open_pair();
    close(fds[1]);
    char *owned = strdup("lost");
    long rc = stream_write((uv_stream_t *) &pipe_w, owned, 4, 1, on_done, NULL);
    assert_true(rc < 0); /* said now */
    assert_int_equal(done_calls, 0);
    close_pair();
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* as the server: a write to a peer that is gone is EPIPE */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_write_goes_at_once),
        cmocka_unit_test(test_large_write_queues_the_rest_in_order),
        cmocka_unit_test(test_peer_gone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
