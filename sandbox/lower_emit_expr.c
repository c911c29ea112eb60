/* Expression emission: identifiers through their bindings, this/arguments
 * captures, literals (numeric separators, U+2028 in strings, templates
 * split per line), spread in calls/arrays/new, object spread, optional
 * chains with temporaries, ??, logical assignment, await and yield. */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower_emit.h"

#define W(s) lower__e_tok(E, 0, "" s, sizeof(s) - 1)

static struct subst *find_subst(struct emit *E, struct node *n);
static void e_optchain(struct emit *E, struct node *oc, int is_delete, struct lname *this_out);

static void e_list(struct emit *E, struct node *first)
{
    for (struct node *a = first; a; a = a->next) {
        if (a != first)
            W(", ");
        lower__e_expr(E, a);
    }
}

/* ---- names ------------------------------------------------------------------- */

void lower__e_ident(struct emit *E, struct node *n)
{
    struct binding *b = n->x;
    if (E->enum_node && lower__e_enum_member_ref(E, n))
        return;
    if (b) {
        if (b->headcopy && E->head_scope == b->scope)
            lower__e_name(E, n->line, b->headcopy);
        else
            lower__e_name(E, n->line, b->out);
        return;
    }
    struct funcinfo *o = n->y;
    /* once captured, every use reads the capture: inside an async or
     * generator body the native `arguments` is a copy */
    if (o && n->name->kw == KW_ARGUMENTS && o->args_name) {
        lower__e_name(E, n->line, o->args_name);
        return;
    }
    lower__e_name(E, n->line, n->name);
}

void lower__e_this(struct emit *E, struct node *n)
{
    struct funcinfo *o = n->y;
    if (o && (o->flags & FI_DERIVED_CTOR) && o->this_name) {
        lower__e_name(E, n->line, o->this_name);
        return;
    }
    if (!o || o == E->fn->owner || !o->this_name) {
        lower__e_tok(E, n->line, "this", 4);
        return;
    }
    lower__e_name(E, n->line, o->this_name);
}

static void e_newtarget(struct emit *E, struct node *n)
{
    struct funcinfo *o = n->y;
    if (o && o != E->fn->owner && o->nt_name)
        lower__e_name(E, n->line, o->nt_name);
    else
        lower__e_tok(E, n->line, "new.target", 10);
}

/* ---- literals ------------------------------------------------------------------- */

static void e_number(struct emit *E, struct node *n)
{
    char tmp[128];
    const char *s = E->src + n->pos;
    size_t len = n->end - n->pos, k = 0;
    int plain = 1;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '_')
            plain = 0;
    if (plain && len < sizeof tmp) {
        memcpy(tmp, s, len);
        k = len;
    } else {
        struct buf *b = &E->cx->scratch;
        buf_reset(b);
        for (size_t i = 0; i < len; i++)
            if (s[i] != '_')
                buf_append_char(b, s[i]);
        lower__e_tok(E, n->line, b->data, b->len);
        goto done;
    }
    lower__e_tok(E, n->line, tmp, k);
done:;
    int dotted = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == 'x' || s[i] == 'X')
            dotted = 1;
    E->last_num = !dotted;
}

/* String literal: the source text, with raw U+2028/U+2029 escaped. */
static void e_string(struct emit *E, struct node *n)
{
    const char *s = E->src + n->pos;
    size_t len = n->end - n->pos;
    if (!memmem(s, len, "\xe2\x80", 2)) {
        lower__e_src(E, n);
        return;
    }
    struct buf *b = &E->cx->scratch;
    buf_reset(b);
    for (size_t i = 0; i < len; i++) {
        if (i + 2 < len && (unsigned char)s[i] == 0xe2 && (unsigned char)s[i + 1] == 0x80 &&
            ((unsigned char)s[i + 2] == 0xa8 || (unsigned char)s[i + 2] == 0xa9)) {
            buf_append_str(b, (unsigned char)s[i + 2] == 0xa8 ? "\\u2028" : "\\u2029");
            i += 2;
        } else {
            buf_append_char(b, s[i]);
        }
    }
    lower__e_tok(E, n->line, b->data, b->len);
}

/* One template part as a string literal (cooked, or raw for tagged
 * templates), split at source line breaks into "..." + "..." pieces so
 * every piece stays on its line. */
