/* Parser of ECMA-262 patterns (Unicode-mode syntax, no flags) into a tree,
 * then into a program for the matcher (regex_emit.c, regex_vm.c).
 * Lenient where Annex B is and no meaning changes: a lone "]" or "}", a "{"
 * that starts no quantifier, and "\" before any ASCII punctuation are literals. */
#include "tools/schema/regex.h"
#include "tools/schema/regex_internal.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/utf8.h"

#include <stdlib.h>
#include <string.h>

struct parser {
    const uint32_t *p;
    size_t n, i;
    struct schema__regex *re;
    struct rx_node **nodes; /* every node, for freeing */
    size_t nnodes, cap;
    int ncaps_total; /* capturing groups in the whole pattern */
    int ncaps;       /* numbered so far */
    char **names;    /* names[k]: name of group k+1, or NULL */
    int depth;
    char *err;
};

static void fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct parser *ps, const char *fmt, ...)
{
    if (ps->err)
        return;
    struct buf b;
    buf_init(&b, 0);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    buf_printf(&b, " (at offset %zu)", ps->i);
    ps->err = buf_steal(&b);
}

static struct rx_node *new_node(struct parser *ps, enum rx_node_kind kind)
{
    if (ps->nnodes == ps->cap) {
        ps->cap = ps->cap ? ps->cap * 2 : 32;
        ps->nodes = xrealloc(ps->nodes, ps->cap * sizeof *ps->nodes);
    }
    struct rx_node *nd = xcalloc(1, sizeof *nd);
    nd->kind = kind;
    ps->nodes[ps->nnodes++] = nd;
    return nd;
}

static int peek(const struct parser *ps)
{
    return ps->i < ps->n ? (int) ps->p[ps->i] : -1;
}

static int peek_at(const struct parser *ps, size_t k)
{
    return ps->i + k < ps->n ? (int) ps->p[ps->i + k] : -1;
}

static int accept(struct parser *ps, int c)
{
    if (peek(ps) != c)
        return 0;
    ps->i++;
    return 1;
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int is_syntax_punct(int c)
{
    return c > 0x20 && c < 0x7F && !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'z') &&
           !(c >= 'A' && c <= 'Z');
}

