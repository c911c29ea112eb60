/* The ES5 emitter core: line-preserving output (a token never moves before
 * its source line; newlines are only added to reach it, with the source
 * line's indentation), temporaries declared at the end of their function,
 * statements, blocks with fresh per-entry bindings (catch scopes), and the
 * program wrapper of LOWER_MODE_MAIN. */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/emit.h"

/* ---- output ------------------------------------------------------------------ */

/* [A-Za-z0-9_$\\] and any byte of a multi-byte character: two adjacent
 * tokens starting/ending with these need a space between them. */
static inline int is_word_char(unsigned c)
{
    static const uint64_t lo = (1ull << '$') | (0x3ffull << '0');
    static const uint64_t hi = (0x3ffffffull << ('A' - 64)) | (1ull << ('\\' - 64)) |
                               (1ull << ('_' - 64)) | (0x3ffffffull << ('a' - 64));
    return c >= 128 || (((c < 64 ? lo >> c : hi >> (c - 64))) & 1);
}

static void out_slow(struct emit *E, const char *s, size_t n)
{
    if (buf_append(E->out, s, n) < 0)
        lower__error_at(E->cx, 0, "Output too large");
}

/* Appends n bytes. */
static inline void out_raw(struct emit *E, const char *s, size_t n)
{
    struct buf *b = E->out;
    if (!b->data || b->cap - b->len <= n || b->limit) {
        out_slow(E, s, n);
        return;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

/* Counts the line terminators of an emitted token (source text only has
 * them: strings with line continuations). */
static void count_lines(struct emit *E, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\n')
            E->line++;
        else if (s[i] == '\r' && !(i + 1 < n && s[i + 1] == '\n'))
            E->line++;
}

static void goto_line(struct emit *E, int line)
{
    while (E->line < line) {
        out_raw(E, "\n", 1);
        E->line++;
        /* indentation of the source line */
        if (E->line - 1 < E->cx->nlines) {
            uint32_t p = E->cx->line_starts[E->line - 1], q = p;
            while (q < E->cx->len && (E->src[q] == ' ' || E->src[q] == '\t') && q - p < 80)
                q++;
            if (E->line == line && q > p)
                out_raw(E, E->src + p, q - p);
        }
        E->last = ' ';
        E->last_num = 0;
    }
}

void lower__e_tok(struct emit *E, int line, const char *s, size_t n)
{
    if (line > E->line)
        goto_line(E, line);
    if (!n)
        return;
    E->stmt_start = 0;
    unsigned char c0 = (unsigned char)s[0], l = (unsigned char)E->last;
    int space = (is_word_char(l) && is_word_char(c0)) ||
                (l == c0 && (l == '+' || l == '-')) || (l == '/' && (c0 == '/' || c0 == '*')) ||
                (E->last_num && c0 == '.') || (l == '<' && c0 == '!');
    struct buf *b = E->out;
    if (!b->data || b->cap - b->len <= n + 1 || b->limit) {
        if (space)
            out_slow(E, " ", 1);
        out_slow(E, s, n);
    } else {
        char *d = b->data + b->len;
        if (space)
            *d++ = ' ';
        if (n <= 8) {
            for (size_t i = 0; i < n; i++)
                d[i] = s[i];
        } else {
            memcpy(d, s, n);
        }
        d[n] = 0;
        b->len = (size_t)(d + n - b->data);
    }
    E->last = s[n - 1];
    E->last_num = 0;
}

void lower__e_insert(struct emit *E, size_t off, const char *s)
{
    size_t n = strlen(s);
    struct buf *b = E->out;
    size_t tail = b->len - off;
    out_slow(E, s, n); /* grows the buffer by n */
    memmove(b->data + off + n, b->data + off, tail);
    memcpy(b->data + off, s, n);
}

void lower__e_text(struct emit *E, int line, const char *s, size_t n)
{
    lower__e_tok(E, line, s, n);
    count_lines(E, s, n);
}

void lower__e_w(struct emit *E, const char *s)
{
    lower__e_tok(E, 0, s, strlen(s));
}

void lower__e_name(struct emit *E, int line, struct lname *n)
{
    lower__e_tok(E, line, n->s, n->len);
}

/* Emits a token's source text (literals), keeping embedded newlines. */
static int ascii_name(const struct lname *n)
{
    for (uint32_t i = 0; i < n->len; i++)
        if ((unsigned char)n->s[i] >= 0x80)
            return 0;
    return 1;
}

/* `.name`, or `["name"]` for names Duktape's ES5 tokenizer may refuse
 * (non-ASCII identifier characters). */
void lower__e_dot(struct emit *E, int line, struct lname *n)
{
    if (ascii_name(n)) {
        lower__e_tok(E, line, ".", 1);
        lower__e_name(E, line, n);
        return;
    }
    lower__e_tok(E, line, "[\"", 2);
    lower__e_tok(E, 0, n->s, n->len);
    lower__e_w(E, "\"]");
}

/* A property key in a literal: the name, or "name" when not ASCII. */
void lower__e_key(struct emit *E, int line, struct lname *n)
{
    if (ascii_name(n)) {
        lower__e_name(E, line, n);
        return;
    }
    lower__e_tok(E, line, "\"", 1);
    lower__e_tok(E, 0, n->s, n->len);
    lower__e_w(E, "\"");
}

void lower__e_src(struct emit *E, struct node *n)
{
    lower__e_text(E, n->line, E->src + n->pos, n->end - n->pos);
}

void lower__e_enter(struct emit *E, struct node *n)
{
    if (++E->depth > LOWER_MAX_DEPTH * 4)
        lower__error_at(E->cx, n ? n->pos : 0, "Nesting too deep");
}

void lower__e_leave(struct emit *E)
{
    E->depth--;
}

void lower__e_error(struct emit *E, struct node *n, const char *msg)
{
    lower__error_at(E->cx, n ? n->pos : 0, "%s", msg);
}

/* ---- temporaries ---------------------------------------------------------- */

static struct lname *new_tmp_name(struct emit *E)
{
    struct lname *n = lower__gen_name(&E->cx->names, "", 0, &E->cx->tmp_counter);
    if (!n)
        lower__oom(E->cx);
    return n;
}

static void add_temp(struct emit *E, struct efn *f, struct lname *n)
{
    if (f->ntemps == f->cap) {
        uint32_t ncap = f->cap ? f->cap * 2 : 8;
        struct lname **nt = lower__arena_alloc(&E->cx->arena, ncap * sizeof *nt);
        if (!nt)
            lower__oom(E->cx);
        if (f->ntemps)
            memcpy(nt, f->temps, f->ntemps * sizeof *nt);
        f->temps = nt;
        f->cap = ncap;
    }
    f->temps[f->ntemps++] = n;
}

struct lname *lower__e_tmp(struct emit *E)
{
    struct lname *n = new_tmp_name(E);
    add_temp(E, E->fn, n);
    return n;
}

/* A fresh name that is not declared (a parameter, a catch binding). */
struct lname *lower__e_tmp_name(struct emit *E)
{
    return new_tmp_name(E);
}

struct lname *lower__e_root_tmp(struct emit *E)
{
    struct lname *n = new_tmp_name(E);
    add_temp(E, E->root, n);
    return n;
}

void lower__e_declare_temps(struct emit *E, struct efn *f)
{
    if (!f->ntemps)
        return;
    lower__e_w(E, " var ");
    for (uint32_t i = 0; i < f->ntemps; i++) {
        if (i)
            lower__e_w(E, ", ");
        lower__e_name(E, 0, f->temps[i]);
    }
    lower__e_w(E, ";");
}

void lower__e_push_fn(struct emit *E, struct efn *f, struct funcinfo *owner, struct funcinfo *fi)
{
    memset(f, 0, sizeof *f);
    f->parent = E->fn;
    f->owner = owner;
    f->fi = fi;
    f->strict = E->fn ? E->fn->strict : 0;
    E->fn = f;
}

void lower__e_pop_fn(struct emit *E)
{
    E->fn = E->fn->parent;
}

static struct lname *capture_name(struct emit *E, struct lname **slot)
{
    if (!*slot)
        *slot = new_tmp_name(E);
    return *slot;
}

/* `var $this = this, $args = arguments;` for captures by nested arrows. */
void lower__e_prologue(struct emit *E, struct funcinfo *fi)
{
    if (!fi)
        return;
    if (fi->flags & FI_DERIVED_CTOR) {
        lower__e_w(E, " var ");
        lower__e_name(E, 0, capture_name(E, &fi->this_name));
        if (fi->flags & FI_USES_THIS) {
            /* an arrow may call super() */
            lower__e_w(E, ", ");
            lower__e_name(E, 0, capture_name(E, &fi->raw_this_name));
            lower__e_w(E, " = this");
        }
        lower__e_w(E, ";");
    } else if (fi->flags & FI_USES_THIS) {
        lower__e_w(E, " var ");
        lower__e_name(E, 0, capture_name(E, &fi->this_name));
        lower__e_w(E, " = this;");
    }
    if (fi->flags & FI_USES_ARGS) {
        lower__e_w(E, " var ");
        lower__e_name(E, 0, capture_name(E, &fi->args_name));
        lower__e_w(E, " = arguments;");
    }
    if (fi->flags & FI_USES_NT) {
        lower__e_w(E, " var ");
        lower__e_name(E, 0, capture_name(E, &fi->nt_name));
        lower__e_w(E, " = new.target;");
    }
}

/* ---- fresh bindings (catch scopes) ------------------------------------------ */

int lower__e_tdz_checked(const struct binding *b)
{
    return (b->flags & BF_TDZ) && !b->headcopy;
}

void lower__e_tdz_init(struct emit *E, struct scope *s)
{
    if (!s)
        return;
    for (struct binding *b = s->first; b; b = b->next) {
        if (!lower__e_tdz_checked(b) || (b->flags & BF_FRESH))
            continue; /* a fresh binding starts as __TDZ (lower__e_fresh_open) */
        lower__e_w(E, " ");
        lower__e_name(E, 0, b->out);
        lower__e_w(E, " = __TDZ;");
    }
}

void lower__e_fresh_open(struct emit *E, struct scope *s, int line)
{
    lower__e_tdz_init(E, s);
    if (!s || !s->has_fresh)
        return;
    for (struct binding *b = s->first; b; b = b->next) {
        if (!(b->flags & BF_FRESH))
            continue;
        if (lower__e_tdz_checked(b))
            lower__e_tok(E, line, "try { throw __TDZ; } catch (", 28);
        else
            lower__e_tok(E, line, "try { throw void 0; } catch (", 29);
        lower__e_name(E, 0, b->out);
        lower__e_w(E, ") {");
    }
    E->fn->catch_depth++;
}

void lower__e_fresh_close(struct emit *E, struct scope *s, int line)
{
    if (!s || !s->has_fresh)
        return;
    for (struct binding *b = s->first; b; b = b->next)
        if (b->flags & BF_FRESH)
            lower__e_tok(E, line, "}", 1);
    E->fn->catch_depth--;
}

/* ---- declarations ---------------------------------------------------------- */

static int pattern_has_fresh(struct node *pat)
{
    if (!pat)
        return 0;
    switch (pat->kind) {
    case N_IDENT:
        return pat->x && (((struct binding *)pat->x)->flags & BF_FRESH);
    case N_ASSIGNPAT:
    case N_REST:
        return pattern_has_fresh(pat->a);
    case N_ARRPAT:
        for (struct node *e = pat->a; e; e = e->next)
            if (pattern_has_fresh(e))
                return 1;
        return 0;
    case N_OBJPAT:
        for (struct node *e = pat->a; e; e = e->next)
            if (pattern_has_fresh(e->kind == N_REST ? e->a : e->b))
                return 1;
        return 0;
    }
    return 0;
}

/* Non-fresh names of a declaration emitted without `var` are declared at
 * the end of the function instead. */
static void hoist_pattern_names(struct emit *E, struct node *pat)
{
    if (!pat)
        return;
    switch (pat->kind) {
    case N_IDENT:
        if (pat->x && !(((struct binding *)pat->x)->flags & BF_FRESH))
            add_temp(E, E->fn, ((struct binding *)pat->x)->out);
        return;
    case N_ASSIGNPAT:
    case N_REST:
        hoist_pattern_names(E, pat->a);
        return;
    case N_ARRPAT:
        for (struct node *e = pat->a; e; e = e->next)
            hoist_pattern_names(E, e);
        return;
    case N_OBJPAT:
        for (struct node *e = pat->a; e; e = e->next)
            hoist_pattern_names(E, e->kind == N_REST ? e->a : e->b);
        return;
    }
}

void lower__e_var(struct emit *E, struct node *n, int in_for_head)
{
    int fresh = 0;
    if (n->op != VK_VAR)
        for (struct node *d = n->a; d; d = d->next)
            fresh |= pattern_has_fresh(d->a);
    if (fresh) {
        for (struct node *d = n->a; d; d = d->next)
            hoist_pattern_names(E, d->a);
    } else {
        lower__e_tok(E, n->line, "var", 3);
        lower__e_w(E, " ");
    }
    int first = 1;
    for (struct node *d = n->a; d; d = d->next) {
        if (d->a->kind == N_IDENT) {
            if (!first)
                lower__e_w(E, ", ");
            first = 0;
            lower__e_ident(E, d->a);
            struct binding *b = d->a->x;
            if (d->b) {
                lower__e_w(E, " = ");
                E->name_hint = d->a->name;
                lower__e_expr_loose(E, d->b);
                E->name_hint = NULL;
            } else if (n->op == VK_LET && !in_for_head && b && b->scope->in_loop &&
                       !(b->flags & BF_FRESH)) {
                lower__e_w(E, " = void 0");
            } else if (n->op == VK_LET && b && lower__e_tdz_checked(b)) {
                lower__e_w(E, " = void 0");
            } else if (n->op == VK_LET && in_for_head && b && b->scope->in_loop) {
                /* for (let i; ...) met again (an outer loop) starts undefined */
                lower__e_w(E, " = void 0");
            } else if (fresh && b && !(b->flags & BF_FRESH)) {
                lower__e_w(E, " = void 0");
            }
            continue;
        }
        lower__e_tok(E, d->line, "", 0);
        lower__e_pattern_from(E, d->a, d->b, 1, &first);
    }
    if (fresh && first)
        lower__e_w(E, "void 0");
}

/* ---- statements ------------------------------------------------------------- */

void lower__e_stmts(struct emit *E, struct node *first)
{
    for (struct node *s = first; s; s = s->next)
        lower__e_stmt(E, s);
}

/* Statements of a block, inside its fresh-binding catch scopes. */
void lower__e_block_body(struct emit *E, struct node *block, struct node *before_first)
{
    struct scope *s = block->x;
    lower__e_fresh_open(E, s, block->line);
    (void)before_first;
    lower__e_stmts(E, block->a);
    lower__e_fresh_close(E, s, block->d ? block->d->line : 0);
}

static void e_block(struct emit *E, struct node *b)
{
    lower__e_tok(E, b->line, "{", 1);
    lower__e_block_body(E, b, NULL);
    lower__e_tok(E, b->d ? b->d->line : 0, "}", 1);
}

static int is_generator_ctx(struct emit *E)
{
    return E->fn->is_gen || E->fn->is_agen;
}

static void e_try(struct emit *E, struct node *n)
{
    lower__e_tok(E, n->line, "try", 3);
    e_block(E, n->a);
    if (n->c) {
        struct lname *pn;
        lower__e_tok(E, n->c->line, "catch (", 7);
        if (n->b && n->b->kind == N_IDENT)
            pn = ((struct binding *)n->b->x)->out;
        else
            pn = lower__e_tmp_name(E);
        lower__e_name(E, 0, pn);
        lower__e_w(E, ") {");
        E->fn->catch_depth++;
        if (is_generator_ctx(E)) {
            lower__e_w(E, " __gcatch(");
            lower__e_name(E, 0, pn);
            lower__e_w(E, ");");
        }
        struct scope *cs = n->x;
        lower__e_fresh_open(E, cs, n->c->line);
        if (n->b && n->b->kind != N_IDENT) {
            struct lower_guard guard;
            lower__e_guard_open(E, &guard);
            int first = 1;
            int fresh = pattern_has_fresh(n->b);
            if (!fresh)
                lower__e_w(E, " var ");
            else
                hoist_pattern_names(E, n->b);
            lower__e_pattern(E, n->b, pn, 1, &first);
            lower__e_w(E, ";");
            lower__e_guard_close(E, &guard);
        }
        lower__e_block_body(E, n->c, NULL);
        lower__e_fresh_close(E, cs, n->c->d->line);
        E->fn->catch_depth--;
        lower__e_tok(E, n->c->d->line, "}", 1);
    }
    if (n->d) {
        lower__e_tok(E, n->d->line, "finally", 7);
        e_block(E, n->d);
    }
}

static void e_switch(struct emit *E, struct node *n)
{
    struct scope *s = n->x;
    lower__e_fresh_open(E, s, n->line);
    lower__e_tok(E, n->line, "switch (", 8);
    lower__e_expr(E, n->a);
    lower__e_w(E, ") {");
    for (struct node *c = n->b; c; c = c->next) {
        if (c->a) {
            lower__e_tok(E, c->line, "case", 4);
            lower__e_w(E, " ");
            lower__e_expr(E, c->a);
            lower__e_w(E, ":");
        } else {
            lower__e_tok(E, c->line, "default:", 8);
        }
        lower__e_stmts(E, c->b);
    }
    lower__e_tok(E, n->c->line, "}", 1);
    lower__e_fresh_close(E, s, n->c->line);
}

static void e_return(struct emit *E, struct node *n)
{
    lower__e_tok(E, n->line, "return", 6);
    if (E->fn->ret_val) {
        /* return void ($rv = v, $ok = 1); */
        lower__e_w(E, " void (");
        lower__e_name(E, 0, E->fn->ret_val);
        lower__e_w(E, " = ");
        if (n->a)
            lower__e_expr_loose(E, n->a);
        else
            lower__e_w(E, "void 0");
        lower__e_w(E, ", ");
        lower__e_name(E, 0, E->fn->ret_ok);
        lower__e_w(E, " = 1)");
    } else if (n->a && E->fn->ret_this) {
        /* a derived constructor returns an object, or this (undefined), else TypeError */
        lower__e_w(E, " __ctorRet(");
        lower__e_expr_loose(E, n->a);
        lower__e_w(E, ", ");
        lower__e_name(E, 0, E->fn->ret_this);
        lower__e_w(E, ")");
    } else if (n->a) {
        int paren = n->a->line != n->line;
        lower__e_w(E, paren ? " (" : " ");
        lower__e_expr_loose(E, n->a);
        if (paren)
            lower__e_w(E, ")");
    } else if (E->fn->ret_this) {
        lower__e_w(E, " __thisInit(");
        lower__e_name(E, 0, E->fn->ret_this);
        lower__e_w(E, ")");
    }
    lower__e_w(E, ";");
}

static void e_label(struct emit *E, struct node *n)
{
    struct node *inner = n;
    while (inner->kind == N_LABEL)
        inner = inner->a;
    if (inner->kind == N_FOR || inner->kind == N_FORIN || inner->kind == N_FOROF ||
        inner->kind == N_WHILE || inner->kind == N_DOWHILE) {
        lower__e_loop(E, inner, n);
        return;
    }
    for (struct node *l = n; l->kind == N_LABEL; l = l->a) {
        lower__e_name(E, l->line, l->name);
        lower__e_w(E, ": ");
    }
    lower__e_stmt(E, inner);
}

static void e_class_decl(struct emit *E, struct node *n)
{
    struct binding *b = n->a->x;
    if (b && (b->flags & BF_FRESH)) {
        lower__e_name(E, n->line, b->out);
    } else {
        lower__e_tok(E, n->line, "var", 3);
        lower__e_w(E, " ");
        lower__e_name(E, 0, b ? b->out : n->a->name);
    }
    lower__e_w(E, " = ");
    lower__e_class(E, n);
    lower__e_w(E, ";");
}

void lower__e_stmt(struct emit *E, struct node *n)
{
    /* leaf statements close the iterators of their array patterns on a throw */
    struct lower_guard guard;
    int guarded = n->kind == N_EXPRSTMT || n->kind == N_VAR || n->kind == N_RETURN ||
                  n->kind == N_THROW;
    if (guarded)
        lower__e_guard_open(E, &guard);
    lower__e_enter(E, n);
    switch (n->kind) {
    case N_EXPRSTMT: {
        struct node *x = n->a;
        while (x->kind == N_PAREN)
            x = x->a;
        if (x->kind == N_ASSIGN && (x->a->kind == N_ARRPAT || x->a->kind == N_OBJPAT))
            lower__e_destructure_assign(E, x, 0);
        else {
            E->stmt_start = 1;
            lower__e_expr(E, n->a);
            E->stmt_start = 0;
        }
        lower__e_w(E, ";");
        break;
    }
    case N_VAR:
        lower__e_var(E, n, 0);
        lower__e_w(E, ";");
        break;
    case N_FUNC:
        if (!(n->flags & NF_ERASED))
            lower__e_function_decl(E, n);
        break;
    case N_CLASS:
        e_class_decl(E, n);
        break;
    case N_RETURN:
        e_return(E, n);
        break;
    case N_IF:
        lower__e_tok(E, n->line, "if (", 4);
        lower__e_expr(E, n->a);
        lower__e_w(E, ")");
        lower__e_stmt(E, n->b);
        if (n->c) {
            lower__e_w(E, " else");
            lower__e_stmt(E, n->c);
        }
        break;
    case N_FOR: case N_FORIN: case N_FOROF: case N_WHILE: case N_DOWHILE:
        lower__e_loop(E, n, NULL);
        break;
    case N_LABEL:
        e_label(E, n);
        break;
    case N_BREAK:
    case N_CONTINUE:
        lower__e_tok(E, n->line, n->kind == N_BREAK ? "break" : "continue", n->kind == N_BREAK ? 5 : 8);
        if (n->y || n->name) { /* y: a for-of's own label (emit_loop.c) */
            lower__e_w(E, " ");
            lower__e_name(E, 0, n->y ? (struct lname *)n->y : n->name);
        }
        lower__e_w(E, ";");
        break;
    case N_THROW:
        lower__e_tok(E, n->line, "throw", 5);
        lower__e_w(E, " ");
        lower__e_expr(E, n->a);
        lower__e_w(E, ";");
        break;
    case N_TRY:
        e_try(E, n);
        break;
    case N_SWITCH:
        e_switch(E, n);
        break;
    case N_BLOCK:
        e_block(E, n);
        break;
    case N_EMPTY:
        if (!(n->flags & NF_ERASED))
            lower__e_tok(E, n->line, ";", 1);
        break;
    case N_DEBUGGER:
        lower__e_tok(E, n->line, "debugger;", 9);
        break;
    case N_WITH:
        lower__e_tok(E, n->line, "with (", 6);
        lower__e_expr(E, n->a);
        lower__e_w(E, ")");
        lower__e_stmt(E, n->b);
        break;
    case N_ENUM:
        lower__e_enum(E, n);
        break;
    default:
        lower__e_error(E, n, "Internal error: unexpected statement");
    }
    if (guarded)
        lower__e_guard_close(E, &guard);
    lower__e_leave(E);
}

/* ---- program ------------------------------------------------------------------ */

static int ignorable(struct node *s)
{
    return (s->kind == N_EMPTY) || (s->kind == N_FUNC && (s->flags & NF_DECL)) ||
           (s->kind == N_FUNC && (s->flags & NF_ERASED));
}

static struct node *unparen(struct node *n)
{
    while (n->kind == N_PAREN)
        n = n->a;
    return n;
}

/* An expression whose ES5 form is never a call (so `return EXPR` is no tail
 * call and needs no temporary): a name, a literal, an object literal
 * without spread. */
static int never_a_call(struct node *n)
{
    n = unparen(n);
    if (n->kind == N_IDENT)
        return n->op != 1 && n->x;
    if (n->kind == N_NUM || n->kind == N_STR || n->kind == N_LITERAL || n->kind == N_THIS)
        return 1;
    if (n->kind != N_OBJECT)
        return 0;
    for (struct node *p = n->a; p; p = p->next)
        if (p->op == PK_SPREAD || (p->flags & NF_COMPUTED) || !never_a_call(p->b))
            return 0;
    return 1;
}

static void emit_main(struct emit *E, struct node *prog)
{
    struct funcinfo *root = prog->x;
    struct node *last = NULL, *only = NULL;
    int count = 0;
    for (struct node *s = prog->a; s; s = s->next) {
        if (!(s->kind == N_EMPTY))
            count++, only = s;
        if (!ignorable(s))
            last = s;
    }
    if (count != 1)
        only = NULL;
    lower__e_tok(E, 1, "(function () {", 14);
    if (E->fn->strict)
        lower__e_w(E, " \"use strict\";");
    lower__e_prologue(E, root);
    lower__e_tdz_init(E, root->scope);
    for (struct node *s = prog->a; s; s = s->next) {
        struct lower_guard guard;
        lower__e_guard_open(E, &guard);
        /* `return ($r = EXPR, $r)`: not a tail call, so the program's frame
         * stays on the stack (errors raised in a callee blame this line) */
        if (s == only && s->kind == N_EXPRSTMT && unparen(s->a)->kind == N_FUNC &&
            !(root->flags & FI_TOP_RETURN)) {
            struct lname *r = lower__e_tmp(E);
            lower__e_tok(E, s->line, "return (", 8);
            lower__e_name(E, 0, r);
            lower__e_w(E, " = (");
            lower__e_expr(E, s->a);
            lower__e_w(E, ")(), ");
            lower__e_name(E, 0, r);
            lower__e_w(E, ");");
        } else if (s == last && s->kind == N_EXPRSTMT && !(root->flags & FI_TOP_RETURN) &&
                   never_a_call(s->a)) {
            lower__e_tok(E, s->line, "return ", 7);
            lower__e_expr_loose(E, s->a);
            lower__e_w(E, ";");
        } else if (s == last && s->kind == N_EXPRSTMT && !(root->flags & FI_TOP_RETURN)) {
            struct lname *r = lower__e_tmp(E);
            lower__e_tok(E, s->line, "return (", 8);
            lower__e_name(E, 0, r);
            lower__e_w(E, " = ");
            if (s->a->kind == N_ASSIGN && (s->a->a->kind == N_ARRPAT || s->a->a->kind == N_OBJPAT))
                lower__e_destructure_assign(E, s->a, 1);
            else
                lower__e_expr(E, s->a);
            lower__e_w(E, ", ");
            lower__e_name(E, 0, r);
            lower__e_w(E, ");");
        } else {
            lower__e_stmt(E, s);
        }
        lower__e_guard_close(E, &guard);
    }
    if (only && only->kind == N_FUNC && (only->flags & NF_DECL) && !(root->flags & FI_TOP_RETURN)) {
        struct lname *r = lower__e_tmp(E);
        lower__e_w(E, " return (");
        lower__e_name(E, 0, r);
        lower__e_w(E, " = ");
        lower__e_name(E, 0, ((struct binding *)only->a->x) ? ((struct binding *)only->a->x)->out
                                                           : only->a->name);
        lower__e_w(E, "(), ");
        lower__e_name(E, 0, r);
        lower__e_w(E, ");");
    }
    goto_line(E, prog->d->line);
    lower__e_declare_temps(E, E->root);
    lower__e_w(E, " })");
}

int lower__emit_program(struct lower_ctx *cx, struct buf *out)
{
    struct emit E;
    struct efn root;
    memset(&E, 0, sizeof E);
    E.cx = cx;
    E.out = out;
    E.src = cx->src;
    E.line = 1;
    E.last = ' ';
    struct node *prog = cx->program;
    lower__e_push_fn(&E, &root, prog->x, prog->x);
    E.root = &root;
    if (cx->mode == LOWER_MODE_MAIN) {
        root.is_async = 1;
        root.strict = lower__e_is_strict_body(&E, prog->a);
        emit_main(&E, prog);
    } else {
        root.strict = lower__e_is_strict_body(&E, prog->a);
        lower__e_prologue(&E, prog->x);
        lower__e_tdz_init(&E, ((struct funcinfo *)prog->x)->scope);
        lower__e_stmts(&E, prog->a);
        goto_line(&E, prog->d->line);
        lower__e_declare_temps(&E, &root);
        if (cx->mode == LOWER_MODE_EVAL) {
            /* the names its vars and functions declare, for __evalCode to check
             * against the caller's lexical names; always last in the text */
            struct funcinfo *fi = prog->x;
            lower__e_w(&E, " /*@vars");
            for (struct binding *b = fi->scope->first; b; b = b->next) {
                if (b->kind != BK_VAR && b->kind != BK_FUNC)
                    continue;
                lower__e_w(&E, " ");
                lower__e_tok(&E, 0, b->name->s, b->name->len);
            }
            /* and whether it uses super.x, or arguments outside a function */
            if (E.eval_super)
                lower__e_w(&E, " @super");
            if (fi->flags & FI_ARGS_AT_TOP)
                lower__e_w(&E, " @args");
            for (struct name_link *l = cx->eval_privates; l; l = l->next) {
                lower__e_w(&E, " @#");
                lower__e_tok(&E, 0, l->name->s, l->name->len);
            }
            lower__e_w(&E, "*/");
        }
    }
    return 0;
}