void lower__e_template_string(struct emit *E, struct node *part, int raw)
{
    const char *s = E->src + part->pos + 1;
    const char *end = E->src + part->end - ((part->flags & NF_TPL_TAIL) ? 1 : 2);
    int line = part->line;
    struct buf *b = &E->cx->scratch2;
    buf_reset(b);
    buf_append_char(b, '"');
    while (s < end) {
        unsigned char c = (unsigned char)*s;
        if (c == '\r' || c == '\n') {
            s += (c == '\r' && s + 1 < end && s[1] == '\n') ? 2 : 1;
            buf_append_str(b, "\\n\"");
            lower__e_tok(E, line, b->data, b->len);
            W(" +");
            line++;
            buf_reset(b);
            buf_append_char(b, '"');
            continue;
        }
        if (c == '\\') {
            if (raw) {
                buf_append_str(b, "\\\\");
                s++;
                continue;
            }
            if (s + 1 < end && (s[1] == '\n' || s[1] == '\r')) {
                /* line continuation: nothing in the value, keep the line */
                s += (s[1] == '\r' && s + 2 < end && s[2] == '\n') ? 3 : 2;
                buf_append_char(b, '"');
                lower__e_tok(E, line, b->data, b->len);
                W(" +");
                line++;
                buf_reset(b);
                buf_append_char(b, '"');
                continue;
            }
            buf_append_char(b, '\\');
            if (s + 1 < end)
                buf_append_char(b, s[1]);
            s += 2;
            continue;
        }
        if (c == '"') {
            buf_append_str(b, "\\\"");
            s++;
            continue;
        }
        if (c == 0xe2 && s + 2 < end && (unsigned char)s[1] == 0x80 &&
            ((unsigned char)s[2] == 0xa8 || (unsigned char)s[2] == 0xa9)) {
            buf_append_str(b, (unsigned char)s[2] == 0xa8 ? "\\u2028" : "\\u2029");
            s += 3;
            continue;
        }
        buf_append_char(b, (char)c);
        s++;
    }
    buf_append_char(b, '"');
    lower__e_tok(E, line, b->data, b->len);
}

static void e_template(struct emit *E, struct node *n)
{
    lower__e_tok(E, n->line, "(", 1);
    for (struct node *p = n->a; p; p = p->next) {
        if (p != n->a)
            W(" + ");
        if (p->kind == N_TPL_PART) {
            lower__e_template_string(E, p, 0);
        } else {
            W("(");
            lower__e_expr(E, p);
            W(")");
        }
    }
    W(")");
}

static void e_tagged(struct emit *E, struct node *n)
{
    struct lname *cache = lower__e_root_tmp(E);
    lower__e_expr(E, n->a);
    W("(");
    lower__e_name(E, 0, cache);
    W(" || (");
    lower__e_name(E, 0, cache);
    W(" = __tpl([");
    int first = 1;
    for (struct node *p = n->b->a; p; p = p->next) {
        if (p->kind != N_TPL_PART)
            continue;
        if (!first)
            W(", ");
        first = 0;
        lower__e_template_string(E, p, 0);
    }
    W("], [");
    first = 1;
    for (struct node *p = n->b->a; p; p = p->next) {
        if (p->kind != N_TPL_PART)
            continue;
        if (!first)
            W(", ");
        first = 0;
        lower__e_template_string(E, p, 1);
    }
    W("]))");
    for (struct node *p = n->b->a; p; p = p->next) {
        if (p->kind == N_TPL_PART)
            continue;
        W(", ");
        lower__e_expr(E, p);
    }
    W(")");
}

/* ---- spread ------------------------------------------------------------------------ */

int lower__has_spread(struct node *first)
{
    for (struct node *a = first; a; a = a->next)
        if (a->kind == N_SPREAD)
            return 1;
    return 0;
}

/* Emits an array expression holding the elements (spreads expanded):
 * __sp(__sp([a, b], xs), [c]). Holes become undefined only inside
 * spread segments (as the spec says for array literals, holes stay). */