/* Reads exactly `count` hex digits; returns the value or -1. */
static long read_hex(struct parser *ps, int count)
{
    long v = 0;
    for (int k = 0; k < count; k++) {
        int h = hex_value(peek_at(ps, (size_t) k));
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    ps->i += (size_t) count;
    return v;
}

/* Reads a group name up to '>' (ASCII identifier characters and any
 * non-ASCII code point). Returns a malloc'd UTF-8 name or NULL. */
static char *read_name(struct parser *ps)
{
    struct buf b;
    buf_init(&b, 0);
    while (peek(ps) >= 0 && peek(ps) != '>') {
        uint32_t c = ps->p[ps->i++];
        int digit_first = b.len == 0 && c >= '0' && c <= '9';
        if ((c < 0x80 && !(schema__rx_is_word(c) || c == '$')) || digit_first) {
            buf_free(&b);
            return NULL;
        }
        char u[4];
        size_t k = 0;
        if (c < 0x80)
            u[k++] = (char) c;
        else if (c < 0x800)
            u[k++] = (char) (0xC0 | (c >> 6)), u[k++] = (char) (0x80 | (c & 0x3F));
        else if (c < 0x10000)
            u[k++] = (char) (0xE0 | (c >> 12)), u[k++] = (char) (0x80 | ((c >> 6) & 0x3F)),
            u[k++] = (char) (0x80 | (c & 0x3F));
        else
            u[k++] = (char) (0xF0 | (c >> 18)), u[k++] = (char) (0x80 | ((c >> 12) & 0x3F)),
            u[k++] = (char) (0x80 | ((c >> 6) & 0x3F)), u[k++] = (char) (0x80 | (c & 0x3F));
        buf_append(&b, u, k);
    }
    if (!accept(ps, '>') || b.len == 0) {
        buf_free(&b);
        return NULL;
    }
    return buf_steal(&b);
}

/* Counts capturing groups and records their names before parsing, so that
 * \N and \k<name> can refer forward. */
static void prescan_groups(struct parser *ps)
{
    int in_class = 0;
    for (size_t i = 0; i < ps->n; i++) {
        uint32_t c = ps->p[i];
        if (c == '\\') {
            i++;
        } else if (c == '[') {
            in_class = 1;
        } else if (c == ']') {
            in_class = 0;
        } else if (c == '(' && !in_class) {
            int named = i + 2 < ps->n && ps->p[i + 1] == '?' && ps->p[i + 2] == '<' &&
                        i + 3 < ps->n && ps->p[i + 3] != '=' && ps->p[i + 3] != '!';
            if (i + 1 < ps->n && ps->p[i + 1] == '?' && !named)
                continue;
            ps->names = xrealloc(ps->names, (size_t) (ps->ncaps_total + 1) * sizeof *ps->names);
            ps->names[ps->ncaps_total++] = NULL;
            if (named) {
                size_t save = ps->i;
                ps->i = i + 3;
                ps->names[ps->ncaps_total - 1] = read_name(ps);
                ps->i = save;
            }
        }
    }
}

static int group_by_name(const struct parser *ps, const char *name)
{
    for (int k = 0; k < ps->ncaps_total; k++)
        if (ps->names[k] && strcmp(ps->names[k], name) == 0)
            return k + 1;
    return 0;
}

/* \u escapes: XXXX (with a following \uXXXX low surrogate joined) or {X...}. */
static long unicode_escape(struct parser *ps)
{
    if (accept(ps, '{')) {
        long v = 0;
        int digits = 0, h;
        while ((h = hex_value(peek(ps))) >= 0 && v <= 0x10FFFF) {
            v = v * 16 + h;
            ps->i++;
            digits++;
        }
        if (!digits || v > 0x10FFFF || !accept(ps, '}'))
            return -1;
        return v;
    }
    long hi = read_hex(ps, 4);
    if (hi >= 0xD800 && hi <= 0xDBFF && peek(ps) == '\\' && peek_at(ps, 1) == 'u') {
        size_t save = ps->i;
        ps->i += 2;
        long lo = read_hex(ps, 4);
        if (lo >= 0xDC00 && lo <= 0xDFFF)
            return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
        ps->i = save;
    }
    return hi;
}

/* \p{...} / \P{...}: fills cl. */
static int property_escape(struct parser *ps, struct rx_class *cl, int negate)
{
    char name[64];
    size_t k = 0;
    if (!accept(ps, '{'))
        return fail(ps, "\\p must be followed by {name}"), -1;
    while (peek(ps) >= 0 && peek(ps) != '}' && k < sizeof name - 1)
        name[k++] = (char) ps->p[ps->i++];
    name[k] = '\0';
    if (!accept(ps, '}'))
        return fail(ps, "unterminated \\p{...}"), -1;
    if (schema__rx_class_property(cl, name, negate) < 0)
        return fail(ps,
                    "unsupported Unicode property \\p{%s} (supported: General_Category "
                    "values such as L, Letter, Lu, N, Nd, P, S, Z, and ASCII, Any, Assigned)",
                    name),
               -1;
    return 0;
}

/* What an escape denotes: a code point, or a class (cl filled). */
enum esc_kind { ESC_CHAR, ESC_CLASS, ESC_ERROR };

/* Escapes valid both inside and outside classes; the "\" is consumed.
 * Sets *cp or fills cl. */
static enum esc_kind char_escape(struct parser *ps, uint32_t *cp, struct rx_class *cl)
{
    int c = peek(ps);
    long v;
    if (c < 0)
        return fail(ps, "pattern ends with a lone \\"), ESC_ERROR;
    ps->i++;
    switch (c) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 's':
    case 'S':
        schema__rx_class_escape(cl, c);
        return ESC_CLASS;
    case 'p':
    case 'P':
        return property_escape(ps, cl, c == 'P') < 0 ? ESC_ERROR : ESC_CLASS;
    case 'f':
        *cp = '\f';
        return ESC_CHAR;
    case 'n':
        *cp = '\n';
        return ESC_CHAR;
    case 'r':
        *cp = '\r';
        return ESC_CHAR;
    case 't':
        *cp = '\t';
        return ESC_CHAR;
    case 'v':
        *cp = '\v';
        return ESC_CHAR;
    case 'c':
        c = peek(ps);
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return fail(ps, "\\c must be followed by a letter"), ESC_ERROR;
        ps->i++;
        *cp = (uint32_t) (c % 32);
        return ESC_CHAR;
    case 'x':
        if ((v = read_hex(ps, 2)) < 0)
            return fail(ps, "\\x must be followed by two hex digits"), ESC_ERROR;
        *cp = (uint32_t) v;
        return ESC_CHAR;
    case 'u':
        if ((v = unicode_escape(ps)) < 0)
            return fail(ps, "invalid \\u escape (\\uXXXX or \\u{X...} up to 10FFFF)"), ESC_ERROR;
        *cp = (uint32_t) v;
        return ESC_CHAR;
    case '0':
        if (is_digit(peek(ps)))
            return fail(ps, "octal escapes are not allowed"), ESC_ERROR;
        *cp = 0;
        return ESC_CHAR;
    default:
        if (is_syntax_punct(c) || c >= 0x80) {
            *cp = (uint32_t) c;
            return ESC_CHAR;
        }
        return fail(ps, "invalid escape \\%c", c), ESC_ERROR;
    }
}

