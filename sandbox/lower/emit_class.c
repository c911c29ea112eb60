/* Class and enum emission. A class becomes an IIFE holding a constructor
 * function declaration (at the constructor's line), methods and accessors
 * defined non-enumerable in source order, instance fields in one init
 * function called by the constructor (after super() in derived classes),
 * static fields and blocks in one function called once the members exist,
 * and private names as per-class symbols. Enums become TypeScript's
 * object-with-reverse-mapping IIFE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/lower/emit.h"

#define W(s) lower__e_tok(E, 0, "" s, sizeof(s) - 1)


#define FI_STATIC 0x10000

static struct node *find_ctor(struct node *c)
{
    for (struct node *m = c->c; m; m = m->next)
        if (m->op == PK_METHOD && m->b && (m->b->op & FN_CTOR))
            return m;
    return NULL;
}

static void e_param_props(struct emit *E, struct node *fn, struct lname *self)
{
    for (struct node *prm = fn->b; prm; prm = prm->next) {
        if (!(prm->flags & NF_PARAMPROP))
            continue;
        struct node *id = prm->kind == N_ASSIGNPAT ? prm->a : prm;
        struct lname *v = id->x ? ((struct binding *)id->x)->out : id->name;
        W(" ");
        if (self)
            lower__e_name(E, 0, self);
        else
            W("this");
        lower__e_dot(E, 0, id->name);
        W(" = ");
        lower__e_name(E, 0, v);
        W(";");
    }
}

static void e_key_target(struct emit *E, struct node *m, struct lname *self)
{
    if (m->flags & NF_PRIVATE) {
        W("[");
        lower__e_name(E, 0, m->x);
        W("]");
    } else if (m->y) { /* computed key evaluated earlier */
        W("[");
        lower__e_name(E, 0, m->y);
        W("]");
    } else if (m->a->kind == N_IDENT) {
        lower__e_dot(E, 0, m->a->name);
    } else {
        W("[");
        lower__e_prop_key_string(E, m->a, 0);
        W("]");
    }
    (void)self;
}

/* Field initialisers of one kind (static or not) as statements. */
static struct node *earlier_private(struct node *c, struct node *m);

/* Private methods and accessors of one kind, installed on this before any field. */
static void e_private_installs(struct emit *E, struct node *c, int is_static)
{
    for (struct node *m = c->c; m; m = m->next) {
        if (!(m->flags & NF_PRIVATE) || m->op == PK_FIELD || ((m->flags & NF_STATIC) != 0) != is_static ||
            earlier_private(c, m))
            continue;
        if (m->op == PK_METHOD) {
            lower__e_tok(E, 0, " __pmeth(this, ", 15);
            lower__e_name(E, 0, m->x);
            W(", ");
            lower__e_name(E, 0, m->y);
            W(");");
            continue;
        }
        struct node *get = NULL, *set = NULL;
        for (struct node *o = m; o; o = o->next)
            if ((o->flags & NF_PRIVATE) && o->x == m->x) {
                if (o->op == PK_GET)
                    get = o;
                else if (o->op == PK_SET)
                    set = o;
            }
        lower__e_tok(E, 0, " __pacc(this, ", 14);
        lower__e_name(E, 0, m->x);
        W(", ");
        if (get)
            lower__e_name(E, 0, get->y);
        else
            W("void 0");
        W(", ");
        if (set)
            lower__e_name(E, 0, set->y);
        else
            W("void 0");
        W(");");
    }
}

static void e_field_inits(struct emit *E, struct node *c, int is_static)
{
    e_private_installs(E, c, is_static);
    for (struct node *m = c->c; m; m = m->next) {
        int st = (m->flags & NF_STATIC) != 0;
        if (st != is_static)
            continue;
        if (m->op == PK_STATIC_BLOCK && is_static) {
            lower__e_tok(E, m->line, "{", 1);
            lower__e_block_body(E, m->b, NULL);
            lower__e_tok(E, m->b->d->line, "}", 1);
            continue;
        }
        if (m->op != PK_FIELD)
            continue;
        if (m->flags & NF_PRIVATE) {
            lower__e_tok(E, m->line, "__pdef(this, ", 13);
            lower__e_name(E, 0, m->x);
            W(", ");
            /* #f = function () {} is named "#f" */
            int anon = m->b && ((m->b->kind == N_FUNC && !m->b->a) || (m->b->kind == N_CLASS && !m->b->a));
            if (anon)
                W("__fname(");
            if (m->b)
                lower__e_expr(E, m->b);
            else
                W("void 0");
            if (anon) {
                W(", \"#");
                lower__e_name(E, 0, m->a->name);
                W("\")");
            }
            W(");");
            continue;
        }
        lower__e_tok(E, m->line, "this", 4);
        e_key_target(E, m, NULL);
        W(" = ");
        /* x = function () {} is named "x" */
        if (!(m->flags & NF_COMPUTED) && m->a->kind == N_IDENT)
            E->name_hint = m->a->name;
        if (m->b)
            lower__e_expr(E, m->b);
        else
            W("void 0");
        E->name_hint = NULL;
        W(";");
    }
}