void lower__e_args_array(struct emit *E, struct node *first, int line)
{
    int nspread = 0;
    for (struct node *a = first; a; a = a->next)
        nspread += a->kind == N_SPREAD;
    for (int i = 0; i < nspread; i++)
        lower__e_tok(E, line, "__sp(", 5);
    lower__e_tok(E, line, "[", 1);
    struct node *a = first;
    int count = 0;
    for (; a && a->kind != N_SPREAD; a = a->next) {
        if (count++)
            W(", ");
        if (a->kind != N_HOLE)
            lower__e_expr(E, a);
    }
    W("]");
    while (a) {
        W(", ");
        lower__e_expr(E, a->a);
        W(")");
        a = a->next;
        if (a && a->kind != N_SPREAD) {
            /* plain elements between spreads: appended with concat */
            W(".concat([");
            int c = 0;
            for (; a && a->kind != N_SPREAD; a = a->next) {
                if (c++)
                    W(", ");
                if (a->kind == N_HOLE)
                    W("void 0");
                else
                    lower__e_expr(E, a);
            }
            W("])");
        }
    }
}

static void e_array(struct emit *E, struct node *n)
{
    if (lower__has_spread(n->a)) {
        lower__e_args_array(E, n->a, n->line);
        return;
    }
    lower__e_tok(E, n->line, "[", 1);
    struct node *last = NULL;
    for (struct node *a = n->a; a; a = a->next) {
        if (a != n->a)
            W(", ");
        if (a->kind != N_HOLE)
            lower__e_expr(E, a);
        last = a;
    }
    if (last && last->kind == N_HOLE)
        W(",");
    W("]");
}

/* ---- objects ------------------------------------------------------------------------ */

static void e_prop_key(struct emit *E, struct node *p)
{
    if (p->flags & NF_COMPUTED) {
        W("[");
        lower__e_expr(E, p->a);
        W("]");
    } else if (p->a->kind == N_IDENT) {
        lower__e_key(E, p->a->line, p->a->name);
    } else if (p->a->kind == N_NUM) {
        e_number(E, p->a);
    } else {
        e_string(E, p->a);
    }
}

/* The key as a string expression (for helpers): "name", "str", or expr. */
void lower__e_prop_key_string(struct emit *E, struct node *key, int computed)
{
    if (computed) {
        lower__e_expr(E, key);
    } else if (key->kind == N_IDENT) {
        char tmp[8];
        lower__e_tok(E, key->line, "\"", 1);
        lower__e_tok(E, 0, key->name->s, key->name->len);
        snprintf(tmp, sizeof tmp, "\"");
        lower__e_w(E, tmp);
    } else if (key->kind == N_NUM) {
        W("\"\" + ");
        e_number(E, key);
    } else {
        e_string(E, key);
    }
}

static void e_prop(struct emit *E, struct node *p)
{
    if (p->op == PK_GET || p->op == PK_SET) {
        lower__e_tok(E, p->line, p->op == PK_GET ? "get" : "set", 3);
        W(" ");
        e_prop_key(E, p);
        lower__e_function(E, p->b, NULL);
        return;
    }
    e_prop_key(E, p);
    W(": ");
    struct lname *hint = !(p->flags & NF_COMPUTED) && p->a->kind == N_IDENT ? p->a->name : NULL;
    if (p->flags & NF_SHORTHAND) {
        lower__e_ident(E, p->b);
    } else {
        E->name_hint = hint;
        if (p->op == PK_METHOD)
            lower__e_function(E, p->b, NULL);
        else
            lower__e_expr(E, p->b);
        E->name_hint = NULL;
    }
}

static void e_object_literal(struct emit *E, struct node *first, struct node *stop, int line)
{
    lower__e_tok(E, line, "{", 1);
    for (struct node *p = first; p != stop; p = p->next) {
        if (p != first)
            W(", ");
        e_prop(E, p);
    }
    W("}");
}

static int is_computed_accessor(struct node *p)
{
    return (p->op == PK_GET || p->op == PK_SET) && (p->flags & NF_COMPUTED);
}

/* A property that cannot sit in an ES5 literal: a spread, or an accessor
 * with a computed key (Duktape's parser has no `get [k]() {}`). */
static int is_segment_break(struct node *p)
{
    return p->op == PK_SPREAD || is_computed_accessor(p);
}