/* One class atom: a code point, or a class escape (returns ESC_CLASS). */
static enum esc_kind class_atom(struct parser *ps, uint32_t *cp, struct rx_class *cl)
{
    int c = peek(ps);
    if (c < 0)
        return fail(ps, "unterminated character class"), ESC_ERROR;
    ps->i++;
    if (c != '\\') {
        *cp = (uint32_t) c;
        return ESC_CHAR;
    }
    if (accept(ps, 'b')) {
        *cp = '\b';
        return ESC_CHAR;
    }
    if (accept(ps, '-')) {
        *cp = '-';
        return ESC_CHAR;
    }
    return char_escape(ps, cp, cl);
}

static struct rx_node *class_node(struct parser *ps, struct rx_class *cl)
{
    schema__rx_class_normalize(cl);
    struct schema__regex *re = ps->re;
    re->classes = xrealloc(re->classes, (re->nclasses + 1) * sizeof *re->classes);
    re->classes[re->nclasses] = *cl;
    struct rx_node *nd = new_node(ps, RXN_CLASS);
    nd->index = (int) re->nclasses++;
    return nd;
}

/* [...] after the "[": builds a class and returns a CLASS node. */
static struct rx_node *parse_class(struct parser *ps)
{
    struct rx_class cl = {0};
    cl.negated = accept(ps, '^');
    while (!ps->err && peek(ps) != ']') {
        struct rx_class esc = {0};
        uint32_t lo, hi;
        enum esc_kind k = class_atom(ps, &lo, &esc);
        if (k == ESC_CHAR && peek(ps) == '-' && peek_at(ps, 1) != ']' && peek_at(ps, 1) >= 0) {
            ps->i++;
            struct rx_class esc2 = {0};
            enum esc_kind k2 = class_atom(ps, &hi, &esc2);
            if (k2 == ESC_CHAR && hi < lo)
                fail(ps, "character class range out of order");
            else if (k2 == ESC_CHAR)
                schema__rx_class_add(&cl, lo, hi);
            else if (k2 == ESC_CLASS) /* [a-\d]: "-" is a literal (Annex B) */
                schema__rx_class_add(&cl, lo, lo), schema__rx_class_add(&cl, '-', '-'),
                    schema__rx_class_add_class(&cl, &esc2);
            schema__rx_class_free(&esc2);
        } else if (k == ESC_CHAR) {
            schema__rx_class_add(&cl, lo, lo);
        } else if (k == ESC_CLASS) {
            schema__rx_class_add_class(&cl, &esc);
        }
        schema__rx_class_free(&esc);
    }
    if (ps->err || !accept(ps, ']')) {
        fail(ps, "unterminated character class");
        schema__rx_class_free(&cl);
        return NULL;
    }
    return class_node(ps, &cl);
}

static struct rx_node *char_node(struct parser *ps, uint32_t c)
{
    struct rx_node *nd = new_node(ps, RXN_CHAR);
    nd->c = c;
    return nd;
}

/* Backreference \N (decimal) after the "\". */
static struct rx_node *numeric_backref(struct parser *ps)
{
    long v = 0;
    while (is_digit(peek(ps)) && v < 100000)
        v = v * 10 + (ps->p[ps->i++] - '0');
    if (v > ps->ncaps_total)
        return fail(ps, "\\%ld refers to a group that does not exist", v), NULL;
    struct rx_node *nd = new_node(ps, RXN_BACKREF);
    nd->index = (int) v;
    ps->re->has_backrefs = 1;
    return nd;
}

