/* A worker's messages as the host sees them before it parses anything: the
 * kind, from the line's head, and a check, fed with the bytes as they
 * arrive, that the line is one JSON object (strict RFC 8259 grammar, UTF-8
 * strings, nesting capped), recording where each top-level member and each
 * member of "outcome" is. Nothing is allocated: a line costs the host its
 * bytes, however it is nested, and a big one is checked a read at a time,
 * never in one go. Everything a worker sends is hostile input. */
#ifndef SANDBOX_WORKER_MSG_H
#define SANDBOX_WORKER_MSG_H

#include <stddef.h>

enum worker_msg_kind {
    WORKER_MSG_PENDING, /* the head seen so far could still be any kind */
    WORKER_MSG_CALL,    /* {"t":"call",... a host call */
    WORKER_MSG_LOG,     /* {"t":"log",... a console line */
    WORKER_MSG_DROPPED, /* {"t":"dropped",... console lines the worker dropped */
    WORKER_MSG_DONE,    /* {"t":"done",... the outcome */
    WORKER_MSG_BAD,     /* none of them */
};

/* The kind of the line whose first len bytes are head: a worker writes
 * {"t":"KIND", first, exactly so (anything else is BAD). PENDING while
 * head is a proper prefix of one of those heads. */
enum worker_msg_kind worker_msg_kind(const char *head, size_t len);

/* The kind's name for messages ("call", "log", "dropped", "done", "unknown"). */
const char *worker_msg_kind_name(enum worker_msg_kind k);

#define WORKER_MSG_MAX_DEPTH   512 /* nesting of arrays and objects */
#define WORKER_MSG_MAX_MEMBERS 24  /* top-level members and members of "outcome" */

struct worker_msg_member {
    int parent;          /* -1: a top-level member; else the index of "outcome" */
    size_t key, key_len; /* the key's raw text (no quotes) in the line */
    size_t at, len;      /* the value's text in the line (len 0 until it ends) */
    size_t values;       /* JSON values in it, itself included */
};

struct worker_msg_scan {
    size_t pos;      /* bytes of the line read so far */
    int state, error;
    int in_key;      /* the string being read is a key */
    int num_state;   /* inside a number: which part */
    const char *lit; /* inside true/false/null: the rest to match */
    unsigned hex;    /* \u escape digits still to come */
    unsigned cont;   /* UTF-8 continuation bytes still to come */
    unsigned char lo, hi; /* range of the next continuation byte */
    unsigned depth;
    unsigned char objects[WORKER_MSG_MAX_DEPTH / 8 + 1]; /* bit set: that level is an object */
    size_t values;                                       /* values started so far */
    size_t key_at;                                       /* where the current key began */
    int open[3];      /* per level 1 and 2: the member whose value is being read (-1) */
    int open_is_outcome; /* the member open at level 1 is "outcome" */
    int outcome_open;    /* level 2 is the object of the top-level "outcome" */
    struct worker_msg_member m[WORKER_MSG_MAX_MEMBERS];
    unsigned nm;
};

void worker_msg_scan_init(struct worker_msg_scan *s);

/* Reads text[s->pos..len): the line so far, from its first byte (the
 * same text again, longer, at the next call; it may have moved). Returns 0,
 * or -1 once the bytes cannot begin a valid message (sticky). */
int worker_msg_scan_feed(struct worker_msg_scan *s, const char *text, size_t len);

/* The whole line is text[0..len): reads the rest; 0 when it is exactly one
 * JSON object (whitespace around it allowed), else -1. */
int worker_msg_scan_end(struct worker_msg_scan *s, const char *text, size_t len);

/* After a successful worker_msg_scan_end: the member `key` of the top
 * level (parent -1) or of "outcome" (parent = its index), or NULL. Keys are
 * compared as raw text: an escaped key never matches. */
const struct worker_msg_member *worker_msg_member(const struct worker_msg_scan *s,
                                                  const char *text, int parent, const char *key);

/* The index of a member got from worker_msg_member (for its children). */
int worker_msg_index(const struct worker_msg_scan *s, const struct worker_msg_member *m);

#endif