/* A member the init function of its kind handles: a field, a static block,
 * or a private method or accessor (installed on the object). */
static int is_init_member(struct node *m, int is_static)
{
    return ((m->flags & NF_STATIC) != 0) == is_static &&
           (m->op == PK_FIELD || (is_static && m->op == PK_STATIC_BLOCK) ||
            ((m->flags & NF_PRIVATE) && (m->op == PK_METHOD || m->op == PK_GET || m->op == PK_SET)));
}

static int has_fields(struct node *c, int is_static)
{
    for (struct node *m = c->c; m; m = m->next)
        if (is_init_member(m, is_static))
            return 1;
    return 0;
}

static struct node *last_field(struct node *c, int is_static)
{
    struct node *last = NULL;
    for (struct node *m = c->c; m; m = m->next)
        if (is_init_member(m, is_static))
            last = m;
    return last;
}

/* Where `this` is surely bound in a derived constructor's body: from the
 * statement after its first top-level `super(...);` (UINT32_MAX: nowhere). */
static uint32_t this_ok_from(struct node *first)
{
    for (struct node *s = first; s; s = s->next) {
        if (s->kind != N_EXPRSTMT)
            continue;
        struct node *e = s->a;
        while (e->kind == N_PAREN)
            e = e->a;
        if (e->kind == N_CALL && e->a->kind == N_SUPER)
            return s->next ? s->next->pos : UINT32_MAX;
    }
    return UINT32_MAX;
}

/* Does a derived constructor's body return from inside a try statement or a
 * for-of loop (not counting nested functions)? */
static int return_needs_deferring(struct node *n, int inside)
{
    for (; n; n = n->next) {
        if (n->kind == N_FUNC || n->kind == N_CLASS)
            continue;
        if (n->kind == N_RETURN && inside)
            return 1;
        int in = inside || n->kind == N_TRY || n->kind == N_FOROF;
        if (return_needs_deferring(n->a, in) || return_needs_deferring(n->b, in) ||
            return_needs_deferring(n->c, in) || return_needs_deferring(n->d, in))
            return 1;
    }
    return 0;
}

static void e_init_function(struct emit *E, struct node *c, struct node *holder, int is_static,
                            struct lname *name, int line)
{
    struct funcinfo *fi = holder->x;
    if (is_static)
        fi->flags |= FI_STATIC;
    lower__e_tok(E, line, "function ", 9);
    lower__e_name(E, 0, name);
    W("() {");
    struct efn f;
    lower__e_push_fn(E, &f, fi, fi);
    lower__e_prologue(E, fi);
    e_field_inits(E, c, is_static);
    lower__e_declare_temps(E, &f);
    lower__e_pop_fn(E);
    W(" }");
}