static void e_object(struct emit *E, struct node *n)
{
    int nk = 0;
    struct node *prev = NULL;
    for (struct node *q = n->a; q; prev = q, q = q->next)
        if (is_segment_break(q) || (prev && is_segment_break(prev)))
            nk++;
    if (!nk) {
        e_object_literal(E, n->a, NULL, n->line);
        return;
    }
    /* {a: 1, ...x, b: 2} -> __ol(__os({a: 1}, x), {b: 2}): spreads copy own
     * enumerable properties, later literal runs define theirs, computed
     * accessors go through __oacc; helpers nest, the last applied outermost */
    char *kinds = lower__arena_alloc(&E->cx->arena, (size_t)nk + 1);
    if (!kinds)
        lower__oom(E->cx);
    nk = 0;
    prev = NULL;
    for (struct node *q = n->a; q; prev = q, q = q->next) {
        if (q->op == PK_SPREAD)
            kinds[nk++] = 's';
        else if (is_computed_accessor(q))
            kinds[nk++] = 'a';
        else if (prev && is_segment_break(prev))
            kinds[nk++] = 'l';
    }
    for (int i = nk - 1; i >= 0; i--)
        lower__e_tok(E, n->line, kinds[i] == 's' ? "__os(" : kinds[i] == 'a' ? "__oacc(" : "__ol(", kinds[i] == 'a' ? 7 : 5);
    struct node *q = n->a;
    while (q && !is_segment_break(q))
        q = q->next;
    e_object_literal(E, n->a, q, n->line);
    while (q) {
        if (q->op == PK_SPREAD) {
            W(", ");
            lower__e_expr(E, q->a);
            W(")");
            q = q->next;
        } else if (is_computed_accessor(q)) {
            W(", ");
            lower__e_expr(E, q->a);
            W(", ");
            q->b->y = q; /* the function keyword */
            lower__e_function(E, q->b, NULL);
            lower__e_w(E, q->op == PK_GET ? ", 1)" : ", 2)");
            q = q->next;
        } else {
            struct node *r = q;
            while (r && !is_segment_break(r))
                r = r->next;
            W(", ");
            e_object_literal(E, q, r, q->line);
            W(")");
            q = r;
        }
    }
}

/* ---- members and calls --------------------------------------------------------------- */

static struct subst *find_subst(struct emit *E, struct node *n)
{
    for (int i = E->nsubst - 1; i >= 0; i--)
        if (E->subst[i].n == n)
            return &E->subst[i];
    return NULL;
}

static struct lname *private_name(struct emit *E, struct node *privname)
{
    struct node *m = privname->y;
    if (!m || !m->x)
        lower__e_error(E, privname, "Internal error: private name without a class");
    return m->x;
}

void lower__e_member_suffix(struct emit *E, struct node *m)
{
    if (m->flags & NF_PRIVATE) {
        W("[");
        lower__e_name(E, m->b->line, private_name(E, m->b));
        W("]");
    } else if (m->flags & NF_COMPUTED) {
        W("[");
        lower__e_expr(E, m->b);
        W("]");
    } else {
        lower__e_dot(E, m->b->line, m->b->name);
    }
}

static int is_private_method(struct node *m)
{
    return (m->flags & NF_PRIVATE) && m->b->y && ((struct node *)m->b->y)->op == PK_METHOD;
}

static void e_member(struct emit *E, struct node *n)
{
    struct subst *s = find_subst(E, n);
    if (s && s->kind == SUB_TEMP) {
        lower__e_name(E, n->line, s->t);
        return;
    }
    if (n->a->kind == N_SUPER) {
        lower__e_super_member(E, n, 0);
        return;
    }
    if (is_private_method(n)) {
        /* a private method read without a call: the function itself */
        lower__e_name(E, n->line, private_name(E, n->b));
        return;
    }
    int raw = E->raw_target;
    E->raw_target = 0;
    if ((n->flags & NF_PRIVATE) && n->a->kind != N_THIS && !raw) {
        /* o.#x on an object that may lack it: a checked read */
        lower__e_tok(E, n->line, "__pget(", 7);
        lower__e_expr(E, n->a);
        W(", ");
        lower__e_name(E, 0, private_name(E, n->b));
        W(")");
        return;
    }
    lower__e_expr(E, n->a);
    lower__e_member_suffix(E, n);
}

static void e_call_args(struct emit *E, struct node *first, int with_comma)
{
    if (first && with_comma)
        W(", ");
    e_list(E, first);
}

