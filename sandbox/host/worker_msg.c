/* Worker message kinds and the incremental check of a line (see worker_msg.h). */
#include "sandbox/host/worker_msg.h"

#include <string.h>

static const struct {
    const char *head;
    enum worker_msg_kind kind;
    const char *name;
} heads[] = {
    {"{\"t\":\"call\",", WORKER_MSG_CALL, "call"},
    {"{\"t\":\"log\",", WORKER_MSG_LOG, "log"},
    {"{\"t\":\"dropped\",", WORKER_MSG_DROPPED, "dropped"},
    {"{\"t\":\"done\",", WORKER_MSG_DONE, "done"},
};
#define NHEADS (sizeof heads / sizeof heads[0])

enum worker_msg_kind worker_msg_kind(const char *head, size_t len)
{
    int could_be = 0;
    for (size_t i = 0; i < NHEADS; i++) {
        size_t n = strlen(heads[i].head);
        if (len >= n && memcmp(head, heads[i].head, n) == 0)
            return heads[i].kind;
        if (len < n && memcmp(head, heads[i].head, len) == 0)
            could_be = 1;
    }
    return could_be ? WORKER_MSG_PENDING : WORKER_MSG_BAD;
}

const char *worker_msg_kind_name(enum worker_msg_kind k)
{
    for (size_t i = 0; i < NHEADS; i++)
        if (heads[i].kind == k)
            return heads[i].name;
    return "unknown";
}

/* --- the incremental check ------------------------------------------------------------ */

enum {
    S_START,     /* before the message: '{' */
    S_VALUE,     /* a value */
    S_ARR_FIRST, /* after '[': a value or ']' */
    S_OBJ_FIRST, /* after '{': a key or '}' */
    S_KEY,       /* after ',' in an object: a key */
    S_COLON,     /* after a key */
    S_AFTER,     /* after a value: ',' or the container's end */
    S_STR,
    S_ESC,
    S_HEX,
    S_UTF8,
    S_NUM,
    S_LIT,
    S_END, /* the message is complete: whitespace only */
};

enum { N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP };

#define UNSET ((size_t) -1)

void worker_msg_scan_init(struct worker_msg_scan *s)
{
    memset(s, 0, sizeof *s);
    s->state = S_START;
    s->open[0] = s->open[1] = s->open[2] = -1;
}

static int is_object(const struct worker_msg_scan *s)
{
    return (s->objects[s->depth / 8] >> (s->depth % 8)) & 1;
}

static int push(struct worker_msg_scan *s, int object)
{
    if (s->depth + 1 >= WORKER_MSG_MAX_DEPTH)
        return -1;
    s->depth++;
    unsigned char bit = (unsigned char) (1u << (s->depth % 8));
    if (object)
        s->objects[s->depth / 8] |= bit;
    else
        s->objects[s->depth / 8] &= (unsigned char) ~bit;
    if (s->depth == 2) { /* members of the top-level "outcome" are recorded too */
        s->outcome_open = object && s->open[1] >= 0 && s->open_is_outcome;
    }
    return 0;
}

/* A value begins at `at`. */
static void value_start(struct worker_msg_scan *s, size_t at)
{
    if (s->depth >= 1 && s->depth <= 2 && s->open[s->depth] >= 0) {
        struct worker_msg_member *m = &s->m[s->open[s->depth]];
        if (m->at == UNSET) {
            m->at = at;
            m->values = s->values;
        }
    }
    s->values++;
}

/* A value ended just before `end`. */
static void value_end(struct worker_msg_scan *s, size_t end)
{
    if (s->depth >= 1 && s->depth <= 2 && s->open[s->depth] >= 0) {
        struct worker_msg_member *m = &s->m[s->open[s->depth]];
        m->len = end - m->at;
        m->values = s->values - m->values;
        s->open[s->depth] = -1;
    }
    s->state = s->depth == 0 ? S_END : S_AFTER;
}