static void e_ctor(struct emit *E, struct node *c, struct node *ctor_member, int line)
{
    struct eclass *k = E->cls;
    struct node *fn = ctor_member ? ctor_member->b : NULL;
    struct funcinfo *fi = fn ? fn->x : NULL;
    lower__e_tok(E, line, "function ", 9);
    lower__e_name(E, 0, k->name);
    if (fn)
        lower__e_params(E, fn);
    else
        W("()");
    lower__e_tok(E, fn ? fn->c->line : 0, " {", 2);
    struct efn f;
    lower__e_push_fn(E, &f, fi, fi);
    if (fi)
        lower__e_prologue(E, fi);
    W(" this instanceof ");
    lower__e_name(E, 0, k->name);
    W(" || __noNew(\"");
    lower__e_name(E, 0, k->name);
    W("\");");
    if (!k->super) {
        if (fn) {
            lower__e_param_init(E, fn);
            e_param_props(E, fn, NULL);
        }
        if (k->init) {
            W(" ");
            lower__e_name(E, 0, k->init);
            W(".call(this);");
        }
        if (fn)
            lower__e_stmts(E, fn->c->a);
    } else if (!fn) {
        struct lname *self = lower__e_tmp(E);
        W(" ");
        lower__e_name(E, 0, self);
        W(" = __super(");
        lower__e_name(E, 0, k->super);
        W(", this, arguments);");
        if (k->init) {
            W(" ");
            lower__e_name(E, 0, k->init);
            W(".call(");
            lower__e_name(E, 0, self);
            W(");");
        }
        W(" return ");
        lower__e_name(E, 0, self);
        W(";");
    } else if ((fi->this_ok_pos = this_ok_from(fn->c->a)), return_needs_deferring(fn->c->a, 0)) {
        /* a return inside try or for-of: what it returns is checked once the
         * body is left (after finally blocks and iterator closing, which may
         * still call super()) */
        f.ret_this = fi->this_name;
        f.ret_val = lower__e_tmp(E);
        f.ret_ok = lower__e_tmp(E);
        struct lname *err = lower__e_tmp_name(E);
        lower__e_param_init(E, fn);
        W(" try {");
        lower__e_stmts(E, fn->c->a);
        W(" ");
        lower__e_name(E, 0, f.ret_ok);
        W(" = 1; } catch (");
        lower__e_name(E, 0, err);
        W(") { ");
        lower__e_name(E, 0, f.ret_ok);
        W(" = 0; throw ");
        lower__e_name(E, 0, err);
        W("; } finally { if (");
        lower__e_name(E, 0, f.ret_ok);
        W(") return __ctorRet(");
        lower__e_name(E, 0, f.ret_val);
        W(", ");
        lower__e_name(E, 0, fi->this_name);
        W("); }");
    } else {
        f.ret_this = fi->this_name;
        lower__e_param_init(E, fn);
        lower__e_stmts(E, fn->c->a);
        W(" return __thisInit(");
        lower__e_name(E, 0, fi->this_name);
        W(");");
    }
    if (fn)
        lower__e_tok(E, fn->c->d->line, " ", 1);
    lower__e_declare_temps(E, &f);
    lower__e_pop_fn(E);
    W("}");
}

static void e_method(struct emit *E, struct node *m, struct lname *cname)
{
    struct funcinfo *fi = m->b->x;
    if (m->flags & NF_STATIC)
        fi->flags |= FI_STATIC;
    if (m->flags & NF_PRIVATE) {
        /* the function, installed on each object by its class (e_private_installs) */
        lower__e_name(E, m->line, m->y);
        W(" = __fname(");
        m->b->y = m; /* function keyword even for accessors */
        lower__e_function(E, m->b, NULL);
        /* its name: "#m", "get #m", "set #m" */
        lower__e_w(E, m->op == PK_GET ? ", \"get #" : m->op == PK_SET ? ", \"set #" : ", \"#");
        lower__e_name(E, 0, m->a->name);
        W("\");");
        return;
    }
    lower__e_tok(E, m->line, "__defm(", 7);
    lower__e_name(E, 0, cname);
    if (!(m->flags & NF_STATIC))
        W(".prototype");
    W(", ");
    if (m->flags & NF_PRIVATE)
        lower__e_name(E, 0, m->x);
    else if (m->y)
        lower__e_name(E, 0, m->y);
    else
        lower__e_prop_key_string(E, m->a, (m->flags & NF_COMPUTED) != 0);
    W(", ");
    m->b->y = m;
    /* a method named by an identifier is a named function expression; other
     * keys and accessors are named by __defm */
    if (m->op == PK_METHOD && !(m->flags & NF_COMPUTED) && m->a->kind == N_IDENT)
        E->name_hint = m->a->name;
    lower__e_function(E, m->b, NULL);
    E->name_hint = NULL;
    lower__e_w(E, m->op == PK_GET ? ", 1);" : m->op == PK_SET ? ", 2);" : ");");
}

static struct node *earlier_private(struct node *c, struct node *m)
{
    for (struct node *o = c->c; o != m; o = o->next)
        if ((o->flags & NF_PRIVATE) && o->a->name == m->a->name)
            return o;
    return NULL;
}

/* Every private name is a per-class symbol (a getter and its setter share
 * one); the functions of private methods and accessors live in variables. */