static void e_super_call(struct emit *E, struct node *n)
{
    struct eclass *c = E->cls;
    struct funcinfo *o = n->a->y;
    if (!c || !c->super || !o || !(o->flags & FI_DERIVED_CTOR))
        lower__e_error(E, n, "'super' keyword unexpected here");
    lower__e_tok(E, n->line, "(", 1);
    lower__e_name(E, 0, o->this_name);
    W(" = __super(");
    lower__e_name(E, 0, c->super);
    W(", this, ");
    lower__e_args_array(E, n->b, n->line);
    W(")");
    for (struct node *prm = c->ctor ? c->ctor->b : NULL; prm; prm = prm->next) {
        if (!(prm->flags & NF_PARAMPROP))
            continue;
        struct node *id = prm->kind == N_ASSIGNPAT ? prm->a : prm;
        W(", ");
        lower__e_name(E, 0, o->this_name);
        lower__e_dot(E, 0, id->name);
        W(" = ");
        lower__e_name(E, 0, id->x ? ((struct binding *)id->x)->out : id->name);
    }
    if (c->init) {
        W(", ");
        lower__e_name(E, 0, c->init);
        W(".call(");
        lower__e_name(E, 0, o->this_name);
        W(")");
    }
    W(", ");
    lower__e_name(E, 0, o->this_name);
    W(")");
}

static void e_call(struct emit *E, struct node *n)
{
    struct subst *s = find_subst(E, n);
    struct node *callee = n->a;
    int spread = lower__has_spread(n->b);
    if (s && s->kind == SUB_CALLTHIS) {
        lower__e_name(E, n->line, s->t);
        if (spread) {
            W(".apply(");
            lower__e_name(E, 0, s->o);
            W(", ");
            lower__e_args_array(E, n->b, n->line);
        } else {
            W(".call(");
            lower__e_name(E, 0, s->o);
            e_call_args(E, n->b, 1);
        }
        W(")");
        return;
    }
    if (callee->kind == N_SUPER) {
        e_super_call(E, n);
        return;
    }
    if (callee->kind == N_MEMBER && !find_subst(E, callee) &&
        (callee->a->kind == N_SUPER || is_private_method(callee))) {
        if (callee->a->kind == N_SUPER)
            lower__e_super_member(E, callee, 1);
        else
            lower__e_name(E, callee->line, private_name(E, callee->b));
        lower__e_w(E, spread ? ".apply(" : ".call(");
        if (callee->a->kind == N_SUPER) {
            struct node t = *callee->a;
            t.kind = N_THIS;
            lower__e_this(E, &t);
        } else {
            lower__e_expr(E, callee->a);
        }
        if (spread) {
            W(", ");
            lower__e_args_array(E, n->b, n->line);
        } else {
            e_call_args(E, n->b, 1);
        }
        W(")");
        return;
    }
    struct node *inner = callee;
    while (inner->kind == N_PAREN)
        inner = inner->a;
    if (inner != callee && inner->kind == N_OPTCHAIN && inner->a->kind == N_MEMBER) {
        struct lname *t = lower__e_tmp(E);
        e_optchain(E, inner, 0, t);
        lower__e_w(E, spread ? ".apply(" : ".call(");
        lower__e_name(E, 0, t);
        if (spread) {
            W(", ");
            lower__e_args_array(E, n->b, n->line);
        } else {
            e_call_args(E, n->b, 1);
        }
        W(")");
        return;
    }
    if (!spread) {
        lower__e_expr(E, callee);
        W("(");
        e_call_args(E, n->b, 0);
        W(")");
        return;
    }
    if (callee->kind == N_MEMBER && !find_subst(E, callee)) {
        struct lname *t = lower__e_tmp(E);
        lower__e_tok(E, n->line, "(", 1);
        lower__e_name(E, 0, t);
        W(" = ");
        lower__e_expr(E, callee->a);
        W(")");
        lower__e_member_suffix(E, callee);
        W(".apply(");
        lower__e_name(E, 0, t);
        W(", ");
    } else {
        lower__e_expr(E, callee);
        W(".apply(void 0, ");
    }
    lower__e_args_array(E, n->b, n->line);
    W(")");
}

static void e_new(struct emit *E, struct node *n)
{
    if (lower__has_spread(n->b)) {
        lower__e_tok(E, n->line, "__construct(", 12);
        lower__e_expr(E, n->a);
        W(", ");
        lower__e_args_array(E, n->b, n->line);
        W(")");
        return;
    }
    lower__e_tok(E, n->line, "new", 3);
    W(" ");
    lower__e_expr(E, n->a);
    W("(");
    e_call_args(E, n->b, 0);
    W(")");
}

/* ---- optional chains ------------------------------------------------------------------- */

static void push_subst(struct emit *E, struct node *n, int kind, struct lname *t, struct lname *o)
{
    if (E->nsubst >= 64)
        lower__e_error(E, n, "Optional chain too long");
    struct subst *s = &E->subst[E->nsubst++];
    s->n = n;
    s->kind = kind;
    s->t = t;
    s->o = o;
}