/* An escape outside a class, after the "\". */
static struct rx_node *atom_escape(struct parser *ps)
{
    int c = peek(ps);
    if (c >= '1' && c <= '9')
        return numeric_backref(ps);
    if (c == 'k') {
        ps->i++;
        char *name = accept(ps, '<') ? read_name(ps) : NULL;
        int g = name ? group_by_name(ps, name) : 0;
        free(name);
        if (!g)
            return fail(ps, "\\k must name a group: \\k<name>"), NULL;
        struct rx_node *nd = new_node(ps, RXN_BACKREF);
        nd->index = g;
        ps->re->has_backrefs = 1;
        return nd;
    }
    struct rx_class cl = {0};
    uint32_t cp;
    enum esc_kind k = char_escape(ps, &cp, &cl);
    if (k == ESC_CLASS)
        return class_node(ps, &cl);
    schema__rx_class_free(&cl);
    return k == ESC_CHAR ? char_node(ps, cp) : NULL;
}

static struct rx_node *parse_disjunction(struct parser *ps);

/* "(" already consumed: capturing, non-capturing, named group or lookaround. */
static struct rx_node *parse_group(struct parser *ps)
{
    struct rx_node *nd;
    if (++ps->depth > RX_MAX_NEST)
        return fail(ps, "groups nested more than %d deep", RX_MAX_NEST), NULL;
    if (accept(ps, '?')) {
        int c = peek(ps);
        if (c == ':') {
            ps->i++;
            nd = new_node(ps, RXN_GROUP);
        } else if (c == '=' || c == '!') {
            ps->i++;
            nd = new_node(ps, RXN_LOOK);
            nd->negate = c == '!';
        } else if (c == '<' && (peek_at(ps, 1) == '=' || peek_at(ps, 1) == '!')) {
            nd = new_node(ps, RXN_LOOK);
            nd->behind = 1;
            nd->negate = peek_at(ps, 1) == '!';
            ps->i += 2;
        } else if (c == '<') {
            ps->i++;
            char *name = read_name(ps);
            if (name == NULL)
                return fail(ps, "invalid group name in (?<name>...)"), NULL;
            free(name);
            nd = new_node(ps, RXN_GROUP);
            nd->index = ++ps->ncaps;
        } else {
            return fail(ps, "invalid group: (? must be followed by : = ! <= <! or <name>"), NULL;
        }
    } else {
        nd = new_node(ps, RXN_GROUP);
        nd->index = ++ps->ncaps;
    }
    nd->kids = parse_disjunction(ps);
    if (!ps->err && !accept(ps, ')'))
        fail(ps, "missing )");
    ps->depth--;
    return ps->err ? NULL : nd;
}

/* Reads a decimal number for {n,m}; -1 if none. */
static long read_count(struct parser *ps)
{
    long v = -1;
    while (is_digit(peek(ps))) {
        v = (v < 0 ? 0 : v) * 10 + (ps->p[ps->i++] - '0');
        if (v > RX_MAX_REPEAT)
            v = RX_MAX_REPEAT + 1;
    }
    return v;
}

/* Tries {n}, {n,} or {n,m} at "{"; returns 1 and the bounds, or 0 (and
 * consumes nothing) when the brace starts no quantifier. */
static int brace_quantifier(struct parser *ps, unsigned *min, unsigned *max)
{
    size_t save = ps->i;
    ps->i++;
    long lo = read_count(ps), hi = lo;
    if (lo >= 0 && accept(ps, ','))
        hi = is_digit(peek(ps)) ? read_count(ps) : -2;
    if (lo < 0 || !accept(ps, '}')) {
        ps->i = save;
        return 0;
    }
    if (lo > RX_MAX_REPEAT || hi > RX_MAX_REPEAT)
        return fail(ps, "repetition count above %d", RX_MAX_REPEAT), 1;
    if (hi >= 0 && hi < lo)
        return fail(ps, "numbers out of order in {} quantifier"), 1;
    *min = (unsigned) lo;
    *max = hi == -2 ? RX_INF : (unsigned) hi;
    return 1;
}

/* Wraps atom in a REPEAT if a quantifier follows. */
static struct rx_node *parse_quantifier(struct parser *ps, struct rx_node *atom)
{
    unsigned min, max;
    int c = peek(ps);
    if (c == '*' || c == '+' || c == '?') {
        ps->i++;
        min = c == '+';
        max = c == '?' ? 1 : RX_INF;
    } else if (c != '{' || !brace_quantifier(ps, &min, &max)) {
        return atom;
    }
    if (ps->err)
        return NULL;
    struct rx_node *nd = new_node(ps, RXN_REPEAT);
    nd->min = min;
    nd->max = max;
    nd->greedy = !accept(ps, '?');
    nd->kids = atom;
    return nd;
}