/* A key ended just before `end` (its text began at s->key_at). */
static int key_end(struct worker_msg_scan *s, const char *text, size_t end)
{
    s->state = S_COLON;
    int parent;
    if (s->depth == 1)
        parent = -1;
    else if (s->depth == 2 && s->outcome_open)
        parent = s->open[1];
    else
        return 0;
    size_t klen = end - s->key_at;
    if (parent == -1)
        s->open_is_outcome = klen == 7 && memcmp(text + s->key_at, "outcome", 7) == 0;
    for (unsigned i = 0; i < s->nm; i++) /* a duplicate would make "which one" ambiguous */
        if (s->m[i].parent == parent && s->m[i].key_len == klen &&
            memcmp(text + s->m[i].key, text + s->key_at, klen) == 0)
            return -1;
    if (s->nm == WORKER_MSG_MAX_MEMBERS)
        return -1;
    struct worker_msg_member *m = &s->m[s->nm];
    m->parent = parent;
    m->key = s->key_at;
    m->key_len = klen;
    m->at = UNSET;
    m->len = 0;
    m->values = 0;
    s->open[s->depth] = (int) s->nm++;
    return 0;
}

static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int hex_digit(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* The first byte of a UTF-8 sequence: sets what must follow, or -1. */
static int utf8_lead(struct worker_msg_scan *s, unsigned char c)
{
    s->lo = 0x80;
    s->hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        s->cont = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
        s->cont = 2;
        if (c == 0xE0)
            s->lo = 0xA0; /* no overlong forms */
        else if (c == 0xED)
            s->hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        s->cont = 3;
        if (c == 0xF0)
            s->lo = 0x90;
        else if (c == 0xF4)
            s->hi = 0x8F; /* nothing past U+10FFFF */
    } else
        return -1;
    return 0;
}

/* A value begins with c at p: enters its state. */
static int begin_value(struct worker_msg_scan *s, unsigned char c, size_t p)
{
    switch (c) {
    case '"':
        value_start(s, p);
        s->in_key = 0;
        s->state = S_STR;
        return 0;
    case '{':
    case '[':
        value_start(s, p);
        if (push(s, c == '{') < 0)
            return -1;
        s->state = c == '{' ? S_OBJ_FIRST : S_ARR_FIRST;
        return 0;
    case 't':
    case 'f':
    case 'n':
        value_start(s, p);
        s->lit = c == 't' ? "rue" : c == 'f' ? "alse" : "ull";
        s->state = S_LIT;
        return 0;
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            value_start(s, p);
            s->num_state = c == '-' ? N_MINUS : c == '0' ? N_ZERO : N_INT;
            s->state = S_NUM;
            return 0;
        }
        return -1;
    }
}

/* Closes the innermost container with c (']' or '}') at p. */
static int close_container(struct worker_msg_scan *s, unsigned char c, size_t p)
{
    if ((c == '}') != is_object(s))
        return -1;
    s->depth--;
    value_end(s, p + 1);
    return 0;
}

/* The next state of a number after c; 1 when c ends it (and is not part of it). */
static int number_step(struct worker_msg_scan *s, unsigned char c)
{
    int digit = c >= '0' && c <= '9';
    switch (s->num_state) {
    case N_MINUS:
        if (!digit)
            return -1;
        s->num_state = c == '0' ? N_ZERO : N_INT;
        return 0;
    case N_ZERO:
    case N_INT:
        if (digit && s->num_state == N_INT)
            return 0;
        if (c == '.')
            s->num_state = N_DOT;
        else if (c == 'e' || c == 'E')
            s->num_state = N_E;
        else
            return digit ? -1 : 1; /* no leading zeros */
        return 0;
    case N_DOT:
        if (!digit)
            return -1;
        s->num_state = N_FRAC;
        return 0;
    case N_FRAC:
        if (digit)
            return 0;
        if (c == 'e' || c == 'E') {
            s->num_state = N_E;
            return 0;
        }
        return 1;
    case N_E:
        if (c == '+' || c == '-') {
            s->num_state = N_ESIGN;
            return 0;
        }
        /* fall through */
    case N_ESIGN:
        if (!digit)
            return -1;
        s->num_state = N_EXP;
        return 0;
    default: /* N_EXP */
        return digit ? 0 : 1;
    }
}

