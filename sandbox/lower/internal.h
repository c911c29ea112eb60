/* Internal declarations shared by the files of the lowering pass
 * (every file of sandbox/lower/): the arena, interned names, tokens, the AST, scopes, and the
 * parser and emitter states. Not part of the public API (see lower.h). */
#ifndef SANDBOX_LOWER_INT_H
#define SANDBOX_LOWER_INT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "sandbox/lower/lower.h"

#define LOWER_MAX_DEPTH 1000             /* nesting levels (parser and emitter) */
#define LOWER_MAX_INPUT (16u << 20)      /* bytes of source */
#define LOWER_MAX_ARENA ((size_t)768 << 20) /* bytes of AST and tables */

/* ---- arena: bump allocation, released all at once ---------------------- */
struct arena_chunk;
struct arena {
    struct arena_chunk *head;
    size_t total;
    int failed; /* an allocation was refused (cap or malloc failure) */
};
struct arena_mark {
    struct arena_chunk *chunk;
    size_t used;
};
/* Returns zeroed memory, or NULL when the cap is reached (failed is set). */
void *lower__arena_alloc(struct arena *a, size_t n);
void lower__arena_free(struct arena *a);
struct arena_mark lower__arena_mark(struct arena *a);
void lower__arena_release(struct arena *a, struct arena_mark m);

/* ---- interned names ----------------------------------------------------- */
struct binding;
struct lname {
    const char *s;
    uint32_t len;
    uint32_t hash;
    uint32_t id;
    int16_t kw;            /* keyword id (KW_*) or 0 */
    struct binding *top;   /* innermost visible binding during resolution */
    struct lname *next;    /* hash bucket chain */
};
struct names {
    struct lname **tab;
    uint32_t mask, count;
    struct arena *arena;
    int has_dollar; /* some source name contains '$': generated names must be checked */
    const char *sep; /* between prefix and counter: "$", or "$e" for eval code */
};
/* A generated name: prefix + sep + counter, unique in the program. */
struct lname *lower__gen_name(struct names *t, const char *prefix, size_t plen, uint32_t *counter);
/* Interns s[0..n); NULL if the arena is exhausted. */
struct lname *lower__intern(struct names *t, const char *s, size_t n);
/* The same with h, the FNV-1a hash of s[0..n) (LOWER_HASH_INIT, LOWER_HASH_STEP). */
struct lname *lower__intern_hashed(struct names *t, const char *s, size_t n, uint32_t h);
#define LOWER_HASH_INIT 2166136261u
#define LOWER_HASH_STEP(h, c) (((h) ^ (unsigned char)(c)) * 16777619u)
/* Looks up without interning. */
struct lname *lower__lookup(struct names *t, const char *s, size_t n);
int lower__names_init(struct names *t, struct arena *a);

enum {
    KW_NONE,
    /* reserved words */
    KW_BREAK, KW_CASE, KW_CATCH, KW_CLASS, KW_CONST, KW_CONTINUE, KW_DEBUGGER, KW_DEFAULT,
    KW_DELETE, KW_DO, KW_ELSE, KW_ENUM, KW_EXPORT, KW_EXTENDS, KW_FALSE, KW_FINALLY, KW_FOR,
    KW_FUNCTION, KW_IF, KW_IMPORT, KW_IN, KW_INSTANCEOF, KW_NEW, KW_NULL, KW_RETURN, KW_SUPER,
    KW_SWITCH, KW_THIS, KW_THROW, KW_TRUE, KW_TRY, KW_TYPEOF, KW_VAR, KW_VOID, KW_WHILE,
    KW_WITH,
    KW_LAST_RESERVED = KW_WITH,
    /* contextual words */
    KW_LET, KW_STATIC, KW_YIELD, KW_AWAIT, KW_ASYNC, KW_OF, KW_GET, KW_SET, KW_FROM, KW_AS,
    KW_SATISFIES, KW_TYPE, KW_INTERFACE, KW_DECLARE, KW_ABSTRACT, KW_PUBLIC, KW_PRIVATE,
    KW_PROTECTED, KW_READONLY, KW_OVERRIDE, KW_IMPLEMENTS, KW_NAMESPACE, KW_MODULE,
    KW_KEYOF, KW_INFER, KW_IS, KW_ASSERTS, KW_UNIQUE, KW_GLOBAL, KW_CONSTRUCTOR,
    KW_ARGUMENTS, KW_UNDEFINED, KW_ACCESSOR, KW_TARGET, KW_OUT,
    KW_COUNT
};

