/* The tokenizer of the lowering pass: the ES2022 lexical grammar (names with
 * unicode escapes, numbers with separators, strings, templates, regular
 * expressions rescanned on the parser's request, comments, line terminators).
 * Tokens point into the source; only names are interned. No allocation per
 * token except for new names. */
#include <string.h>

#include "sandbox/lower/internal.h"

const char *const lower__punct_text[P_COUNT] = {
    [P_LBRACE] = "{", [P_RBRACE] = "}", [P_LPAREN] = "(", [P_RPAREN] = ")",
    [P_LBRACKET] = "[", [P_RBRACKET] = "]", [P_DOT] = ".", [P_ELLIPSIS] = "...",
    [P_SEMI] = ";", [P_COMMA] = ",", [P_LT] = "<", [P_GT] = ">", [P_LE] = "<=",
    [P_GE] = ">=", [P_EQ] = "==", [P_NE] = "!=", [P_SEQ] = "===", [P_SNE] = "!==",
    [P_PLUS] = "+", [P_MINUS] = "-", [P_STAR] = "*", [P_SLASH] = "/", [P_PERCENT] = "%",
    [P_STARSTAR] = "**", [P_INC] = "++", [P_DEC] = "--", [P_SHL] = "<<", [P_SHR] = ">>",
    [P_USHR] = ">>>", [P_AMP] = "&", [P_PIPE] = "|", [P_CARET] = "^", [P_BANG] = "!",
    [P_TILDE] = "~", [P_AND] = "&&", [P_OR] = "||", [P_NULLISH] = "??", [P_QUESTION] = "?",
    [P_QDOT] = "?.", [P_COLON] = ":", [P_ASSIGN] = "=", [P_PLUS_EQ] = "+=",
    [P_MINUS_EQ] = "-=", [P_STAR_EQ] = "*=", [P_SLASH_EQ] = "/=", [P_PERCENT_EQ] = "%=",
    [P_STARSTAR_EQ] = "**=", [P_SHL_EQ] = "<<=", [P_SHR_EQ] = ">>=", [P_USHR_EQ] = ">>>=",
    [P_AMP_EQ] = "&=", [P_PIPE_EQ] = "|=", [P_CARET_EQ] = "^=", [P_AND_EQ] = "&&=",
    [P_OR_EQ] = "||=", [P_NULLISH_EQ] = "?" "?=", [P_ARROW] = "=>", [P_AT] = "@", [P_HASH] = "#",
};

int lower__utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    int len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    if (len == 1 || (size_t)len > n) {
        *cp = 0xfffd;
        return 1;
    }
    uint32_t v = c & (0x3f >> (len - 1));
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            *cp = 0xfffd;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3f);
    }
    *cp = v;
    return len;
}

static int is_space_cp(uint32_t c)
{
    return c == 0xa0 || c == 0xfeff || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
           c == 0x202f || c == 0x205f || c == 0x3000;
}

int lower__is_id_start(uint32_t c)
{
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '$' || c == '_';
    /* (permissive beyond ASCII; ZWNJ and ZWJ may continue a name, not start one) */
    return !is_space_cp(c) && c != 0x2028 && c != 0x2029 && c != 0xfffd && c != 0x200c &&
           c != 0x200d;
}

int lower__is_id_part(uint32_t c)
{
    if (c < 0x80)
        return lower__is_id_start(c) || (c >= '0' && c <= '9');
    return lower__is_id_start(c) || c == 0x200c || c == 0x200d;
}

static void note_line(struct lexer *lx, uint32_t start)
{
    /* lines are discovered in order, possibly several times after a rewind */
    if (lx->line <= lx->nlines)
        return;
    if (lx->nlines >= lx->line_cap) {
        int ncap = lx->line_cap ? lx->line_cap * 2 : 1024;
        uint32_t *n = lower__arena_alloc(lx->arena, (size_t)ncap * sizeof *n);
        if (!n)
            return;
        if (lx->nlines)
            memcpy(n, lx->line_starts, (size_t)lx->nlines * sizeof *n);
        lx->line_starts = n;
        lx->line_cap = ncap;
    }
    lx->line_starts[lx->nlines++] = start;
}

void lower__lex_init(struct lexer *lx, const char *src, uint32_t len, struct names *names,
                     struct arena *a)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->len = len;
    lx->line = 1;
    lx->names = names;
    lx->arena = a;
    note_line(lx, 0);
}