static void e_optchain(struct emit *E, struct node *oc, int is_delete, struct lname *this_out)
{
    struct node *ops[64];
    int k = 0;
    for (struct node *n = oc->a; n->kind == N_MEMBER || n->kind == N_CALL; n = n->a) {
        if (k >= 64)
            lower__e_error(E, oc, "Optional chain too long");
        ops[k++] = n;
    }
    int saved = E->nsubst;
    lower__e_tok(E, oc->line, "(", 1);
    for (int i = k - 1; i >= 0; i--) {
        struct node *op = ops[i];
        if (!(op->flags & NF_OPTIONAL))
            continue;
        struct node *prev = op->a;
        if (op->kind == N_CALL && prev->kind == N_MEMBER && prev->a->kind != N_SUPER) {
            struct lname *to = lower__e_tmp(E), *tf = lower__e_tmp(E);
            W("(");
            lower__e_name(E, 0, to);
            W(" = ");
            lower__e_expr(E, prev->a);
            W(", ");
            lower__e_name(E, 0, tf);
            W(" = ");
            lower__e_name(E, 0, to);
            lower__e_member_suffix(E, prev);
            W(") == null ? ");
            lower__e_w(E, is_delete ? "true" : "void 0");
            W(" : ");
            push_subst(E, op, SUB_CALLTHIS, tf, to);
        } else {
            struct lname *t = lower__e_tmp(E);
            W("(");
            lower__e_name(E, 0, t);
            W(" = ");
            lower__e_expr(E, prev);
            W(") == null ? ");
            lower__e_w(E, is_delete ? "true" : "void 0");
            W(" : ");
            push_subst(E, prev, SUB_TEMP, t, NULL);
        }
    }
    if (is_delete)
        W("delete ");
    if (this_out && oc->a->kind == N_MEMBER) {
        /* (a?.b)(): the call keeps a as this */
        W("(");
        lower__e_name(E, 0, this_out);
        W(" = ");
        lower__e_expr(E, oc->a->a);
        W(")");
        lower__e_member_suffix(E, oc->a);
    } else {
        lower__e_expr(E, oc->a);
    }
    W(")");
    E->nsubst = saved;
}

/* ---- operators ------------------------------------------------------------------------------ */

static const char *binop_text(int op)
{
    if (op == 200)
        return "in";
    if (op == 201)
        return "instanceof";
    return lower__punct_text[op];
}

static int is_simple_ref(struct node *n)
{
    return n->kind == N_IDENT && n->x != NULL;
}

static void e_nullish(struct emit *E, struct node *n)
{
    lower__e_tok(E, n->line, "(", 1);
    if (is_simple_ref(n->a)) {
        lower__e_expr(E, n->a);
        W(" != null ? ");
        lower__e_expr(E, n->a);
    } else {
        struct lname *t = lower__e_tmp(E);
        W("(");
        lower__e_name(E, 0, t);
        W(" = ");
        lower__e_expr(E, n->a);
        W(") != null ? ");
        lower__e_name(E, 0, t);
    }
    W(" : ");
    lower__e_expr(E, n->b);
    W(")");
}

static void e_const_error(struct emit *E, struct node *target)
{
    W(", __constErr(\"");
    lower__e_name(E, 0, target->name);
    W("\"))");
}

static int is_const_target(struct node *t)
{
    while (t->kind == N_PAREN)
        t = t->a;
    return t->kind == N_IDENT && t->x && ((struct binding *)t->x)->kind == BK_CONST;
}

