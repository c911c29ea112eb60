/* Internal interface of the ES5 emitter of the lowering pass (lower_emit*.c):
 * line-tracking output, temporaries, function and class contexts, and the
 * entry points of each feature group. */
#ifndef SANDBOX_LOWER_EMIT_H
#define SANDBOX_LOWER_EMIT_H

#include "sandbox/lower/internal.h"

struct efn {
    struct efn *parent;
    struct funcinfo *owner; /* whose `this`/`arguments` are native here (NULL: none) */
    struct funcinfo *fi;    /* the source function being emitted */
    struct lname **temps;
    uint32_t ntemps, cap;
    uint8_t is_gen, is_async, is_agen; /* how await/yield lower here */
    int catch_depth;        /* inside catch scopes (block functions become expressions) */
    int strict;             /* strict code (classes, "use strict"): no block functions */
    struct lname *ret_this; /* derived constructor: `return` yields this name */
    struct lname *ret_val;  /* ... deferred: `return v` stores v here and sets ret_ok, and the
                             * constructor's outer finally checks it once the body is left */
    struct lname *ret_ok;
    int loops;              /* loops being emitted around the current point */
};

struct eclass {
    struct eclass *parent;
    struct node *node;
    struct lname *name;      /* the constructor's name inside the class */
    struct lname *super;     /* the parent class variable, or NULL */
    struct lname *init;      /* instance field initialiser function, or NULL */
    struct node *ctor;       /* the explicit constructor function, or NULL */
};

enum { SUB_TEMP, SUB_CALLTHIS };
struct subst {
    struct node *n;
    struct lname *t, *o;
    int kind;
};

struct emit {
    struct lower_ctx *cx;
    struct buf *out;
    const char *src;
    int line;
    char last;
    int last_num;
    int depth;
    struct efn *fn;
    struct eclass *cls;
    struct lname *obj_home;   /* in an object-literal method using super: its own name */
    int eval_super;           /* eval code used super.x (read from the caller's __evalSuper) */
    struct subst subst[64];
    int nsubst;
    struct scope *head_scope; /* emitting a for(let;;) head whose bindings are fresh */
    struct lname *tpl_caches; /* unused marker */
    struct efn *root;
    struct lname *name_hint;
    int raw_target;           /* emitting an update/compound target: no checked private read */  /* the name an anonymous function/class takes (ES name inference) */
    struct node *enum_node;   /* emitting an enum member initialiser */
    int loose;                /* the next expression is an operand of nothing tighter than
                               * `,`/`=`/`?:` (argument, element, initialiser, ...): lowered
                               * forms need no parentheses of their own */
    int stmt_start;           /* no token emitted yet in this expression statement */
    struct lname *enum_name;
    /* array-pattern iterator records the enclosing statement guard closes
     * when the statement throws (emit_pattern.c) */
    struct {
        struct lname *rec;
        struct efn *fn;
    } guard_recs[32];
    int nguard_recs;
};
int lower__e_enum_member_ref(struct emit *E, struct node *id);

/* output */
/* A token (no line terminator in s) on line (0: the current one); a space
 * before it where the previous token would run into it. */
void lower__e_tok(struct emit *E, int line, const char *s, size_t n);
/* The same for source text that may hold line terminators (a string with a
 * line continuation): the lines it spans are counted. */
void lower__e_text(struct emit *E, int line, const char *s, size_t n);
void lower__e_w(struct emit *E, const char *s);
/* Inserts s (no line terminator) at byte off of the output, before text
 * already emitted (the statement guard's `try {`). */
void lower__e_insert(struct emit *E, size_t off, const char *s);
void lower__e_name(struct emit *E, int line, struct lname *n);
void lower__e_src(struct emit *E, struct node *n);
void lower__e_dot(struct emit *E, int line, struct lname *n);
void lower__e_key(struct emit *E, int line, struct lname *n);
void lower__e_enter(struct emit *E, struct node *n);
void lower__e_leave(struct emit *E);
struct lname *lower__e_tmp(struct emit *E);
/* a temporary declared in the outermost function (template caches) */
struct lname *lower__e_root_tmp(struct emit *E);
struct lname *lower__e_tmp_name(struct emit *E);
void lower__e_error(struct emit *E, struct node *n, const char *msg) __attribute__((noreturn));

/* contexts */
void lower__e_push_fn(struct emit *E, struct efn *f, struct funcinfo *owner, struct funcinfo *fi);
void lower__e_pop_fn(struct emit *E);
void lower__e_declare_temps(struct emit *E, struct efn *f);
void lower__e_prologue(struct emit *E, struct funcinfo *fi);