/* If a line terminator starts at pos, returns its length (1-3), else 0. */
static int newline_at(const struct lexer *lx, uint32_t pos)
{
    const unsigned char *s = (const unsigned char *)lx->src;
    if (pos >= lx->len)
        return 0;
    if (s[pos] == '\n')
        return 1;
    if (s[pos] == '\r')
        return (pos + 1 < lx->len && s[pos + 1] == '\n') ? 2 : 1;
    if (s[pos] == 0xe2 && pos + 2 < lx->len && s[pos + 1] == 0x80 &&
        (s[pos + 2] == 0xa8 || s[pos + 2] == 0xa9))
        return 3;
    return 0;
}

static void bump_line(struct lexer *lx, uint32_t next_start)
{
    lx->line++;
    note_line(lx, next_start);
}

/* Skips white space and comments; sets *nl when a line terminator was seen. */
static int skip_space(struct lexer *lx, int *nl, const char **msg, uint32_t *epos)
{
    const unsigned char *s = (const unsigned char *)lx->src;
    while (lx->pos < lx->len) {
        unsigned c = s[lx->pos];
        if (c == ' ' || c == '\t') {
            lx->pos++;
            continue;
        }
        if (c > ' ' && c != '/' && c < 0x80 && !(c == '#' && lx->pos == 0))
            break;
        int n = newline_at(lx, lx->pos);
        if (n) {
            lx->pos += n;
            bump_line(lx, lx->pos);
            *nl = 1;
        } else if (c == ' ' || c == '\t' || c == '\v' || c == '\f') {
            lx->pos++;
        } else if (c == '/' && lx->pos + 1 < lx->len && s[lx->pos + 1] == '/') {
            while (lx->pos < lx->len && !newline_at(lx, lx->pos))
                lx->pos++;
        } else if (c == '/' && lx->pos + 1 < lx->len && s[lx->pos + 1] == '*') {
            uint32_t start = lx->pos;
            lx->pos += 2;
            for (;;) {
                if (lx->pos + 1 >= lx->len) {
                    *msg = "Unterminated comment";
                    *epos = start;
                    return -1;
                }
                if (s[lx->pos] == '*' && s[lx->pos + 1] == '/') {
                    lx->pos += 2;
                    break;
                }
                int m = newline_at(lx, lx->pos);
                if (m) {
                    lx->pos += m;
                    bump_line(lx, lx->pos);
                    *nl = 1;
                } else {
                    lx->pos++;
                }
            }
        } else if (c == '#' && lx->pos == 0 && lx->len > 1 && s[1] == '!') {
            while (lx->pos < lx->len && !newline_at(lx, lx->pos))
                lx->pos++;
        } else if (c >= 0x80) {
            uint32_t cp;
            int k = lower__utf8_decode(s + lx->pos, lx->len - lx->pos, &cp);
            if (!is_space_cp(cp))
                break;
            lx->pos += (uint32_t)k;
        } else {
            break;
        }
    }
    return 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads \uXXXX or \u{X...} at pos (pointing at the backslash); returns the
 * code point or -1, and advances *pos. */
static long read_unicode_escape(const struct lexer *lx, uint32_t *pos)
{
    const char *s = lx->src;
    uint32_t p = *pos;
    if (p + 1 >= lx->len || s[p] != '\\' || s[p + 1] != 'u')
        return -1;
    p += 2;
    long v = 0;
    if (p < lx->len && s[p] == '{') {
        p++;
        int digits = 0;
        while (p < lx->len && hexval(s[p]) >= 0) {
            v = v * 16 + hexval(s[p++]);
            if (v > 0x10ffff)
                return -1;
            digits++;
        }
        if (!digits || p >= lx->len || s[p] != '}')
            return -1;
        p++;
    } else {
        for (int i = 0; i < 4; i++) {
            if (p >= lx->len || hexval(s[p]) < 0)
                return -1;
            v = v * 16 + hexval(s[p++]);
        }
    }
    *pos = p;
    return v;
}

static size_t put_utf8(char *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* [A-Za-z0-9_$] */
static inline int ascii_id_part(unsigned c)
{
    static const uint64_t lo = (1ull << '$') | (0x3ffull << '0');
    static const uint64_t hi = (0x3ffffffull << ('A' - 64)) | (1ull << ('_' - 64)) |
                               (0x3ffffffull << ('a' - 64));
    return c < 128 && (((c < 64 ? lo >> c : hi >> (c - 64))) & 1);
}

/* The common name: ASCII letters, digits, _ and $ only (the caller checked
 * the first character), hashed while scanned. Returns 0, or -1 when the
 * name goes on with an escape or a non-ASCII character (lx->pos unmoved). */
static int scan_ascii_name(struct lexer *lx)
{
    const unsigned char *s = (const unsigned char *)lx->src;
    uint32_t p = lx->pos, start = p, h = LOWER_HASH_INIT;
    unsigned dollar = 0;
    while (p < lx->len && ascii_id_part(s[p])) {
        dollar |= s[p] == '$';
        h = LOWER_HASH_STEP(h, s[p]);
        p++;
    }
    if (p == start || (p < lx->len && (s[p] == '\\' || s[p] >= 0x80)))
        return -1;
    if (dollar)
        lx->names->has_dollar = 1;
    struct token *t = &lx->tok;
    t->name = lower__intern_hashed(lx->names, lx->src + start, p - start, h);
    lx->pos = p;
    t->escaped = 0;
    t->type = TK_NAME;
    t->kw = t->name ? t->name->kw : 0;
    return 0;
}

static int scan_name(struct lexer *lx, const char **msg, uint32_t *epos)
{
    const unsigned char *s = (const unsigned char *)lx->src;
    uint32_t start = lx->pos;
    int escaped = 0;
    if (scan_ascii_name(lx) == 0) {
        if (lx->tok.name)
            return 0;
        *msg = "Out of memory";
        *epos = start;
        return -1;
    }
    for (int first = 1;; first = 0) {
        if (lx->pos >= lx->len)
            break;
        uint32_t cp;
        int k;
        if (s[lx->pos] == '\\') {
            uint32_t p = lx->pos;
            long v = read_unicode_escape(lx, &p);
            if (v < 0 || !(first ? lower__is_id_start((uint32_t)v) : lower__is_id_part((uint32_t)v))) {
                *msg = "Invalid escape in identifier";
                *epos = lx->pos;
                return -1;
            }
            lx->pos = p;
            escaped = 1;
            continue;
        }
        k = lower__utf8_decode(s + lx->pos, lx->len - lx->pos, &cp);
        if (!(first ? lower__is_id_start(cp) : lower__is_id_part(cp)))
            break;
        lx->pos += (uint32_t)k;
    }
    if (lx->pos == start) {
        *msg = "Invalid or unexpected character";
        *epos = start;
        return -1;
    }
    if (!lx->names->has_dollar && memchr(lx->src + start, '$', lx->pos - start))
        lx->names->has_dollar = 1;
    struct token *t = &lx->tok;
    t->escaped = (uint8_t)escaped;
    if (!escaped) {
        t->name = lower__intern(lx->names, lx->src + start, lx->pos - start);
    } else {
        /* decode escapes into a scratch copy */
        size_t n = lx->pos - start;
        char *tmp = lower__arena_alloc(lx->arena, n * 4 + 1);
        if (!tmp) {
            t->name = NULL;
            return 0;
        }
        size_t o = 0;
        uint32_t p = start;
        while (p < lx->pos) {
            if (s[p] == '\\') {
                long v = read_unicode_escape(lx, &p);
                o += put_utf8(tmp + o, (uint32_t)v);
            } else {
                tmp[o++] = (char)s[p++];
            }
        }
        t->name = lower__intern(lx->names, tmp, o);
    }
    if (!t->name) {
        *msg = "Out of memory";
        *epos = start;
        return -1;
    }
    t->type = TK_NAME;
    t->kw = escaped ? 0 : t->name->kw;
    return 0;
}

static int is_digit_of(int c, int base)
{
    int v = hexval(c);
    return v >= 0 && v < base && (base == 16 || (c >= '0' && c <= '9'));
}

/* Digits with numeric separators ('_' only between digits). */
static int scan_digits(struct lexer *lx, int base, const char **msg, uint32_t *epos)
{
    const char *s = lx->src;
    int n = 0;
    while (lx->pos < lx->len) {
        char c = s[lx->pos];
        if (c == '_') {
            if (!n || lx->pos + 1 >= lx->len || !is_digit_of(s[lx->pos + 1], base)) {
                *msg = "Numeric separators are only allowed between digits";
                *epos = lx->pos;
                return -1;
            }
            lx->pos++;
            continue;
        }
        if (!is_digit_of(c, base))
            break;
        lx->pos++;
        n++;
    }
    return n;
}

static int scan_number(struct lexer *lx, const char **msg, uint32_t *epos)
{
    const char *s = lx->src;
    uint32_t start = lx->pos;
    lx->tok.type = TK_NUM;
    if (s[lx->pos] == '0' && lx->pos + 1 < lx->len && strchr("xXoObB", s[lx->pos + 1]) &&
        s[lx->pos + 1]) {
        char k = s[lx->pos + 1];
        int base = (k == 'x' || k == 'X') ? 16 : (k == 'o' || k == 'O') ? 8 : 2;
        lx->pos += 2;
        int n = scan_digits(lx, base, msg, epos);
        if (n < 0)
            return -1;
        if (n == 0) {
            *msg = "Invalid number";
            *epos = start;
            return -1;
        }
    } else {
        int legacy_octal = s[lx->pos] == '0' && lx->pos + 1 < lx->len && s[lx->pos + 1] >= '0' &&
                           s[lx->pos + 1] <= '9';
        if (legacy_octal) {
            while (lx->pos < lx->len && s[lx->pos] >= '0' && s[lx->pos] <= '9')
                lx->pos++;
        } else if (s[lx->pos] == '0' && lx->pos + 1 < lx->len && s[lx->pos + 1] == '_') {
            /* "0_1" would lose its separator and become the octal-like 01 */
            *msg = "Numeric separator can not be used after leading 0";
            *epos = lx->pos + 1;
            return -1;
        } else {
            if (scan_digits(lx, 10, msg, epos) < 0)
                return -1;
            if (lx->pos < lx->len && s[lx->pos] == '.') {
                lx->pos++;
                if (scan_digits(lx, 10, msg, epos) < 0)
                    return -1;
            }
            if (lx->pos < lx->len && (s[lx->pos] == 'e' || s[lx->pos] == 'E')) {
                lx->pos++;
                if (lx->pos < lx->len && (s[lx->pos] == '+' || s[lx->pos] == '-'))
                    lx->pos++;
                int n = scan_digits(lx, 10, msg, epos);
                if (n < 0)
                    return -1;
                if (n == 0) {
                    *msg = "Invalid number";
                    *epos = start;
                    return -1;
                }
            }
        }
    }
    if (lx->pos < lx->len && s[lx->pos] == 'n') {
        *msg = "Unsupported: BigInt literals (the engine has no BigInt)";
        *epos = start;
        return -1;
    }
    if (lx->pos < lx->len) {
        uint32_t cp;
        lower__utf8_decode((const unsigned char *)s + lx->pos, lx->len - lx->pos, &cp);
        if (lower__is_id_start(cp) || (cp >= '0' && cp <= '9')) {
            *msg = "Identifier directly after number";
            *epos = lx->pos;
            return -1;
        }
    }
    return 0;
}

static int scan_string(struct lexer *lx, const char **msg, uint32_t *epos)
{
    const char *s = lx->src;
    char q = s[lx->pos];
    uint32_t start = lx->pos++;
    lx->tok.type = TK_STR;
    while (lx->pos < lx->len) {
        char c = s[lx->pos];
        if (c == q) {
            lx->pos++;
            return 0;
        }
        if (c == '\\') {
            lx->pos++;
            int n = newline_at(lx, lx->pos);
            if (n) {
                lx->pos += n;
                bump_line(lx, lx->pos);
            } else if (lx->pos < lx->len) {
                lx->pos++;
            }
            continue;
        }
        if (c == '\n' || c == '\r') {
            break;
        }
        lx->pos++;
    }
    *msg = "Unterminated string literal";
    *epos = start;
    return -1;
}

/* Scans template characters from pos (just after ` or }) up to and including
 * ` or ${. */
static int scan_template_chars(struct lexer *lx, uint32_t start, const char **msg, uint32_t *epos)
{
    const char *s = lx->src;
    lx->tok.type = TK_TEMPLATE;
    while (lx->pos < lx->len) {
        char c = s[lx->pos];
        if (c == '`') {
            lx->pos++;
            lx->tok.tpl_tail = 1;
            return 0;
        }
        if (c == '$' && lx->pos + 1 < lx->len && s[lx->pos + 1] == '{') {
            lx->pos += 2;
            lx->tok.tpl_tail = 0;
            return 0;
        }
        if (c == '\\') {
            lx->pos++;
            if (lx->pos >= lx->len)
                break;
        }
        int n = newline_at(lx, lx->pos);
        if (n) {
            lx->pos += n;
            bump_line(lx, lx->pos);
        } else {
            lx->pos++;
        }
    }
    *msg = "Unterminated template literal";
    *epos = start;
    return -1;
}

/* Longest-match punctuators, chosen by their first characters. */
static int punct_op(const char *s, size_t rest, int *len)
{
    char c1 = rest > 1 ? s[1] : 0, c2 = rest > 2 ? s[2] : 0, c3 = rest > 3 ? s[3] : 0;
#define R(n, op) return (*len = (n), (op))
    switch (s[0]) {
    case '{': R(1, P_LBRACE);
    case '}': R(1, P_RBRACE);
    case '(': R(1, P_LPAREN);
    case ')': R(1, P_RPAREN);
    case '[': R(1, P_LBRACKET);
    case ']': R(1, P_RBRACKET);
    case ';': R(1, P_SEMI);
    case ',': R(1, P_COMMA);
    case '~': R(1, P_TILDE);
    case ':': R(1, P_COLON);
    case '@': R(1, P_AT);
    case '.':
        if (c1 == '.' && c2 == '.') R(3, P_ELLIPSIS);
        R(1, P_DOT);
    case '<':
        if (c1 == '<') { if (c2 == '=') R(3, P_SHL_EQ); R(2, P_SHL); }
        if (c1 == '=') R(2, P_LE);
        R(1, P_LT);
    case '>':
        if (c1 == '>') {
            if (c2 == '>') { if (c3 == '=') R(4, P_USHR_EQ); R(3, P_USHR); }
            if (c2 == '=') R(3, P_SHR_EQ);
            R(2, P_SHR);
        }
        if (c1 == '=') R(2, P_GE);
        R(1, P_GT);
    case '=':
        if (c1 == '=') { if (c2 == '=') R(3, P_SEQ); R(2, P_EQ); }
        if (c1 == '>') R(2, P_ARROW);
        R(1, P_ASSIGN);
    case '!':
        if (c1 == '=') { if (c2 == '=') R(3, P_SNE); R(2, P_NE); }
        R(1, P_BANG);
    case '+':
        if (c1 == '+') R(2, P_INC);
        if (c1 == '=') R(2, P_PLUS_EQ);
        R(1, P_PLUS);
    case '-':
        if (c1 == '-') R(2, P_DEC);
        if (c1 == '=') R(2, P_MINUS_EQ);
        R(1, P_MINUS);
    case '*':
        if (c1 == '*') { if (c2 == '=') R(3, P_STARSTAR_EQ); R(2, P_STARSTAR); }
        if (c1 == '=') R(2, P_STAR_EQ);
        R(1, P_STAR);
    case '/':
        if (c1 == '=') R(2, P_SLASH_EQ);
        R(1, P_SLASH);
    case '%':
        if (c1 == '=') R(2, P_PERCENT_EQ);
        R(1, P_PERCENT);
    case '&':
        if (c1 == '&') { if (c2 == '=') R(3, P_AND_EQ); R(2, P_AND); }
        if (c1 == '=') R(2, P_AMP_EQ);
        R(1, P_AMP);
    case '|':
        if (c1 == '|') { if (c2 == '=') R(3, P_OR_EQ); R(2, P_OR); }
        if (c1 == '=') R(2, P_PIPE_EQ);
        R(1, P_PIPE);
    case '^':
        if (c1 == '=') R(2, P_CARET_EQ);
        R(1, P_CARET);
    case '?':
        if (c1 == '?') { if (c2 == '=') R(3, P_NULLISH_EQ); R(2, P_NULLISH); }
        if (c1 == '.' && !(c2 >= '0' && c2 <= '9')) R(2, P_QDOT);
        R(1, P_QUESTION);
    }
#undef R
    *len = 0;
    return P_NONE;
}

static int scan_punct(struct lexer *lx, const char **msg, uint32_t *epos)
{
    int len;
    int op = punct_op(lx->src + lx->pos, lx->len - lx->pos, &len);
    if (!len) {
        *msg = "Unexpected character";
        *epos = lx->pos;
        return -1;
    }
    lx->tok.type = TK_PUNCT;
    lx->tok.op = (uint16_t)op;
    lx->pos += (uint32_t)len;
    return 0;
}

int lower__lex_next(struct lexer *lx, const char **msg, uint32_t *epos)
{
    int nl = 0;
    struct token *t = &lx->tok;
    if (skip_space(lx, &nl, msg, epos) < 0)
        return -1;
    memset(t, 0, sizeof *t);
    t->nl_before = (uint8_t)nl;
    t->pos = lx->pos;
    t->line = lx->line;
    if (lx->pos >= lx->len) {
        t->type = TK_EOF;
        t->end = lx->pos;
        return 0;
    }
    const unsigned char *s = (const unsigned char *)lx->src;
    unsigned c = s[lx->pos];
    int r;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '\\' ||
        c >= 0x80) {
        r = scan_name(lx, msg, epos);
    } else if ((c >= '0' && c <= '9') ||
               (c == '.' && lx->pos + 1 < lx->len && s[lx->pos + 1] >= '0' && s[lx->pos + 1] <= '9')) {
        r = scan_number(lx, msg, epos);
    } else if (c == '"' || c == '\'') {
        r = scan_string(lx, msg, epos);
    } else if (c == '`') {
        lx->pos++;
        r = scan_template_chars(lx, t->pos, msg, epos);
    } else if (c == '#') {
        lx->pos++;
        if (lx->pos < lx->len && (lower__is_id_start(s[lx->pos]) || s[lx->pos] >= 0x80 || s[lx->pos] == '\\')) {
            r = scan_name(lx, msg, epos);
            t->type = TK_PRIVATE;
            t->kw = 0;
        } else {
            *msg = "Unexpected character '#'";
            *epos = t->pos;
            r = -1;
        }
    } else {
        r = scan_punct(lx, msg, epos);
    }
    t->end = lx->pos;
    return r;
}

int lower__lex_regex(struct lexer *lx, const char **msg, uint32_t *epos)
{
    const char *s = lx->src;
    struct token *t = &lx->tok;
    lx->pos = t->pos + 1;
    int in_class = 0;
    for (;;) {
        if (lx->pos >= lx->len || newline_at(lx, lx->pos)) {
            *msg = "Unterminated regular expression";
            *epos = t->pos;
            return -1;
        }
        char c = s[lx->pos++];
        if (c == '\\') {
            if (lx->pos >= lx->len || newline_at(lx, lx->pos)) {
                *msg = "Unterminated regular expression";
                *epos = t->pos;
                return -1;
            }
            lx->pos++;
        } else if (c == '[') {
            in_class = 1;
        } else if (c == ']') {
            in_class = 0;
        } else if (c == '/' && !in_class) {
            break;
        }
    }
    while (lx->pos < lx->len) {
        uint32_t cp;
        int k = lower__utf8_decode((const unsigned char *)s + lx->pos, lx->len - lx->pos, &cp);
        if (!lower__is_id_part(cp))
            break;
        lx->pos += (uint32_t)k;
    }
    t->type = TK_REGEX;
    t->end = lx->pos;
    return 0;
}

int lower__lex_template_cont(struct lexer *lx, const char **msg, uint32_t *epos)
{
    struct token *t = &lx->tok;
    lx->pos = t->pos + 1;
    uint32_t start = t->pos;
    int nl = t->nl_before, line = t->line;
    memset(t, 0, sizeof *t);
    t->pos = start;
    t->line = line;
    t->nl_before = (uint8_t)nl;
    int r = scan_template_chars(lx, start, msg, epos);
    t->end = lx->pos;
    return r;
}

void lower__lex_save(struct lexer *lx, struct lex_state *s)
{
    s->pos = lx->pos;
    s->line = lx->line;
    s->tok = lx->tok;
}

void lower__lex_restore(struct lexer *lx, const struct lex_state *s)
{
    lx->pos = s->pos;
    lx->line = s->line;
    lx->tok = s->tok;
}