static int is_quantifier_start(struct parser *ps)
{
    int c = peek(ps);
    unsigned a, b;
    if (c == '*' || c == '+' || c == '?')
        return 1;
    if (c != '{')
        return 0;
    size_t save = ps->i;
    int q = brace_quantifier(ps, &a, &b);
    ps->i = save;
    return q;
}

/* Term: an assertion, or an atom with an optional quantifier. */
static struct rx_node *parse_term(struct parser *ps)
{
    int c = peek(ps);
    struct rx_node *atom = NULL;
    if (is_quantifier_start(ps))
        return fail(ps, "nothing to repeat"), NULL;
    ps->i++;
    if (c == '^' || c == '$')
        atom = new_node(ps, c == '^' ? RXN_BOL : RXN_EOL);
    else if (c == '\\' && (peek(ps) == 'b' || peek(ps) == 'B'))
        atom = new_node(ps, ps->p[ps->i++] == 'b' ? RXN_WORDB : RXN_NWORDB);
    if (atom) {
        if (is_quantifier_start(ps))
            return fail(ps, "nothing to repeat"), NULL;
        return atom;
    }
    if (c == '.')
        atom = new_node(ps, RXN_ANY);
    else if (c == '(')
        atom = parse_group(ps);
    else if (c == '[')
        atom = parse_class(ps);
    else if (c == '\\')
        atom = atom_escape(ps);
    else
        atom = char_node(ps, (uint32_t) c);
    if (atom == NULL)
        return NULL;
    if (atom->kind == RXN_LOOK && is_quantifier_start(ps))
        return fail(ps, "nothing to repeat"), NULL;
    return parse_quantifier(ps, atom);
}

/* Alternative: a sequence of terms up to "|", ")" or the end. */
static struct rx_node *parse_alternative(struct parser *ps)
{
    struct rx_node *cat = new_node(ps, RXN_CAT), **tail = &cat->kids;
    while (!ps->err && peek(ps) >= 0 && peek(ps) != '|' && peek(ps) != ')') {
        struct rx_node *t = parse_term(ps);
        if (t == NULL)
            return NULL;
        *tail = t;
        tail = &t->next;
    }
    return cat;
}

static struct rx_node *parse_disjunction(struct parser *ps)
{
    struct rx_node *first = parse_alternative(ps);
    if (first == NULL || peek(ps) != '|')
        return first;
    struct rx_node *alt = new_node(ps, RXN_ALT), **tail = &first->next;
    alt->kids = first;
    while (!ps->err && accept(ps, '|')) {
        struct rx_node *a = parse_alternative(ps);
        if (a == NULL)
            return NULL;
        *tail = a;
        tail = &a->next;
    }
    return alt;
}

/* Decodes UTF-8 into a malloc'd array of code points. */
static uint32_t *decode(const char *s, size_t len, size_t *n)
{
    uint32_t *out = xmalloc((len + 1) * sizeof *out);
    *n = schema__rx_decode(s, len, out);
    return out;
}

static void parser_free(struct parser *ps)
{
    for (size_t i = 0; i < ps->nnodes; i++)
        free(ps->nodes[i]);
    free(ps->nodes);
    for (int k = 0; k < ps->ncaps_total; k++)
        free(ps->names[k]);
    free(ps->names);
    free((void *) ps->p);
}

struct schema__regex *schema__regex_compile(const char *pattern, char **err)
{
    struct parser ps = {0};
    struct schema__regex *re = xcalloc(1, sizeof *re);
    ps.re = re;
    ps.p = decode(pattern, strlen(pattern), &ps.n);
    prescan_groups(&ps);
    struct rx_node *root = parse_disjunction(&ps);
    if (!ps.err && peek(&ps) == ')')
        fail(&ps, "unmatched )");
    re->ncaps = ps.ncaps;
    if (!ps.err && schema__rx_emit(re, root) < 0)
        fail(&ps, "pattern too large once counted repetitions are expanded (over %d steps)",
             RX_MAX_PROG);
    parser_free(&ps);
    if (ps.err) {
        if (err)
            *err = ps.err;
        else
            free(ps.err);
        schema__regex_free(re);
        return NULL;
    }
    return re;
}

size_t schema__regex_size(const struct schema__regex *re)
{
    return re->len;
}

void schema__regex_free(struct schema__regex *re)
{
    if (re == NULL)
        return;
    for (size_t i = 0; i < re->nclasses; i++)
        schema__rx_class_free(&re->classes[i]);
    free(re->classes);
    free(re->prog);
    free(re);
}