static void declare_privates(struct emit *E, struct node *c)
{
    int any = 0;
    for (struct node *m = c->c; m; m = m->next) {
        if (!(m->flags & NF_PRIVATE))
            continue;
        if (m->op != PK_FIELD)
            m->y = lower__e_tmp(E); /* the method's or accessor's function */
        struct node *o = earlier_private(c, m);
        if (o) {
            m->x = o->x;
            continue;
        }
        m->x = lower__e_tmp(E);
        lower__e_w(E, any ? ", " : " var ");
        any = 1;
        lower__e_name(E, 0, m->x);
        W(" = __pname(\"");
        lower__e_name(E, 0, m->a->name);
        W("\")");
    }
    if (any)
        W(";");
}

/* May an anonymous class take `hint` as its constructor's name? Only when
 * no code inside refers to an outer binding of that name. */
static int class_name_ok(struct emit *E, struct node *c, struct lname *hint)
{
    if (!hint || !hint->id || (hint->kw && hint->kw <= KW_LAST_RESERVED) || hint->kw == KW_ARGUMENTS)
        return 0;
    for (struct node *m = c->c; m; m = m->next)
        if (m->b && m->b->kind == N_FUNC && m->b->x && lower__is_foreign(E->cx, m->b->x, hint))
            return 0;
    for (struct node *h = c->d; h; h = h->next)
        if (h->x && lower__is_foreign(E->cx, h->x, hint))
            return 0;
    return 1;
}

void lower__e_class(struct emit *E, struct node *c)
{
    struct lname *hint = E->name_hint;
    E->name_hint = NULL;
    int anonymous = 0;
    struct eclass k;
    memset(&k, 0, sizeof k);
    k.parent = E->cls;
    k.node = c;
    struct efn f;
    lower__e_tok(E, c->line, "(function (", 11);
    lower__e_push_fn(E, &f, NULL, NULL);
    if (c->b) {
        k.super = lower__e_tmp(E);
        f.ntemps--; /* it is the parameter */
        lower__e_name(E, 0, k.super);
    }
    W(") { \"use strict\";");
    f.strict = 1;
    if (c->a) /* the class's own binding inside its body */
        k.name = ((struct scope *)c->x)->first ? ((struct scope *)c->x)->first->out : c->a->name;
    else if (class_name_ok(E, c, hint))
        k.name = hint;
    else
        k.name = lower__e_tmp(E), anonymous = 1;
    if (has_fields(c, 0))
        k.init = lower__e_tmp(E);
    struct lname *sinit = has_fields(c, 1) ? lower__e_tmp(E) : NULL;
    E->cls = &k;
    declare_privates(E, c);
    if (c->b) {
        W(" __inherits(");
        lower__e_name(E, 0, k.name);
        W(", ");
        lower__e_name(E, 0, k.super);
        W(");");
    }
    if (anonymous) {
        /* an anonymous class's name is "" (not its constructor's temporary name) */
        W(" __fname(");
        lower__e_name(E, 0, k.name);
        W(", \"\");");
    }
    struct node *ctor = find_ctor(c);
    k.ctor = ctor ? ctor->b : NULL;
    struct node *lf = last_field(c, 0), *ls = last_field(c, 1);
    if (!ctor && !lf)
        e_ctor(E, c, NULL, c->line);
    for (struct node *m = c->c; m; m = m->next) {
        if ((m->flags & NF_COMPUTED) && (m->op == PK_FIELD)) {
            /* the key is a property key once, when the class is defined */
            m->y = lower__e_tmp(E);
            lower__e_name(E, m->line, m->y);
            W(" = __pk(");
            lower__e_expr_loose(E, m->a);
            W(");");
        }
        if (m == ctor) {
            e_ctor(E, c, m, m->line);
        } else if (m->op == PK_METHOD || m->op == PK_GET || m->op == PK_SET) {
            e_method(E, m, k.name);
        }
        if (m == lf) {
            e_init_function(E, c, c->d, 0, k.init, m->line);
            if (!ctor)
                e_ctor(E, c, NULL, m->line);
        }
        if (m == ls)
            e_init_function(E, c, c->d->next, 1, sinit, m->line);
    }
    /* a class's prototype property is read-only (before static fields run) */
    W(" __protoRO(");
    lower__e_name(E, 0, k.name);
    W(");");
    if (sinit) {
        W(" ");
        lower__e_name(E, 0, sinit);
        W(".call(");
        lower__e_name(E, 0, k.name);
        W(");");
    }
    lower__e_tok(E, c->d->line, " return ", 8);
    lower__e_name(E, 0, k.name);
    W(";");
    lower__e_declare_temps(E, &f);
    lower__e_pop_fn(E);
    E->cls = k.parent;
    W(" })(");
    if (c->b)
        lower__e_expr(E, c->b);
    W(")");
}