/* a ??= b, a ||= b, a &&= b: assign only when needed. */
static void e_logical_assign(struct emit *E, struct node *n)
{
    struct node *t = n->a;
    while (t->kind == N_PAREN)
        t = t->a;
    lower__e_tok(E, n->line, "(", 1);
    struct lname *obj = NULL, *key = NULL, *cur = NULL;
    if (t->kind == N_MEMBER) {
        obj = lower__e_tmp(E);
        cur = lower__e_tmp(E);
        W("(");
        lower__e_name(E, 0, obj);
        W(" = ");
        lower__e_expr(E, t->a);
        if (t->flags & NF_COMPUTED) {
            key = lower__e_tmp(E);
            W(", ");
            lower__e_name(E, 0, key);
            W(" = ");
            lower__e_expr(E, t->b);
        }
        W(", ");
        lower__e_name(E, 0, cur);
        W(" = ");
        lower__e_name(E, 0, obj);
        if (key) {
            W("[");
            lower__e_name(E, 0, key);
            W("]");
        } else {
            lower__e_member_suffix(E, t);
        }
        W(")");
    } else {
        lower__e_expr(E, t);
    }
    if (n->op == P_NULLISH_EQ)
        W(" != null ? ");
    else if (n->op == P_OR_EQ)
        W(" ? ");
    else
        W(" ? ");
    int assign_first = n->op == P_AND_EQ;
    if (!assign_first) {
        if (cur)
            lower__e_name(E, 0, cur);
        else
            lower__e_expr(E, t);
        W(" : ");
    }
    W("(");
    if (obj) {
        lower__e_name(E, 0, obj);
        if (key) {
            W("[");
            lower__e_name(E, 0, key);
            W("]");
        } else {
            lower__e_member_suffix(E, t);
        }
    } else {
        lower__e_expr(E, t);
    }
    if (is_const_target(t)) {
        W(", ");
        lower__e_expr(E, n->b);
        e_const_error(E, t);
    } else {
        W(" = ");
        lower__e_expr(E, n->b);
        W(")");
    }
    if (assign_first) {
        W(" : ");
        if (cur)
            lower__e_name(E, 0, cur);
        else
            lower__e_expr(E, t);
    }
    W(")");
}

static void e_assign(struct emit *E, struct node *n)
{
    if (n->a->kind == N_ARRPAT || n->a->kind == N_OBJPAT) {
        lower__e_destructure_assign(E, n, 1);
        return;
    }
    if (n->op == P_NULLISH_EQ || n->op == P_OR_EQ || n->op == P_AND_EQ) {
        e_logical_assign(E, n);
        return;
    }
    if (is_const_target(n->a)) {
        struct node *t = n->a;
        while (t->kind == N_PAREN)
            t = t->a;
        lower__e_tok(E, n->line, "(", 1);
        lower__e_expr(E, n->b);
        e_const_error(E, t);
        return;
    }
    struct node *t = n->a;
    if (n->op == P_ASSIGN && t->kind == N_MEMBER && (t->flags & NF_PRIVATE) && t->a->kind != N_THIS &&
        !find_subst(E, t)) {
        lower__e_tok(E, n->line, "__pset(", 7);
        lower__e_expr(E, t->a);
        W(", ");
        lower__e_name(E, 0, private_name(E, t->b));
        W(", ");
        lower__e_expr(E, n->b);
        W(")");
        return;
    }
    if (t->kind == N_MEMBER && t->a->kind == N_SUPER) {
        /* super.x = v assigns on this */
        struct node th = *t->a;
        th.kind = N_THIS;
        lower__e_this(E, &th);
        lower__e_member_suffix(E, t);
    } else {
        E->raw_target = t->kind == N_MEMBER;
        lower__e_expr(E, t);
        E->raw_target = 0;
    }
    W(" ");
    lower__e_w(E, lower__punct_text[n->op]);
    W(" ");
    if (n->op == P_ASSIGN && t->kind == N_IDENT)
        E->name_hint = t->name;
    lower__e_expr(E, n->b);
    E->name_hint = NULL;
}

static void e_unary(struct emit *E, struct node *n)
{
    if (n->op == 100 && n->a->kind == N_OPTCHAIN) {
        e_optchain(E, n->a, 1, NULL);
        return;
    }
    switch (n->op) {
    case 100: lower__e_tok(E, n->line, "delete ", 7); break;
    case 101: lower__e_tok(E, n->line, "void ", 5); break;
    case 102: lower__e_tok(E, n->line, "typeof ", 7); break;
    default: lower__e_tok(E, n->line, lower__punct_text[n->op], strlen(lower__punct_text[n->op]));
    }
    lower__e_expr(E, n->a);
}

static void e_update(struct emit *E, struct node *n)
{
    const char *op = lower__punct_text[n->op];
    if (is_const_target(n->a)) {
        struct node *t = n->a;
        while (t->kind == N_PAREN)
            t = t->a;
        lower__e_tok(E, n->line, "(", 1);
        lower__e_expr(E, t);
        e_const_error(E, t);
        return;
    }
    if (n->flags & NF_PREFIX) {
        lower__e_tok(E, n->line, op, 2);
        E->raw_target = 1;
        lower__e_expr(E, n->a);
    } else {
        E->raw_target = 1;
        lower__e_expr(E, n->a);
        lower__e_w(E, op);
    }
    E->raw_target = 0;
}