/* statements (emit.c) */
void lower__e_stmt(struct emit *E, struct node *n);
void lower__e_stmts(struct emit *E, struct node *first);
void lower__e_block_body(struct emit *E, struct node *block, struct node *before_first);
void lower__e_fresh_open(struct emit *E, struct scope *s, int line);
/* Does this binding hold __TDZ until declared (BF_TDZ, not a per-iteration copy)? */
int lower__e_tdz_checked(const struct binding *b);
/* ` x = __TDZ;` for the scope's BF_TDZ bindings, at its start. */
void lower__e_tdz_init(struct emit *E, struct scope *s);
void lower__e_fresh_close(struct emit *E, struct scope *s, int line);
void lower__e_var(struct emit *E, struct node *n, int in_for_head);

/* expressions (emit_expr.c) */
void lower__e_expr(struct emit *E, struct node *n);
/* The same, where any expression but a comma sequence may stand unparenthesised. */
void lower__e_expr_loose(struct emit *E, struct node *n);
void lower__e_ident(struct emit *E, struct node *n);
void lower__e_this(struct emit *E, struct node *n);
void lower__e_args_array(struct emit *E, struct node *first, int line);
int lower__has_spread(struct node *first);
void lower__e_member_suffix(struct emit *E, struct node *m);
/* Opens `__pset(obj, key, ` for an assignment to the private member m (o.#x =
 * v: o, then v, then the check, as PutValue has it); the caller writes the value and `)`. */
void lower__e_private_set_open(struct emit *E, struct node *m);
void lower__e_prop_key_string(struct emit *E, struct node *key, int computed);
void lower__e_template_string(struct emit *E, struct node *part, int raw);
/* literals (emit_lit.c) */
void lower__e_number(struct emit *E, struct node *n);
void lower__e_string(struct emit *E, struct node *n);
void lower__e_template(struct emit *E, struct node *n, int loose);
void lower__e_tagged(struct emit *E, struct node *n);
void lower__e_array(struct emit *E, struct node *n);
void lower__e_object(struct emit *E, struct node *n);

/* functions (emit_func.c) */
void lower__e_function(struct emit *E, struct node *fn, struct lname *name_override);
void lower__e_function_decl(struct emit *E, struct node *fn);
void lower__e_params(struct emit *E, struct node *fn);
int lower__e_is_strict_body(struct emit *E, struct node *first);
void lower__e_param_init(struct emit *E, struct node *fn);

/* classes and enums (emit_class.c) */
void lower__e_class(struct emit *E, struct node *c);
void lower__e_enum(struct emit *E, struct node *n);
void lower__e_super_member(struct emit *E, struct node *m, int for_call);
/* super.x = value (m: the super member). */
void lower__e_super_set(struct emit *E, struct node *m, struct node *value);
/* `(__evalSuper = <super's object>, ` for a direct eval in function o, when its
 * code may use super; returns whether it wrote it. */
int lower__e_eval_super(struct emit *E, struct funcinfo *o);
/* A binding assignment to which is a TypeError: a const, or a class's own name
 * inside its body. */
static inline int lower__e_is_const_binding(const struct binding *b)
{
    return b && (b->kind == BK_CONST || (b->kind == BK_CLASS && b->scope->kind == SC_CLASS));
}
/* __evalPriv_<name>: the caller's variable holding a #name's key, for eval code. */
struct lname *lower__e_eval_private(struct emit *E, struct lname *name);

/* patterns (emit_pattern.c) */
/* Emits `a = ..., b = ...` binding the pattern to the value in temp src. */
void lower__e_pattern(struct emit *E, struct node *pat, struct lname *src, int decl, int *first);
/* Emits `...` binding the pattern to the value of expr (through a temporary
 * only where one is needed). */
void lower__e_pattern_from(struct emit *E, struct node *pat, struct node *expr, int decl,
                           int *first);
/* Statement guard: opened before a statement is emitted and closed after it;
 * when the statement holds array patterns whose targets or defaults may
 * throw, it becomes `try { STMT } catch ($e) { __adx($e, $r...) }` so the
 * iterators they left open are closed (IteratorClose) before the error goes
 * on. Guards nest; a record of another function is not closed. */
struct lower_guard {
    size_t off;
    int base;
    struct efn *fn;
};
void lower__e_guard_open(struct emit *E, struct lower_guard *g);
void lower__e_guard_close(struct emit *E, struct lower_guard *g);
/* Emits a destructuring assignment expression whose value is the right side. */
void lower__e_destructure_assign(struct emit *E, struct node *assign, int want_value);
void lower__e_bind_target(struct emit *E, struct node *target, int decl);

/* loops (emit_loop.c) */
void lower__e_loop(struct emit *E, struct node *n, struct node *labels);

#endif