/* super's object: the parent class's prototype (or the parent class in a
 * static member); without extends, Object.prototype (Function.prototype). */
static void e_super_home(struct emit *E, struct eclass *k, int is_static)
{
    if (k->super) {
        lower__e_name(E, 0, k->super);
        if (!is_static)
            W(".prototype");
    } else if (is_static) {
        W("Function.prototype");
    } else {
        W("Object.prototype");
    }
}

static void e_super_object_of(struct emit *E, struct funcinfo *o)
{
    struct eclass *k = E->cls;
    if (k) {
        e_super_home(E, k, o && (o->flags & FI_STATIC));
    } else if (E->obj_home) {
        /* an object-literal method: the prototype of its object, as it is now */
        W("__homeProto(");
        lower__e_name(E, 0, E->obj_home);
        W(")");
    } else {
        /* code of a direct eval: the caller's (lower__e_eval_super) */
        W("__evalSuper");
        E->eval_super = 1;
    }
}

static void e_super_object(struct emit *E, struct node *m)
{
    e_super_object_of(E, m->a->y);
}

/* The variable through which eval code reaches the caller's #name: __evalPriv_name. */
struct lname *lower__e_eval_private(struct emit *E, struct lname *name)
{
    char *tmp = lower__arena_alloc(&E->cx->arena, 11 + (size_t)name->len);
    if (!tmp)
        lower__oom(E->cx);
    memcpy(tmp, "__evalPriv_", 11);
    memcpy(tmp + 11, name->s, name->len);
    struct lname *n = lower__intern(&E->cx->names, tmp, 11 + name->len);
    if (!n)
        lower__oom(E->cx);
    return n;
}

/* Where a direct eval's code may use super.x (a method, constructor or field
 * initialiser, or an arrow in one): `(__evalSuper = <super's object>, ` before
 * the code (the eval code reads the caller's __evalSuper). Returns whether it
 * wrote it. */
int lower__e_eval_super(struct emit *E, struct funcinfo *o)
{
    if (!o || !o->node || !(E->cls || E->obj_home))
        return 0;
    if (!((o->flags & FI_CLASS_INIT) || (o->node->kind == N_FUNC && (o->node->op & FN_METHOD))))
        return 0;
    if (E->obj_home && !E->cls && !(o->flags & FI_USES_SUPER))
        return 0;
    struct lname *name = lower__intern(&E->cx->names, "__evalSuper", 11);
    if (!name)
        lower__oom(E->cx);
    lower__e_tmp(E);
    E->fn->temps[E->fn->ntemps - 1] = name; /* a variable of the caller, by that name */
    W("(__evalSuper = ");
    e_super_object_of(E, o);
    W(", ");
    return 1;
}

/* super.x = v: the setter found from super's object runs with this as the
 * receiver; without one, this gets an own x (never through this's own setter). */
void lower__e_super_set(struct emit *E, struct node *m, struct node *value)
{
    if (!E->cls && !E->obj_home && E->cx->mode != LOWER_MODE_EVAL)
        lower__e_error(E, m, "'super' keyword unexpected here");
    lower__e_tok(E, m->line, "__superSet(", 11);
    e_super_object(E, m);
    W(", ");
    if (m->flags & NF_COMPUTED)
        lower__e_expr(E, m->b);
    else
        lower__e_prop_key_string(E, m->b, 0);
    W(", ");
    lower__e_expr_loose(E, value);
    W(", ");
    struct node th = *m->a;
    th.kind = N_THIS;
    lower__e_this(E, &th);
    W(")");
}

