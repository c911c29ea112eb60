/* The terminal prompt (see prompt.h): a FIFO of questions, the head one
 * written to /dev/tty and answered by the next line typed; anything but y,
 * n or a (any case, leading spaces ignored) asks again. */
#include "mcp-server/prompt.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct question {
    char *text;
    mcp_prompt_cb *cb;
    void *ud;
    struct question *next;
};

struct mcp_prompt {
    uv_tty_t tty;
    int fd;
    int reading, closing;
    int own_fd; /* fd is not the descriptor libuv closes */
    struct question *head, *tail;
    struct buf line;
    char chunk[256];
};

static void say(struct mcp_prompt *p, const char *text)
{
    size_t n = strlen(text);
    while (n > 0) {
        ssize_t w = write(p->fd, text, n);
        if (w <= 0)
            return;
        text += w;
        n -= (size_t) w;
    }
}

static void on_alloc(uv_handle_t *h, size_t size, uv_buf_t *b)
{
    struct mcp_prompt *p = h->data;
    (void) size;
    *b = uv_buf_init(p->chunk, sizeof p->chunk);
}

static void stop_reading(struct mcp_prompt *p)
{
    if (p->reading)
        uv_read_stop((uv_stream_t *) &p->tty);
    p->reading = 0;
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b);

/* Writes the head question and reads its answer; stops reading when none. */
static void next(struct mcp_prompt *p)
{
    buf_reset(&p->line);
    if (p->head == NULL || p->closing) {
        stop_reading(p);
        return;
    }
    say(p, p->head->text);
    say(p, " [y]es / [n]o / [a]ll: ");
    if (!p->reading && uv_read_start((uv_stream_t *) &p->tty, on_alloc, on_read) == 0)
        p->reading = 1;
}

/* Pops the head question and answers it. */
static void answer(struct mcp_prompt *p, int a)
{
    struct question *q = p->head;
    p->head = q->next;
    if (p->head == NULL)
        p->tail = NULL;
    mcp_prompt_cb *cb = q->cb;
    void *ud = q->ud;
    free(q->text);
    free(q);
    cb(ud, a);
}

static int parse(const char *line)
{
    while (isspace((unsigned char) *line))
        line++;
    int c = tolower((unsigned char) *line);
    return c == 'y' || c == 'n' || c == 'a' ? c : -1;
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    struct mcp_prompt *p = s->data;
    if (n < 0) { /* the terminal is gone: nobody answers any more */
        stop_reading(p);
        while (p->head)
            answer(p, 0);
        return;
    }
    for (ssize_t i = 0; i < n && p->head; i++) {
        if (b->base[i] != '\n') {
            buf_append_char(&p->line, b->base[i]);
            continue;
        }
        int a = parse(p->line.data ? p->line.data : "");
        buf_reset(&p->line);
        if (a < 0) {
            say(p, "please answer y, n or a: ");
            continue;
        }
        answer(p, a);
        next(p);
    }
}

struct mcp_prompt *mcp_prompt_open(uv_loop_t *loop)
{
    int fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return NULL;
    struct mcp_prompt *p = xcalloc(1, sizeof *p);
    p->fd = fd;
    buf_init(&p->line, 4096);
    if (uv_tty_init(loop, &p->tty, fd, 1) != 0) {
        close(fd);
        buf_free(&p->line);
        free(p);
        return NULL;
    }
    p->tty.data = p;
    uv_os_fd_t used;
    p->own_fd = uv_fileno((uv_handle_t *) &p->tty, &used) == 0 && used != fd;
    return p;
}

static void closed(uv_handle_t *h)
{
    struct mcp_prompt *p = h->data;
    if (p->own_fd) /* libuv reopened the terminal and closed only its own descriptor */
        close(p->fd);
    buf_free(&p->line);
    free(p);
}

void mcp_prompt_close(struct mcp_prompt *p)
{
    if (p == NULL || p->closing)
        return;
    p->closing = 1;
    stop_reading(p);
    while (p->head)
        answer(p, 0);
    uv_close((uv_handle_t *) &p->tty, closed); /* libuv closes the fd */
}

void *mcp_prompt_ask(struct mcp_prompt *p, const char *question, mcp_prompt_cb *cb, void *ud)
{
    struct question *q = xcalloc(1, sizeof *q);
    q->text = xstrdup(question);
    q->cb = cb;
    q->ud = ud;
    if (p->tail)
        p->tail->next = q;
    else
        p->head = q;
    p->tail = q;
    if (p->head == q)
        next(p);
    return q;
}

void mcp_prompt_cancel(struct mcp_prompt *p, void *handle)
{
    struct question **pp = &p->head, *prev = NULL;
    while (*pp && *pp != handle) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp == NULL)
        return;
    struct question *q = *pp;
    int was_head = q == p->head;
    *pp = q->next;
    if (p->tail == q)
        p->tail = prev;
    free(q->text);
    free(q);
    if (was_head) {
        say(p, "\n(no longer needed)\n");
        next(p);
    }
}