/* ---- tokens -------------------------------------------------------------- */
enum { TK_EOF, TK_NAME, TK_NUM, TK_STR, TK_TEMPLATE, TK_REGEX, TK_PUNCT, TK_PRIVATE };

enum {
    P_NONE,
    P_LBRACE, P_RBRACE, P_LPAREN, P_RPAREN, P_LBRACKET, P_RBRACKET, P_DOT, P_ELLIPSIS,
    P_SEMI, P_COMMA, P_LT, P_GT, P_LE, P_GE, P_EQ, P_NE, P_SEQ, P_SNE, P_PLUS, P_MINUS,
    P_STAR, P_SLASH, P_PERCENT, P_STARSTAR, P_INC, P_DEC, P_SHL, P_SHR, P_USHR, P_AMP,
    P_PIPE, P_CARET, P_BANG, P_TILDE, P_AND, P_OR, P_NULLISH, P_QUESTION, P_QDOT, P_COLON,
    P_ASSIGN, P_PLUS_EQ, P_MINUS_EQ, P_STAR_EQ, P_SLASH_EQ, P_PERCENT_EQ, P_STARSTAR_EQ,
    P_SHL_EQ, P_SHR_EQ, P_USHR_EQ, P_AMP_EQ, P_PIPE_EQ, P_CARET_EQ, P_AND_EQ, P_OR_EQ,
    P_NULLISH_EQ, P_ARROW, P_AT, P_HASH,
    P_COUNT
};
extern const char *const lower__punct_text[P_COUNT];

struct token {
    uint8_t type;
    uint8_t nl_before;   /* a line terminator precedes the token */
    uint8_t escaped;     /* name written with \u escapes (never a keyword) */
    uint8_t tpl_tail;    /* template part ends the template (` rather than ${) */
    uint16_t op;         /* P_* for punctuators */
    int16_t kw;          /* keyword id for unescaped names */
    struct lname *name;  /* TK_NAME, TK_PRIVATE (without '#') */
    uint32_t pos, end;   /* byte offsets */
    int line;            /* line of pos */
};

struct lexer {
    const char *src;
    uint32_t len;
    uint32_t pos;       /* next byte to scan */
    int line;           /* line at pos */
    uint32_t *line_starts; /* offset of each line start, index line-1 */
    int nlines;          /* known lines */
    int line_cap;
    struct names *names;
    struct arena *arena;
    struct token tok;    /* current token */
};
struct lex_state {
    uint32_t pos;
    int line;
    struct token tok;
};

/* ---- AST ----------------------------------------------------------------- */
enum {
    N_PROGRAM, N_VAR, N_DECLARATOR, N_FUNC, N_CLASS, N_CLASS_MEMBER, N_RETURN, N_IF, N_FOR,
    N_FORIN, N_FOROF, N_WHILE, N_DOWHILE, N_BREAK, N_CONTINUE, N_THROW, N_TRY, N_SWITCH,
    N_CASE, N_LABEL, N_BLOCK, N_EXPRSTMT, N_EMPTY, N_DEBUGGER, N_WITH, N_ENUM, N_ENUM_MEMBER,
    N_IDENT, N_THIS, N_SUPER, N_NUM, N_STR, N_TEMPLATE, N_TPL_PART, N_TAGGED, N_REGEX,
    N_ARRAY, N_OBJECT, N_PROP, N_UNARY, N_UPDATE, N_BINARY, N_LOGICAL, N_ASSIGN, N_COND,
    N_CALL, N_NEW, N_MEMBER, N_OPTCHAIN, N_SEQ, N_SPREAD, N_YIELD, N_AWAIT, N_PAREN,
    N_NEWTARGET, N_PRIVNAME, N_HOLE, N_ARRPAT, N_OBJPAT, N_ASSIGNPAT, N_REST, N_LITERAL,
    N_KIND_COUNT
};