void lower__e_super_member(struct emit *E, struct node *m, int for_call)
{
    struct eclass *k = E->cls;
    struct funcinfo *o = m->a->y;
    int is_static = o && (o->flags & FI_STATIC);
    if (!k && !E->obj_home && E->cx->mode != LOWER_MODE_EVAL)
        lower__e_error(E, m, "'super' keyword unexpected here");
    (void)is_static;
    if (for_call) {
        lower__e_tok(E, m->line, "", 0);
        e_super_object(E, m);
        lower__e_member_suffix(E, m);
        return;
    }
    /* a read goes through accessors with this as the receiver */
    lower__e_tok(E, m->line, "__superGet(", 11);
    e_super_object(E, m);
    W(", ");
    if (m->flags & NF_COMPUTED)
        lower__e_expr(E, m->b);
    else
        lower__e_prop_key_string(E, m->b, 0);
    W(", ");
    struct node th = *m->a;
    th.kind = N_THIS;
    lower__e_this(E, &th);
    W(")");
}

/* ---- enums ------------------------------------------------------------------------ */

static int member_name_is(struct node *m, struct lname *name)
{
    return m->a->kind == N_IDENT && m->a->name == name;
}

void lower__e_enum(struct emit *E, struct node *n)
{
    struct binding *b = n->a->x;
    struct lname *name = b ? b->out : n->a->name;
    lower__e_tok(E, n->line, "var ", 4);
    lower__e_name(E, 0, name);
    W("; (function (");
    lower__e_name(E, 0, name);
    W(") {");
    double next = 0;
    int known = 1;
    char num[64];
    for (struct node *m = n->b; m; m = m->next) {
        int is_str = m->b && m->b->kind == N_STR;
        double v = 0;
        int vknown = 0;
        if (!m->b) {
            if (!known)
                lower__e_error(E, m, "Enum member must have initializer");
            v = next;
            vknown = 1;
        } else if (m->b->kind == N_NUM) {
            char tmp[128];
            size_t k = 0;
            for (uint32_t i = m->b->pos; i < m->b->end && k < sizeof tmp - 1; i++)
                if (E->src[i] != '_')
                    tmp[k++] = E->src[i];
            tmp[k] = 0;
            char *end;
            v = strtod(tmp, &end);
            vknown = (*end == 0);
        }
        if (is_str) {
            lower__e_tok(E, m->line, " ", 1);
            lower__e_name(E, 0, name);
            W("[");
            lower__e_prop_key_string(E, m->a, 0);
            W("] = ");
            lower__e_expr(E, m->b);
            W(";");
            known = 0;
            continue;
        }
        lower__e_tok(E, m->line, " ", 1);
        lower__e_name(E, 0, name);
        W("[");
        lower__e_name(E, 0, name);
        W("[");
        lower__e_prop_key_string(E, m->a, 0);
        W("] = ");
        if (vknown) {
            snprintf(num, sizeof num, "%.17g", v);
            lower__e_w(E, num);
            next = v + 1;
            known = 1;
        } else {
            /* members named in the initialiser refer to this enum */
            struct node *saved = E->enum_node;
            E->enum_node = n;
            E->enum_name = name;
            W("(");
            lower__e_expr(E, m->b);
            W(")");
            E->enum_node = saved;
            known = 0;
        }
        W("] = ");
        lower__e_prop_key_string(E, m->a, 0);
        W(";");
        if (!known && !m->next)
            break;
        if (!known && m->next && !m->next->b) {
            /* next member continues from this runtime value */
            lower__e_tok(E, m->next->line, " ", 1);
            lower__e_name(E, 0, name);
            W("[");
            lower__e_name(E, 0, name);
            W("[");
            lower__e_prop_key_string(E, m->next->a, 0);
            W("] = ");
            lower__e_name(E, 0, name);
            W("[");
            lower__e_prop_key_string(E, m->a, 0);
            W("] + 1] = ");
            lower__e_prop_key_string(E, m->next->a, 0);
            W(";");
            m = m->next;
            known = 0;
        }
    }
    (void)member_name_is;
    lower__e_tok(E, n->c->line, " })(", 4);
    lower__e_name(E, 0, name);
    W(" || (");
    lower__e_name(E, 0, name);
    W(" = {}));");
}

/* Used by the identifier emitter: an enum member named inside its enum. */
int lower__e_enum_member_ref(struct emit *E, struct node *id)
{
    if (!E->enum_node || id->x)
        return 0;
    for (struct node *m = E->enum_node->b; m; m = m->next)
        if (member_name_is(m, id->name)) {
            lower__e_name(E, id->line, E->enum_name);
            lower__e_dot(E, 0, id->name);
            return 1;
        }
    return 0;
}
