/* The ordered queue of JSON lines whose big ones are parsed off the loop (see json_lines.h). */
#include "common/json_lines.h"

#include "common/alloc.h"
#include "common/json.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

struct item {
    struct item *next;
    char *text;
    size_t len;
    int parse, tag;
    cJSON *tree;
};

/* A parse on the thread pool; q is NULL once the queue was freed. */
struct job {
    uv_work_t work;
    uv_loop_t *loop;
    struct json_lines *q;
    struct item *it;
    struct job *next; /* waiting for the slot */
};

/* Big parses run one at a time, whichever queue they are for: a big tree
 * costs ~40 bytes a byte, and at most two live at once (one being handed
 * on, the next being parsed), however many workers and servers send big
 * lines together. The host runs one loop; so does every test. */
static struct {
    int busy;
    struct job *head, *tail;
} slot;

struct json_lines {
    uv_loop_t *loop;
    size_t big;
    json_lines_cb *cb;
    void *ud;
    struct item *head, *tail;
    size_t waiting;
    struct job *job;
    int delivering, dead;
};

struct json_lines *json_lines_new(uv_loop_t *loop, size_t off_loop_bytes, json_lines_cb *cb,
                                  void *ud)
{
    struct json_lines *q = xcalloc(1, sizeof *q);
    q->loop = loop;
    q->big = off_loop_bytes ? off_loop_bytes : JSON_LINES_OFF_LOOP_BYTES;
    q->cb = cb;
    q->ud = ud;
    return q;
}

static void item_free(struct item *it)
{
    cJSON_Delete(it->tree);
    free(it->text);
    free(it);
}

static void drop_waiting(struct json_lines *q)
{
    while (q->head) {
        struct item *it = q->head;
        q->head = it->next;
        item_free(it);
    }
    q->tail = NULL;
    q->waiting = 0;
}

/* The callback, guarded: 1 when the queue is still there afterwards. */
static int deliver(struct json_lines *q, char *text, size_t len, cJSON *tree, int tag)
{
    q->delivering++;
    q->cb(q->ud, text, len, tree, tag);
    q->delivering--;
    if (q->dead && q->delivering == 0) {
        drop_waiting(q);
        if (q->job)
            q->job->q = NULL; /* its end frees what it holds */
        free(q);
        return 0;
    }
    return !q->dead;
}

static void parse_on_thread(uv_work_t *w)
{
    struct job *j = w->data;
    j->it->tree = json_parse(j->it->text, j->it->len);
}

static void parsed(uv_work_t *w, int status);

/* Starts the next waiting parse when the slot is free. */
static void run_slot(void)
{
    while (!slot.busy && slot.head) {
        struct job *j = slot.head;
        slot.head = j->next;
        if (slot.head == NULL)
            slot.tail = NULL;
        if (j->q == NULL) { /* its queue was freed while it waited */
            item_free(j->it);
            free(j);
            continue;
        }
        slot.busy = 1;
        if (uv_queue_work(j->loop, &j->work, parse_on_thread, parsed) != 0) {
            parse_on_thread(&j->work); /* no thread pool: here */
            parsed(&j->work, 0);
        }
    }
}

static void start_parse(struct json_lines *q, struct item *it)
{
    struct job *j = xcalloc(1, sizeof *j);
    j->loop = q->loop;
    j->q = q;
    j->it = it;
    j->work.data = j;
    q->job = j;
    if (slot.tail)
        slot.tail->next = j;
    else
        slot.head = j;
    slot.tail = j;
    run_slot();
}

static void pump(struct json_lines *q);

static void parsed(uv_work_t *w, int status)
{
    (void) status;
    struct job *j = w->data;
    struct json_lines *q = j->q;
    struct item *it = j->it;
    free(j);
    slot.busy = 0;
    run_slot(); /* the next big line is parsed while this one is handed on */
    if (q == NULL) {
        item_free(it);
        return;
    }
    q->job = NULL;
    cJSON *tree = it->tree;
    it->tree = NULL;
    int alive = deliver(q, it->text, it->len, tree, it->tag);
    item_free(it);
    if (alive)
        pump(q);
}

/* Delivers what waits, in order, until a big line has to be parsed first. */
static void pump(struct json_lines *q)
{
    while (q->head && q->job == NULL && q->delivering == 0 && !q->dead) {
        struct item *it = q->head;
        q->head = it->next;
        if (q->head == NULL)
            q->tail = NULL;
        q->waiting--;
        it->next = NULL;
        if (it->parse && it->len >= q->big) {
            start_parse(q, it);
            return;
        }
        cJSON *tree = it->parse ? json_parse(it->text, it->len) : NULL;
        int alive = deliver(q, it->text, it->len, tree, it->tag);
        item_free(it);
        if (!alive)
            return;
    }
}

void json_lines_push(struct json_lines *q, const char *text, size_t len, int parse, int tag)
{
    if (q->dead)
        return;
    if (q->head == NULL && q->job == NULL && q->delivering == 0 && (!parse || len < q->big)) {
        /* the text is the caller's; the callback is told not to keep it */
        if (deliver(q, (char *) text, len, parse ? json_parse(text, len) : NULL, tag))
            pump(q); /* lines pushed while the callback ran */
        return;
    }
    struct item *it = xcalloc(1, sizeof *it);
    it->text = xstrndup(text, len);
    it->len = len;
    it->parse = parse;
    it->tag = tag;
    if (q->tail)
        q->tail->next = it;
    else
        q->head = it;
    q->tail = it;
    q->waiting++;
    pump(q);
}

size_t json_lines_waiting(const struct json_lines *q)
{
    return q->waiting + (q->job != NULL);
}

void json_lines_free(struct json_lines *q)
{
    if (q == NULL || q->dead)
        return;
    q->dead = 1;
    if (q->delivering)
        return; /* deliver() finishes it */
    drop_waiting(q);
    if (q->job)
        q->job->q = NULL;
    free(q);
}

/* --- releasing big trees ---------------------------------------------------------------------- */

struct release {
    uv_work_t work;
    cJSON *tree;
};

static void release_on_thread(uv_work_t *w)
{
    struct release *r = w->data;
    cJSON_Delete(r->tree);
    r->tree = NULL;
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

static void released(uv_work_t *w, int status)
{
    (void) status;
    free(w->data);
}

void json_release_off_loop(uv_loop_t *loop, cJSON *tree)
{
    struct release *r = xcalloc(1, sizeof *r);
    r->tree = tree;
    r->work.data = r;
    if (uv_queue_work(loop, &r->work, release_on_thread, released) != 0) {
        release_on_thread(&r->work); /* no thread pool: here */
        free(r);
    }
}