/* node flags */
#define NF_COMPUTED   0x0001 /* member/property key is [expr] */
#define NF_OPTIONAL   0x0002 /* ?. on this member or call */
#define NF_STATIC     0x0004 /* class member */
#define NF_PRIVATE    0x0008 /* class member key or member property is #name */
#define NF_PREFIX     0x0010 /* update expression */
#define NF_DELEGATE   0x0020 /* yield* */
#define NF_AWAIT      0x0040 /* for await */
#define NF_SHORTHAND  0x0080 /* property {a} or {a = 1} */
#define NF_DECL       0x0100 /* function/class declaration */
#define NF_TPL_TAIL   0x0200
#define NF_PARAMPROP  0x0400 /* TS parameter property: constructor(private x) */
#define NF_HAS_DEFAULT 0x0800 /* pattern element with default (ASSIGNPAT) */
#define NF_ERASED     0x1000 /* TS-only statement: emits nothing */
#define NF_EXPRBODY   0x2000 /* arrow with expression body */
#define NF_CONST_ENUM 0x4000
#define NF_COMMA_AFTER 0x8000 /* spread element followed by a comma (never a rest) */

/* N_FUNC op bits */
#define FN_ARROW   0x01
#define FN_ASYNC   0x02
#define FN_GEN     0x04
#define FN_METHOD  0x08
#define FN_GETTER  0x10
#define FN_SETTER  0x20
#define FN_CTOR    0x40
#define FN_FIELD   0x80 /* synthetic: class field initialiser context */

/* N_PROP / N_CLASS_MEMBER op */
enum { PK_INIT, PK_GET, PK_SET, PK_METHOD, PK_SPREAD, PK_FIELD, PK_STATIC_BLOCK };
/* N_VAR op */
enum { VK_VAR, VK_LET, VK_CONST };

struct scope;
struct funcinfo;

struct node {
    uint8_t kind;
    uint8_t op;
    uint16_t flags;
    int32_t line;
    uint32_t pos, end;
    struct node *a, *b, *c, *d;
    struct node *next;
    struct lname *name;
    void *x; /* IDENT: binding; FUNC: funcinfo; BLOCK etc: scope */
    void *y; /* THIS/SUPER/NEWTARGET/`arguments`: owning funcinfo; PRIVNAME: member;
              * BREAK: the label it takes (a break leaving a for-of, emit_loop.c) */
};

/* A list of names: on a direct eval's N_CALL (its y), the lexical names a var of
 * the evaluated code must not redeclare. */
struct name_link {
    struct lname *name;
    struct name_link *next;
};

/* A direct eval's call (its y): what the evaluated code may not redeclare, and
 * the function whose this/super/arguments it sees. */
struct eval_info {
    struct name_link *lexicals;
    struct funcinfo *owner;
};

/* ---- scopes ---------------------------------------------------------------- */
enum { SC_FUNC, SC_BLOCK, SC_CATCH, SC_FNAME, SC_CLASS };
enum { BK_VAR, BK_LET, BK_CONST, BK_CLASS, BK_FUNC, BK_PARAM, BK_CATCH, BK_FNAME, BK_BLOCKFN };

#define BF_CAPTURED  0x01 /* referenced from a nested function */
#define BF_FRESH     0x02 /* needs a fresh binding per entry (catch scope) */
#define BF_RENAMED   0x04
#define BF_ASSIGNED  0x08
#define BF_LOOPHEAD  0x10 /* declared in a for(let...;;) head */
#define BF_REASSIGNED 0x20 /* a target after its declaration (=, ++, for-in/of head) */
#define BF_ARRAYINIT 0x40 /* let/const initialised with an array literal */
#define BF_PARAMSHADOW 0x80 /* a body declaration a parameter default does not see (renamed) */
#define BF_TDZ       0x100 /* let/const/class a closure written before it reads: holds __TDZ until declared */

struct binding {
    struct lname *name;
    struct lname *out;      /* emitted name */
    uint8_t kind;
    uint16_t flags;
    struct scope *scope;
    struct binding *next;   /* in scope */
    struct binding *shadow; /* resolution stack */
    struct node *decl;
    struct lname *headcopy; /* for(let) head: the outer copy variable */
};

struct scope {
    uint8_t kind;
    uint8_t in_loop;     /* inside a loop body of its own function */
    uint8_t has_fresh;   /* some binding needs BF_FRESH */
    uint8_t in_catch;    /* inside a user catch clause of its own function */
    struct scope *parent;
    struct funcinfo *fn;
    struct binding *first, *last;
    struct node *node;
    struct scope *all_next;  /* every scope, for the decision pass */
};