int worker_msg_scan_feed(struct worker_msg_scan *s, const char *text, size_t len)
{
    if (s->error)
        return -1;
    const unsigned char *t = (const unsigned char *) text;
    size_t p = s->pos;
    for (; p < len; p++) {
        unsigned char c = t[p];
        switch (s->state) {
        case S_STR:
            /* the bulk of every message: plain bytes */
            while (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                if (++p == len)
                    goto out;
                c = t[p];
            }
            if (c == '"') {
                if (s->in_key) {
                    if (key_end(s, text, p) < 0)
                        goto bad;
                } else
                    value_end(s, p + 1);
            } else if (c == '\\')
                s->state = S_ESC;
            else if (c < 0x20 || utf8_lead(s, c) < 0)
                goto bad;
            else
                s->state = S_UTF8;
            break;
        case S_UTF8:
            if (c < s->lo || c > s->hi)
                goto bad;
            s->lo = 0x80;
            s->hi = 0xBF;
            if (--s->cont == 0)
                s->state = S_STR;
            break;
        case S_ESC:
            if (c == 'u') {
                s->hex = 4;
                s->state = S_HEX;
            } else if (strchr("\"\\/bfnrt", c) && c)
                s->state = S_STR;
            else
                goto bad;
            break;
        case S_HEX:
            if (!hex_digit(c))
                goto bad;
            if (--s->hex == 0)
                s->state = S_STR;
            break;
        case S_NUM: {
            int r = number_step(s, c);
            if (r < 0)
                goto bad;
            if (r == 0)
                break;
            value_end(s, p);
            p--; /* c is read again, after the number */
            break;
        }
        case S_LIT:
            if (c != (unsigned char) *s->lit)
                goto bad;
            if (*++s->lit == '\0')
                value_end(s, p + 1);
            break;
        default:
            if (is_ws(c))
                break;
            switch (s->state) {
            case S_START:
                if (c != '{' || begin_value(s, c, p) < 0)
                    goto bad;
                break;
            case S_VALUE:
                if (begin_value(s, c, p) < 0)
                    goto bad;
                break;
            case S_ARR_FIRST:
                if (c == ']' ? close_container(s, c, p) < 0 : begin_value(s, c, p) < 0)
                    goto bad;
                break;
            case S_OBJ_FIRST:
            case S_KEY:
                if (c == '}' && s->state == S_OBJ_FIRST) {
                    if (close_container(s, c, p) < 0)
                        goto bad;
                } else if (c == '"') {
                    s->in_key = 1;
                    s->key_at = p + 1;
                    s->state = S_STR;
                } else
                    goto bad;
                break;
            case S_COLON:
                if (c != ':')
                    goto bad;
                s->state = S_VALUE;
                break;
            case S_AFTER:
                if (c == ',')
                    s->state = is_object(s) ? S_KEY : S_VALUE;
                else if (c == ']' || c == '}') {
                    if (close_container(s, c, p) < 0)
                        goto bad;
                } else
                    goto bad;
                break;
            default: /* S_END: only whitespace may follow */
                goto bad;
            }
        }
    }
out:
    s->pos = len;
    return 0;
bad:
    s->error = 1;
    s->pos = p;
    return -1;
}

int worker_msg_scan_end(struct worker_msg_scan *s, const char *text, size_t len)
{
    if (worker_msg_scan_feed(s, text, len) < 0 || s->state != S_END) {
        s->error = 1;
        return -1;
    }
    return 0;
}

const struct worker_msg_member *worker_msg_member(const struct worker_msg_scan *s,
                                                  const char *text, int parent, const char *key)
{
    size_t n = strlen(key);
    for (unsigned i = 0; i < s->nm; i++)
        if (s->m[i].parent == parent && s->m[i].key_len == n &&
            memcmp(text + s->m[i].key, key, n) == 0 && s->m[i].at != UNSET)
            return &s->m[i];
    return NULL;
}

int worker_msg_index(const struct worker_msg_scan *s, const struct worker_msg_member *m)
{
    return (int) (m - s->m);
}
