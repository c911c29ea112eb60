/* Internals shared by the pattern parser (regex.c), the character
 * classes (regex_class.c), the code generator (regex_emit.c)
 * and the matcher (regex_vm.c). Not for use outside the regex files of tools/schema/. */
#ifndef TOOLS_SCHEMA_REGEX_INT_H
#define TOOLS_SCHEMA_REGEX_INT_H

#include <stddef.h>
#include <stdint.h>

#define RX_INF        ((unsigned) -1) /* unbounded repetition */
#define RX_MAX_PROG   50000           /* instructions after expanding {n,m} */
#define RX_MAX_NEST   100             /* nested groups in a pattern */
#define RX_MAX_REPEAT 100000          /* largest n in {n} and {n,m} */

/* A character class: sorted, disjoint ranges plus General_Category bits. */
struct rx_class {
    uint32_t *ranges; /* lo0, hi0, lo1, hi1, ... */
    size_t nranges;
    size_t cap;
    uint32_t cats; /* schema_gc bits that also match */
    int negated;
};

enum rx_node_kind {
    RXN_EMPTY,
    RXN_CHAR,
    RXN_ANY,
    RXN_CLASS,
    RXN_CAT,
    RXN_ALT,
    RXN_GROUP,
    RXN_REPEAT,
    RXN_BOL,
    RXN_EOL,
    RXN_WORDB,
    RXN_NWORDB,
    RXN_LOOK,
    RXN_BACKREF
};

/* Parse tree. CAT and ALT list their children through `kids`/`next`. */
struct rx_node {
    enum rx_node_kind kind;
    uint32_t c;         /* CHAR: the code point */
    int index;          /* CLASS: class index; GROUP/BACKREF: capture number (0 = none) */
    unsigned min, max;  /* REPEAT */
    int greedy;         /* REPEAT */
    int behind, negate; /* LOOK */
    struct rx_node *kids;
    struct rx_node *next;
};

enum rx_op {
    RX_CHAR,
    RX_ANY,
    RX_ANYALL,
    RX_CLASS,
    RX_SPLIT,
    RX_JMP,
    RX_SAVE,
    RX_BOL,
    RX_EOL,
    RX_WORDB,
    RX_NWORDB,
    RX_LOOK,
    RX_BACKREF,
    RX_MARK,
    RX_CHECK,
    RX_MATCH
};

/* One instruction. SPLIT tries x first, then y. LOOK runs the sub-program
 * starting at pc + 1 (ending in its own MATCH) and continues at x. */
struct rx_insn {
    uint8_t op;
    uint8_t behind, negate; /* LOOK */
    uint32_t arg; /* CHAR code point; CLASS index; SAVE slot; BACKREF group; MARK/CHECK register */
    int x, y;
};

struct schema__regex {
    struct rx_insn *prog;
    size_t len;
    struct rx_class *classes;
    size_t nclasses;
    int ncaps;        /* capture groups, group 0 excluded */
    int nregs;        /* empty-iteration registers */
    int has_backrefs; /* disables memoisation */
    int has_look;     /* lookaround: several runs share the memo, so it needs stamps */
};

/* Character classes (regex_class.c). */
void schema__rx_class_add(struct rx_class *cl, uint32_t lo, uint32_t hi);
void schema__rx_class_add_class(struct rx_class *cl, const struct rx_class *other);
void schema__rx_class_normalize(struct rx_class *cl);
void schema__rx_class_free(struct rx_class *cl);
int schema__rx_class_matches(const struct rx_class *cl, uint32_t c);
/* Fills cl with the set named by the escape letter d D w W s S. */
void schema__rx_class_escape(struct rx_class *cl, int letter);
/* Fills cl with \p{name} (negate: \P). Returns 0, or -1 for an unknown or
 * unsupported property name. */
int schema__rx_class_property(struct rx_class *cl, const char *name, int negate);
int schema__rx_is_word(uint32_t c);
int schema__rx_is_line_terminator(uint32_t c);

/* Decodes UTF-8 s[0..len) into out (room for len code points; ill-formed
 * bytes become U+FFFD). Returns the number of code points (regex_vm.c). */
size_t schema__rx_decode(const char *s, size_t len, uint32_t *out);

/* Code generation (regex_emit.c): fills re->prog from the tree.
 * Returns 0, or -1 when the program would exceed RX_MAX_PROG. */
int schema__rx_emit(struct schema__regex *re, const struct rx_node *root);

#endif