#define FI_USES_THIS    0x0001 /* a nested arrow uses this: capture it */
#define FI_USES_ARGS    0x0002
#define FI_HAS_AWAIT    0x0004
#define FI_HAS_YIELD    0x0008
#define FI_USES_NT      0x0010 /* new.target captured */
#define FI_DERIVED_CTOR 0x0020
#define FI_TOP_RETURN   0x0040 /* program: a top-level return exists */
#define FI_PROGRAM      0x0080
#define FI_CLASS_INIT   0x0100 /* field initialisers / static blocks */
#define FI_OWN_THIS     0x0200 /* its own this, arguments, super or new.target is read (or eval) */
#define FI_USES_SUPER   0x0400 /* super.x in it or in its arrows (an object-literal method's home) */
#define FI_ARGS_AT_TOP  0x0800 /* the program reads `arguments` outside any function (eval code) */

struct funcinfo {
    struct funcinfo *parent;
    struct node *node;
    struct scope *scope;
    uint32_t id;
    uint32_t flags;
    struct lname *this_name; /* capture variable, when FI_USES_THIS */
    struct lname *args_name;
    struct lname *nt_name;
    struct lname *raw_this_name; /* derived constructor: its this before super(), for arrows calling super() */
    struct node *cls;        /* enclosing class for methods/ctor/field init */
    int in_params;           /* defined in its parent's parameter list */
    uint32_t super_calls;    /* derived constructor: super(...) calls in it and its arrows */
    uint32_t this_ok_pos;    /* derived constructor: `this` from here on follows a super() statement */
};

/* ---- parser ---------------------------------------------------------------- */
struct lower_ctx;

struct parser {
    struct lexer lx;
    struct lower_ctx *cx;
    int depth;
    int in_func, in_async, in_gen, in_class_body; /* in_class_body: a class's heritage or body (strict) */
    int in_static_block; /* await is reserved (a class static block, not in a nested function) */
    int in_params;       /* in a parameter list (not in a nested function's body) */
    int spec_depth;        /* speculation nesting */
    uint32_t *fail_memo;   /* positions where arrow speculation failed */
    uint32_t fail_mask, fail_count;
    long spec_budget;
    int no_in;             /* parsing a for-init: `in` is not an operator */
    int in_declare;        /* inside a TS `declare` statement (no initialisers, no bodies) */
    uint32_t prev_end;     /* end offset of the previous token */
    int prev_line;
    uint32_t prev_await;   /* 1 + offset of the previous token when it is the name `await`, else 0 */
    uint32_t fn_pos;       /* 1 + offset of the innermost function being parsed, 0 at the top */
    int fn_arrow;          /* that function is an arrow */
    uint32_t awaits;       /* await expressions parsed so far outside nested function bodies */
};

struct lower_ctx {
    const char *src;
    uint32_t len;
    enum lower_mode mode;
    int main_script;         /* MAIN mode retried with `await` an identifier at the top */
    struct arena arena;
    struct names names;
    struct lower_error *err;
    jmp_buf fail;
    uint32_t *line_starts;
    int nlines;
    struct node *program;
    uint32_t next_fn_id;
    /* scope analysis results */
    struct funcinfo *root_fn;
    uint64_t *keyset;        /* (fn id, name id) marks: foreign names */
    uint32_t keyset_mask, keyset_count;
    uint32_t tmp_counter;
    struct scope *scopes;    /* every scope (scope.c) */
    jmp_buf *spec_jmp;       /* active parser speculation, if any */
    struct name_link *eval_privates; /* eval code: #names of the caller's classes it uses */
    struct buf scratch;      /* emitter scratch text, freed by sandbox_lower on any exit */
    struct buf scratch2;
};

/* Raises an error at byte offset pos and longjmps to cx->fail (or to the
 * active speculation). */