static void e_binary(struct emit *E, struct node *n)
{
    if (n->a->kind == N_PRIVNAME) {
        lower__e_tok(E, n->line, "__privIn(", 9);
        lower__e_expr(E, n->b);
        W(", ");
        lower__e_name(E, 0, private_name(E, n->a));
        W(")");
        return;
    }
    lower__e_expr(E, n->a);
    W(" ");
    lower__e_w(E, binop_text(n->op));
    W(" ");
    lower__e_expr(E, n->b);
}

static void e_yield(struct emit *E, struct node *n)
{
    const char *fn;
    if (E->fn->is_agen)
        fn = (n->flags & NF_DELEGATE) ? "__agYieldStar(" : "__agYield(";
    else
        fn = (n->flags & NF_DELEGATE) ? "__yieldStar(" : "__yield(";
    lower__e_tok(E, n->line, fn, strlen(fn));
    if (n->a)
        lower__e_expr(E, n->a);
    W(")");
}

static void e_await(struct emit *E, struct node *n)
{
    const char *fn = E->fn->is_agen ? "__agAwait(" : "__await(";
    lower__e_tok(E, n->line, fn, strlen(fn));
    lower__e_expr(E, n->a);
    W(")");
}

void lower__e_expr(struct emit *E, struct node *n)
{
    if (E->nsubst) {
        struct subst *s = find_subst(E, n);
        if (s && s->kind == SUB_TEMP) {
            lower__e_name(E, n->line, s->t);
            return;
        }
    }
    lower__e_enter(E, n);
    struct lname *hint = E->name_hint;
    E->name_hint = NULL;
    if (n->kind != N_MEMBER && n->kind != N_PAREN)
        E->raw_target = 0;
    if (hint && (n->kind == N_PAREN || n->kind == N_FUNC || n->kind == N_CLASS))
        E->name_hint = hint; /* parentheses are transparent to name inference */
    switch (n->kind) {
    case N_IDENT: lower__e_ident(E, n); break;
    case N_THIS: lower__e_this(E, n); break;
    case N_NEWTARGET: e_newtarget(E, n); break;
    case N_NUM: e_number(E, n); break;
    case N_STR: e_string(E, n); break;
    case N_LITERAL: lower__e_src(E, n); break;
    case N_REGEX: {
        struct buf *b = &E->cx->scratch;
        buf_reset(b);
        lower__regex(E->cx, E->src + n->pos, n->end - n->pos, n->pos, b);
        lower__e_tok(E, n->line, b->data, b->len);
        break;
    }
    case N_TEMPLATE: e_template(E, n); break;
    case N_TAGGED: e_tagged(E, n); break;
    case N_ARRAY: e_array(E, n); break;
    case N_OBJECT: e_object(E, n); break;
    case N_FUNC: lower__e_function(E, n, NULL); break;
    case N_CLASS: lower__e_class(E, n); break;
    case N_UNARY: e_unary(E, n); break;
    case N_UPDATE: e_update(E, n); break;
    case N_BINARY: e_binary(E, n); break;
    case N_LOGICAL:
        if (n->op == P_NULLISH) {
            e_nullish(E, n);
        } else {
            lower__e_expr(E, n->a);
            lower__e_w(E, n->op == P_AND ? " && " : " || ");
            lower__e_expr(E, n->b);
        }
        break;
    case N_ASSIGN: e_assign(E, n); break;
    case N_COND:
        lower__e_expr(E, n->a);
        W(" ? ");
        lower__e_expr(E, n->b);
        W(" : ");
        lower__e_expr(E, n->c);
        break;
    case N_CALL: e_call(E, n); break;
    case N_NEW: e_new(E, n); break;
    case N_MEMBER: e_member(E, n); break;
    case N_OPTCHAIN: e_optchain(E, n, 0, NULL); break;
    case N_SEQ: e_list(E, n->a); break;
    case N_YIELD: e_yield(E, n); break;
    case N_AWAIT: e_await(E, n); break;
    case N_PAREN:
        lower__e_tok(E, n->line, "(", 1);
        lower__e_expr(E, n->a);
        W(")");
        break;
    case N_SUPER:
        lower__e_error(E, n, "'super' keyword unexpected here");
    default:
        lower__e_error(E, n, "Internal error: unexpected expression");
    }
    lower__e_leave(E);
}