void lower__error_at(struct lower_ctx *cx, uint32_t pos, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
/* Out-of-memory error (arena cap reached). */
void lower__oom(struct lower_ctx *cx) __attribute__((noreturn));
/* Line and 1-based column (in code points) of byte offset pos. */
void lower__line_col(struct lower_ctx *cx, uint32_t pos, int *line, int *col);

/* lexer (lex.c) */
void lower__lex_init(struct lexer *lx, const char *src, uint32_t len, struct names *names,
                     struct arena *a);
/* Scans the next token into lx->tok; returns 0 or -1 (message in *msg, at *epos). */
int lower__lex_next(struct lexer *lx, const char **msg, uint32_t *epos);
/* Rescans the current '/' or '/=' token as a regular expression literal. */
int lower__lex_regex(struct lexer *lx, const char **msg, uint32_t *epos);
/* Rescans the current '}' token as the continuation of a template. */
int lower__lex_template_cont(struct lexer *lx, const char **msg, uint32_t *epos);
void lower__lex_save(struct lexer *lx, struct lex_state *s);
void lower__lex_restore(struct lexer *lx, const struct lex_state *s);
int lower__is_id_start(uint32_t cp);
int lower__is_id_part(uint32_t cp);
/* Decodes one UTF-8 code point at s (n readable bytes); returns bytes used (>=1). */
int lower__utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* parser (lower_parse_*.c) */
struct node *lower__parse_program(struct parser *p);
struct node *lower__new_node(struct parser *p, int kind, uint32_t pos, int line);
struct node *lower__parse_statement(struct parser *p);
struct node *lower__parse_expression(struct parser *p);
struct node *lower__parse_cond(struct parser *p);
struct node *lower__parse_lhs_expr(struct parser *p);
struct node *lower__parse_args(struct parser *p);
struct node *lower__parse_prop_key(struct parser *p, struct node *prop, int allow_private);
int lower__is_key_start(struct parser *p);
struct node *lower__parse_template(struct parser *p);
struct node *lower__parse_array(struct parser *p);
struct node *lower__parse_object(struct parser *p);
struct node *lower__parse_assign(struct parser *p);
struct node *lower__parse_function(struct parser *p, int flags, int is_decl, uint32_t pos, int line);
struct node *lower__parse_class(struct parser *p, int is_decl, uint32_t pos, int line);
struct node *lower__parse_binding_target(struct parser *p);
struct node *lower__parse_block(struct parser *p);
struct node *lower__parse_params(struct parser *p, struct node *fn);
struct node *lower__to_pattern(struct parser *p, struct node *n, int binding);
void lower__check_params(struct parser *p, struct node *fn);
void lower__p_next(struct parser *p);
int lower__p_is(struct parser *p, int op);
int lower__p_eat(struct parser *p, int op);
void lower__p_expect(struct parser *p, int op);
int lower__p_is_kw(struct parser *p, int kw);
void lower__p_semicolon(struct parser *p);
void lower__p_enter(struct parser *p);
void lower__p_leave(struct parser *p);
void lower__p_fail(struct parser *p, const char *what) __attribute__((noreturn));
/* The error for `await` (at byte offset pos) outside an async function, naming the
 * enclosing function. */
void lower__p_await_outside_async(struct parser *p, uint32_t pos) __attribute__((noreturn));
struct lname *lower__p_ident(struct parser *p);
void lower__p_peek(struct parser *p, struct token *out);
/* TypeScript (ts.c) */
void lower__ts_skip_type(struct parser *p);
void lower__ts_skip_type_params(struct parser *p);
int lower__ts_try_type_args(struct parser *p);
int lower__ts_skip_annotation(struct parser *p);
struct node *lower__ts_statement(struct parser *p);
struct node *lower__ts_enum(struct parser *p, uint32_t pos, int line, int is_const);
int lower__ts_is_modifier(int kw);
void lower__p_split_gt(struct parser *p);

/* scope analysis (scope.c) */
void lower__analyse(struct lower_ctx *cx);
/* Does function fi (or a function inside it) refer to an outer `name`? */
int lower__is_foreign(struct lower_ctx *cx, struct funcinfo *fi, struct lname *name);

/* emitter (lower_emit*.c) */
int lower__emit_program(struct lower_ctx *cx, struct buf *out);

/* regex (regex.c): lowers a regex literal; appends ES5 text to out */
int lower__regex(struct lower_ctx *cx, const char *s, size_t n, uint32_t pos, struct buf *out);
/* With the u flag: writes the atom at s[i] of the pattern s[0..n) ('.', a character class,
 * \D \W \S, a \u escape, a non-ASCII character) to out as surrogate-pair-aware ES5 and
 * returns the index of its last character, or (size_t)-1 to leave the atom to the caller.
 * pos is the source offset of s[0] (for errors, raised through lower__error_at). */
size_t lower__regex_u_atom(struct lower_ctx *cx, const char *s, size_t n, uint32_t pos,
                           size_t i, int dotall, struct buf *out);

#endif
