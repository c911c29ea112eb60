#!/bin/sh
# Derives the sandbox build of Duktape from the packaged amalgamation:
# copies duktape.c/.h and a duk_config.h with our overrides into OUTDIR (they
# must sit together, or the stock header is used silently) and applies the
# small patches described in ../shared/research/duktape.md section 2.1, plus
# a fourth that reports the user's line when a timeout fires and a fifth
# that makes "x is not callable" errors name the line of the call (Duktape
# built them with the pc of the last synced instruction, often an earlier line).
# Patches 7 to 10 make the compiler cheaper (constant de-duplication, varmap
# lookups, constant appends, token slots) without changing what the compiled
# code does (patch 7 may, rarely, keep a duplicate constant). Patch 11 replays
# the first pass's tokens in the second pass instead of lexing them again;
# patch 12 adds ASCII fast paths to the lexer; patch 13 skips generic property
# writes in the compiler's bookkeeping, patch 14 in its arrays, and patch 15
# in its value-stack copies. The patches after them make running cheaper
# (plain-object fast paths of sandbox/duktape/fastpaths.inc for Object.keys and
# object spread, object literals, JSON.parse strings, split, property reads
# and writes) and add the lowering's two directives, "use duk noctor" and
# "use duk nobind"; each says what and why where it is applied.
set -eu
src=${DUKTAPE_SRC:-/usr/share/duktape}
out=$1
here=$(dirname "$0")
mkdir -p "$out"
for f in duktape.c duktape.h duk_config.h; do
    [ -r "$src/$f" ] || { echo "duktape-variant: $src/$f missing (apt-get install duktape-dev)" >&2; exit 1; }
done
grep -q 'define DUK_VERSION *20700L' "$src/duktape.h" ||
    { echo "duktape-variant: expected Duktape 2.7.0 in $src" >&2; exit 1; }

sed -e "/__OVERRIDE_DEFINES__/r $here/config_overrides.h" "$src/duk_config.h" > "$out/duk_config.h.tmp"
cp "$src/duktape.h" "$out/duktape.h"

# Patch 1: the regexp matcher never reaches the bytecode interrupt; poll the
# deadline every 64K steps. Patch 2: the compiler's recursion counter does not
# check the native stack. Patch 3: a signal-safe way to force an interrupt.
sed -e 's|^\(\t\t\)if (re_ctx->steps_count >= re_ctx->steps_limit) {|\1if ((re_ctx->steps_count \& 0xffffUL) == 0 \&\& DUK_USE_EXEC_TIMEOUT_CHECK(re_ctx->thr->heap->heap_udata)) { duk__sandbox_timeout_site(re_ctx->thr, re_ctx->thr->callstack_curr); DUK_ERROR_RANGE(re_ctx->thr, "execution timeout"); DUK_WO_NORETURN(return NULL;); }\n&|' \
    -e '/^DUK_LOCAL void duk__comp_recursion_increase(duk_compiler_ctx \*comp_ctx) {$/a\
\tduk_native_stack_check(comp_ctx->thr);' \
    -e '/^DUK_LOCAL DUK_EXEC_NOINLINE_PERF DUK_COLD duk_small_uint_t duk__executor_interrupt(duk_hthread \*thr) {$/i\
DUK_LOCAL void duk__sandbox_timeout_site(duk_hthread *thr, duk_activation *act);' \
    -e '/^DUK_LOCAL const duk_uint8_t \*duk__match_regexp(duk_re_matcher_ctx \*re_ctx, const duk_uint8_t \*pc, const duk_uint8_t \*sp) {$/i\
DUK_LOCAL void duk__sandbox_timeout_site(duk_hthread *thr, duk_activation *act);' \
    -e 's|^\(\t\t\)DUK_D(DUK_DPRINT("execution timeout, throwing a RangeError"));|&\n\1duk__sandbox_timeout_site(thr, act);|' \
    -e '/^DUK_INTERNAL DUK_NOINLINE DUK_COLD void duk_call_setup_propcall_error(duk_hthread \*thr, duk_tval \*tv_base, duk_tval \*tv_key) {$/,/entry_top = duk_get_top(thr);/ s/^\(\t\)entry_top = duk_get_top(thr);/&\n\1duk_hthread_sync_currpc(thr); \/\* mcp-codemode: the error is made now, blame this pc \*\//' \
    "$src/duktape.c" > "$out/duktape.c.tmp"
cat >> "$out/duktape.c.tmp" <<'C'

/* mcp-codemode: force an executor interrupt (and so a timeout check) before
 * the next bytecode instruction. A single int store: async-signal-safe. */
DUK_EXTERNAL void sandbox_request_interrupt(duk_context *ctx);
DUK_EXTERNAL void sandbox_request_interrupt(duk_context *ctx) {
	duk_hthread *thr = (duk_hthread *) ctx;
	if (thr != NULL && thr->heap != NULL && thr->heap->curr_thread != NULL) {
		thr->heap->curr_thread->interrupt_counter = 0;
	}
}

/* mcp-codemode: on an execution timeout, tell the sandbox (through
 * sandbox__timeout_site) where each of the innermost activations was, until
 * it accepts one (a frame of the user's program), so the error can name the
 * user's line even though the error itself unwinds through runtime frames. */
DUK_LOCAL void duk__sandbox_timeout_site(duk_hthread *thr, duk_activation *act) {
	int depth;
	duk_hthread_sync_currpc(thr);
	for (depth = 0; act != NULL && depth < 32; depth++, act = act->parent) {
		duk_uint_fast32_t line;
		const char *file;
		int done;
		duk_push_tval(thr, &act->tv_func);
		if (!duk_is_function(thr, -1)) { duk_pop(thr); continue; }
		/* The innermost frame is about to execute curr_pc; callers are past their call. */
		if (act->func == NULL || !DUK_HOBJECT_IS_COMPFUNC(act->func)) { duk_pop(thr); continue; }
		line = duk_hobject_pc2line_query(thr, -1, depth == 0 ? (duk_uint_fast32_t) (act->curr_pc - DUK_HCOMPFUNC_GET_CODE_BASE(thr->heap, (duk_hcompfunc *) act->func)) : duk_hthread_get_act_prev_pc(thr, act));
		duk_get_prop_string(thr, -1, "fileName");
		file = duk_get_string(thr, -1);
		done = sandbox__timeout_site(thr->heap->heap_udata, file, (long) line);
		duk_pop_2(thr);
		if (done) break;
	}
}
C
# Patch 6: reference counts of the template's objects are pinned in a worker
# (SANDBOX_PINNED, sandbox/duktape/config_overrides.h): Duktape never writes them, so a run no
# longer copies the template pages holding the headers of every string and
# built-in it touches. Pinned objects are freed by mark-and-sweep only.
sed -i -e 's|^#define DUK_TVAL_NEEDS_REFCOUNT_UPDATE(tv)   DUK_TVAL_IS_HEAP_ALLOCATED((tv))$|#define DUK_TVAL_NEEDS_REFCOUNT_UPDATE(tv) (DUK_TVAL_IS_HEAP_ALLOCATED((tv)) \&\& !SANDBOX_PINNED(DUK_TVAL_GET_HEAPHDR((tv))))|' \
    -e 's|^#define DUK_HEAPHDR_NEEDS_REFCOUNT_UPDATE(h) 1$|#define DUK_HEAPHDR_NEEDS_REFCOUNT_UPDATE(h) (!SANDBOX_PINNED((h)))|' \
    -e 's|^\t\tDUK_HEAPHDR_PREINC_REFCOUNT((duk_heaphdr \*) h); \\$|\t\tif (SANDBOX_PINNED(h)) { return; } \\\n&|' \
    -e 's|^\t\tif (DUK_HEAPHDR_PREDEC_REFCOUNT((duk_heaphdr \*) h) != 0) { \\$|\t\tif (SANDBOX_PINNED(h)) { return; } \\\n&|' \
    "$out/duktape.c.tmp"
# Patch 7: the compiler's constant de-duplication (duk__getconst) compared
# each new constant with up to 256 earlier ones through duk_js_samevalue, ~27%
# of compiling a 200-line program. A two-way table in the compiler context
# (set by string pointer or number bits, salted with the function's constant
# array) names two candidate indices, checked with duk_js_samevalue as before:
# a hit reuses the constant, a miss appends one and replaces a way that does
# not hold a constant of this function in this set (else the second). Stale or
# evicted entries only cost a duplicate constant (same value, same behaviour);
# entries hold indices mod 2^16, so past 65536 constants they simply miss.
perl -0pi -e 's|(\tduk_compiler_func curr_func;\n)|$1\tduk_uint16_t sandbox_const_slots[1024]; /* mcp-codemode: duk__getconst hints (index mod 2^16) */\n|' "$out/duktape.c.tmp"
perl -0pi -e 's|^(DUK_LOCAL duk_regconst_t duk__getconst\(duk_compiler_ctx \*comp_ctx\) \{\n)|/* mcp-codemode: the two ways of sandbox_const_slots for tv (NULL: not a string or number). */
DUK_LOCAL duk_uint16_t *duk__sandbox_const_slot(duk_compiler_ctx *comp_ctx, duk_tval *tv) {
\tduk_uint64_t key;
\tif (DUK_TVAL_IS_STRING(tv)) {
\t\tkey = (duk_uint64_t) (duk_uintptr_t) DUK_TVAL_GET_STRING(tv);
\t} else if (DUK_TVAL_IS_NUMBER(tv)) {
\t\tduk_double_t d = DUK_TVAL_GET_NUMBER(tv);
\t\tif (d != d) d = DUK_DOUBLE_NAN;
\t\tduk_memcpy((void *) &key, (const void *) &d, sizeof(key));
\t} else {
\t\treturn NULL;
\t}
\tkey ^= (duk_uint64_t) (duk_uintptr_t) comp_ctx->curr_func.h_consts;
\treturn &comp_ctx->sandbox_const_slots[((key * 0x9e3779b97f4a7c15ULL) >> 55) << 1];
}

$1\tduk_uint16_t *sandbox_slot;
\tduk_small_int_t sandbox_way;
|m' "$out/duktape.c.tmp"
perl -0pi -e 's|(\tn_check = \(n > DUK__GETCONST_MAX_CONSTS_CHECK \? DUK__GETCONST_MAX_CONSTS_CHECK : n\);\n)(\tfor \(i = 0; i < n_check; i\+\+\) \{\n.*?\n\t\}\n)|\tsandbox_slot = duk__sandbox_const_slot(comp_ctx, tv1);
\tif (sandbox_slot != NULL) {
\t\tfor (sandbox_way = 0; sandbox_way < 2; sandbox_way++) {
\t\t\ti = (duk_int_t) sandbox_slot[sandbox_way];
\t\t\tif (i < n && duk_js_samevalue(tv1, DUK_HOBJECT_A_GET_VALUE_PTR(thr->heap, f->h_consts, i))) {
\t\t\t\tduk_pop(thr);
\t\t\t\treturn (duk_regconst_t) i \| (duk_regconst_t) DUK__CONST_MARKER;
\t\t\t}
\t\t}
\t\ti = (duk_int_t) sandbox_slot[0];
\t\tsandbox_way = (i < n && duk__sandbox_const_slot(comp_ctx, DUK_HOBJECT_A_GET_VALUE_PTR(thr->heap, f->h_consts, i)) == sandbox_slot);
\t\tsandbox_slot[sandbox_way] = (duk_uint16_t) n;
\t} else {
$1$2\t}
|s' "$out/duktape.c.tmp"
# Patch 8: the compiler resolves every identifier against the function's
# varmap (a bare object: name -> register or null) through the generic
# duk_get_prop; an own-entry lookup gives the same answer for less.
perl -0pi -e 's|(\tduk_get_prop\(thr, comp_ctx->curr_func\.varmap_idx\);\n\tif \(duk_is_number\(thr, -1\)\) \{\n\t\tret = duk_to_int\(thr, -1\);\n\t\tduk_pop\(thr\);\n\t\} else \{\n\t\tduk_pop\(thr\);\n)|\t{ /* mcp-codemode: a direct own-entry lookup instead of duk_get_prop */
\t\tduk_tval *sandbox_tv = duk_hobject_find_entry_tval_ptr(thr->heap, comp_ctx->curr_func.h_varmap, h_varname);
\t\tsandbox_isreg = sandbox_tv != NULL \&\& DUK_TVAL_IS_NUMBER(sandbox_tv);
\t\tif (sandbox_isreg) ret = (duk_regconst_t) DUK_TVAL_GET_NUMBER(sandbox_tv);
\t\tduk_pop(thr);
\t}
\tif (sandbox_isreg) {
\t} else {
|' "$out/duktape.c.tmp"
perl -0pi -e 's|(DUK_LOCAL duk_regconst_t duk__lookup_active_register_binding\(duk_compiler_ctx \*comp_ctx\) \{\n)|$1\tduk_bool_t sandbox_isreg;\n|' "$out/duktape.c.tmp"
# Patch 9: a new constant was appended to the function's constant array (a
# bare array) through the generic duk_put_prop_index, ~450 instructions
# each; defining the array entry and setting the length directly does the same.
perl -0pi -e 's|\t\(void\) duk_put_prop_index\(thr, f->consts_idx, \(duk_uarridx_t\) n\); /\* invalidates tv1, tv2 \*/\n|\tduk_xdef_prop_index_wec(thr, f->consts_idx, (duk_uarridx_t) n); /* invalidates tv1, tv2 */\n\t((duk_harray *) f->h_consts)->length = (duk_uint32_t) n + 1U; /* mcp-codemode: a direct append */\n|' "$out/duktape.c.tmp"
# Patch 10: on every token the compiler copied the current token's two value
# slots into the previous token's (duk_copy: refcount updates, index checks;
# ~9% of a compile). Swapping the slot indices instead (the lexer writes the
# next token into the old previous slots) leaves the previous token's values
# where they were. The token structs' str1/str2 are read only for tokens
# that set them (identifiers, strings, regexps).
perl -0pi -e 's|\tduk_copy\(thr, comp_ctx->tok11_idx, comp_ctx->tok21_idx\);\n\tduk_copy\(thr, comp_ctx->tok12_idx, comp_ctx->tok22_idx\);\n|\t{ /* mcp-codemode: swap the token slots instead of copying */
\t\tduk_idx_t sandbox_t = comp_ctx->tok11_idx;
\t\tcomp_ctx->tok11_idx = comp_ctx->tok21_idx;
\t\tcomp_ctx->tok21_idx = sandbox_t;
\t\tsandbox_t = comp_ctx->tok12_idx;
\t\tcomp_ctx->tok12_idx = comp_ctx->tok22_idx;
\t\tcomp_ctx->tok22_idx = sandbox_t;
\t\tcomp_ctx->lex.slot1_idx = comp_ctx->tok11_idx;
\t\tcomp_ctx->lex.slot2_idx = comp_ctx->tok12_idx;
\t}
|' "$out/duktape.c.tmp"
# Patch 11: token replay. Each function body is compiled in two passes over
# its text, so every token was lexed twice (~20% of a compile). The first
# lexing of each token is recorded (source order); a rewind replays the
# records without refilling the lexer window until a token is needed that was
# not recorded. Records hold their strings (reference count; marked by
# mark-and-sweep through heap->sandbox_lexers); duk_js_compile frees them.
perl -0pi -e 's|^(struct duk_lexer_ctx \{\n)|/* mcp-codemode (patch 11): a recorded token (duk__sandbox_seek) */
typedef struct duk_sandbox_tok {
\tunion { duk_hstring *str; duk_double_t num; } v1; /* str1 (identifier, string), or the number */
\tduk_uint32_t from_offset; /* where lexing started */
\tduk_uint32_t start_offset, end_offset;
\tduk_int32_t start_line;
\tduk_uint8_t t, t_nores, flags, end_lines; /* end_lines: line at end_offset - start_line */
} duk_sandbox_tok;
#define DUK__SANDBOX_TOK_STRICT 1
#define DUK__SANDBOX_TOK_REGEXP 2
#define DUK__SANDBOX_TOK_MODES 3
#define DUK__SANDBOX_TOK_LINETERM 4
#define DUK__SANDBOX_TOK_NUM 8
#define DUK__SANDBOX_TOK_ESCAPES 16 /* num_escapes > 0 */
#define DUK__SANDBOX_TOK_NOREPLAY 32 /* a regexp: lexed again */
#define DUK__SANDBOX_TOK_MAX 65536 /* live records (32 bytes each) per compile */
#define DUK__SANDBOX_TOK_CHUNK 512 /* records are allocated in chunks, never moved */
#define DUK__SANDBOX_TOK_AT(lex_ctx, i) ((lex_ctx)->sandbox_chunks[(i) / DUK__SANDBOX_TOK_CHUNK] + (i) % DUK__SANDBOX_TOK_CHUNK)

$1|m' "$out/duktape.c.tmp"
perl -0pi -e 's|(\tduk_small_uint_t flags; /\* lexer flags, use compiler flag defines for now \*/\n)|$1\tduk_sandbox_tok **sandbox_chunks; /* mcp-codemode: token replay records */
\tduk_size_t sandbox_ntoks, sandbox_nchunks, sandbox_nchunks_cap;
\tduk_size_t sandbox_next; /* record to replay next, when sandbox_stale */
\tduk_lexer_point sandbox_pt; /* position, when sandbox_stale */
\tduk_uint8_t sandbox_stale; /* window not filled: replaying */
\tstruct duk_lexer_ctx *sandbox_prev; /* heap->sandbox_lexers chain */
|' "$out/duktape.c.tmp"
perl -0pi -e 's|^(DUK_INTERNAL_DECL void duk_lexer_setpoint\(duk_lexer_ctx \*lex_ctx, duk_lexer_point \*pt\);\n)|$1DUK_INTERNAL_DECL void duk_lexer_sandbox_free(duk_hthread *thr, duk_lexer_ctx *lex_ctx);\nDUK_INTERNAL_DECL void duk_lexer_sandbox_release(duk_lexer_ctx *lex_ctx, duk_size_t keep, duk_size_t rbrace_offset);\n|m' "$out/duktape.c.tmp"
perl -0pi -e 's|(\n\tduk_uint_t pf_prevent_count;\n)|$1\tstruct duk_lexer_ctx *sandbox_lexers; /* mcp-codemode: compiling lexers (token replay records) */\n|' "$out/duktape.c.tmp"
perl -0pi -e 's|(\tduk__mark_tval\(heap, &heap->lj\.value2\);\n)|$1\t{ /* mcp-codemode: strings of token replay records */
\t\tduk_lexer_ctx *sandbox_lex;
\t\tfor (sandbox_lex = heap->sandbox_lexers; sandbox_lex != NULL; sandbox_lex = sandbox_lex->sandbox_prev) {
\t\t\tduk_size_t sandbox_i;
\t\t\tfor (sandbox_i = 0; sandbox_i < sandbox_lex->sandbox_ntoks; sandbox_i++) {
\t\t\t\tduk_sandbox_tok *sandbox_e = DUK__SANDBOX_TOK_AT(sandbox_lex, sandbox_i);
\t\t\t\tif (!(sandbox_e->flags & DUK__SANDBOX_TOK_NUM)) duk__mark_heaphdr(heap, (duk_heaphdr *) sandbox_e->v1.str);
\t\t\t}
\t\t}
\t}
|' "$out/duktape.c.tmp"
perl -0pi -e 's|(\tthr->compile_ctx = &comp_stk\.comp_ctx_alloc; /\* for duk_error_augment\.c \*/\n)|$1\tcomp_stk.comp_ctx_alloc.lex.sandbox_prev = thr->heap->sandbox_lexers; /* mcp-codemode: token replay */
\tthr->heap->sandbox_lexers = &comp_stk.comp_ctx_alloc.lex;
|' "$out/duktape.c.tmp"
perl -0pi -e 's|(\tthr->compile_ctx = prev_ctx; /\* must restore reliably before returning \*/\n)|$1\tduk_lexer_sandbox_free(thr, &comp_stk.comp_ctx_alloc.lex);\n|' "$out/duktape.c.tmp"
perl -0pi -e 's|^(\t\tat_end = )\(thr->compile_ctx->lex\.window\[0\]\.codepoint < 0\);\n|$1(thr->compile_ctx->lex.sandbox_stale ? thr->compile_ctx->lex.sandbox_pt.offset >= thr->compile_ctx->lex.input_length : thr->compile_ctx->lex.window[0].codepoint < 0); /* mcp-codemode: replay */\n|m' "$out/duktape.c.tmp"
perl -0pi -e 's|(DUK_INTERNAL void duk_lexer_getpoint\(duk_lexer_ctx \*lex_ctx, duk_lexer_point \*pt\) \{\n)|$1\tif (lex_ctx->sandbox_stale) {\n\t\t*pt = lex_ctx->sandbox_pt;\n\t\treturn;\n\t}\n|' "$out/duktape.c.tmp"
perl -0pi -e 's|(DUK_INTERNAL void duk_lexer_setpoint\(duk_lexer_ctx \*lex_ctx, duk_lexer_point \*pt\) \{\n)|$1\tif (duk__sandbox_seek(lex_ctx, pt)) {\n\t\treturn;\n\t}\n|' "$out/duktape.c.tmp"
perl -0pi -e 's|^DUK_INTERNAL\nvoid duk_lexer_parse_js_input_element\(duk_lexer_ctx \*lex_ctx,\n|DUK_LOCAL void duk__sandbox_lex_raw(duk_lexer_ctx *lex_ctx,\n|m' "$out/duktape.c.tmp"
perl -0pi -e 's|(\n\tduk_int_t fnum;\n\n\t/\*\n\t \*  On second pass, skip the function\.\n)|\n\tduk_size_t sandbox_keep = comp_ctx->lex.sandbox_ntoks; /* mcp-codemode: token replay */$1|' "$out/duktape.c.tmp"
perl -0pi -e 's|(\tduk__parse_func_like_raw\(comp_ctx, flags\); /\* pushes function template \*/\n)|$1\tduk_lexer_sandbox_release(\&comp_ctx->lex, sandbox_keep, comp_ctx->prev_token.start_offset); /* mcp-codemode */\n|' "$out/duktape.c.tmp"
SANDBOX_CODE=$(cat <<'C'
/* mcp-codemode (patch 11): token replay. Duktape compiles each function in two
 * passes over the same text, so every token was lexed (decoded, scanned,
 * interned) twice. The first lexing of a token, in source order, is recorded
 * in lex_ctx->sandbox_chunks; a rewind (duk_lexer_setpoint) to a recorded
 * place replays the records instead of lexing, without filling the window,
 * until a token is needed that was not recorded (the frontier, a regexp, or
 * other strict/regexp modes), where the window is filled and lexing goes on.
 * A token is a pure function of where lexing starts (the line follows),
 * strictness and regexp mode, so a replayed token is the one the lexer would
 * have made. Recorded strings are held by a reference count and marked by
 * mark-and-sweep through the heap's chain of active lexers; duk_js_compile
 * links and frees them, and an inner function's records go once it is
 * compiled (the outer function's second pass skips its body). */
DUK_LOCAL void duk__sandbox_lex_raw(duk_lexer_ctx *lex_ctx, duk_token *out_token, duk_bool_t strict_mode, duk_bool_t regexp_mode);

/* The first record whose from_offset (by_start: start_offset) is >= offset. */
DUK_LOCAL duk_size_t duk__sandbox_find(duk_lexer_ctx *lex_ctx, duk_size_t offset, duk_bool_t by_start) {
	duk_size_t lo = 0, hi = lex_ctx->sandbox_ntoks;
	while (lo < hi) {
		duk_size_t mid = lo + (hi - lo) / 2;
		duk_sandbox_tok *e = DUK__SANDBOX_TOK_AT(lex_ctx, mid);
		if ((duk_size_t) (by_start ? e->start_offset : e->from_offset) < offset) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo;
}

/* Finds the record lexed from pt (from its start, or from its first char);
 * then the lexer replays from there with a stale window. */
DUK_LOCAL duk_bool_t duk__sandbox_seek(duk_lexer_ctx *lex_ctx, duk_lexer_point *pt) {
	duk_small_int_t by_start;
	lex_ctx->sandbox_stale = 0;
	for (by_start = 0; by_start < 2; by_start++) {
		duk_size_t k = duk__sandbox_find(lex_ctx, pt->offset, by_start);
		if (k < lex_ctx->sandbox_ntoks) {
			duk_sandbox_tok *e = DUK__SANDBOX_TOK_AT(lex_ctx, k);
			if ((duk_size_t) (by_start ? e->start_offset : e->from_offset) == pt->offset) {
				lex_ctx->sandbox_stale = 1;
				lex_ctx->sandbox_next = k;
				lex_ctx->sandbox_pt = *pt;
				return 1;
			}
		}
	}
	return 0;
}

/* Fills the window at the replay position: lexing goes on from there. */
DUK_LOCAL void duk__sandbox_materialize(duk_lexer_ctx *lex_ctx) {
	lex_ctx->sandbox_stale = 0;
	lex_ctx->input_offset = lex_ctx->sandbox_pt.offset;
	lex_ctx->input_line = lex_ctx->sandbox_pt.line;
	duk__init_lexer_window(lex_ctx);
}

/* Replays e if lexing from the current position would make it: 1, else 0. */
DUK_LOCAL duk_bool_t duk__sandbox_replay(duk_lexer_ctx *lex_ctx, const duk_sandbox_tok *e, duk_token *out_token, duk_small_uint_t modes) {
	duk_bool_t lineterm;
	if ((e->flags & (DUK__SANDBOX_TOK_MODES | DUK__SANDBOX_TOK_NOREPLAY)) != modes) {
		return 0;
	}
	if ((duk_size_t) e->from_offset == lex_ctx->sandbox_pt.offset) {
		lineterm = (e->flags & DUK__SANDBOX_TOK_LINETERM) != 0;
	} else if ((duk_size_t) e->start_offset == lex_ctx->sandbox_pt.offset) {
		lineterm = 0; /* nothing skipped before the token */
	} else {
		return 0;
	}
	out_token->t = e->t;
	out_token->t_nores = e->t_nores;
	if (e->flags & DUK__SANDBOX_TOK_NUM) {
		out_token->num = e->v1.num;
	} else {
		out_token->str1 = e->v1.str;
	}
	out_token->start_offset = e->start_offset;
	out_token->start_line = e->start_line;
	out_token->num_escapes = (e->flags & DUK__SANDBOX_TOK_ESCAPES) ? 1 : 0; /* only compared with 0 */
	out_token->lineterm = lineterm;
	out_token->allow_auto_semi = lineterm || e->t == DUK_TOK_RCURLY;
	lex_ctx->sandbox_pt.offset = e->end_offset;
	lex_ctx->sandbox_pt.line = e->start_line + e->end_lines;
	lex_ctx->sandbox_next++;
	return 1;
}

/* Makes room for record n: 1, or 0 (no record; lexing goes on without). */
DUK_LOCAL duk_bool_t duk__sandbox_room(duk_lexer_ctx *lex_ctx, duk_size_t n) {
	duk_size_t c = n / DUK__SANDBOX_TOK_CHUNK;
	void *p;
	if (c < lex_ctx->sandbox_nchunks) {
		return 1;
	}
	if (n >= DUK__SANDBOX_TOK_MAX || lex_ctx->input_length >= 0x7fffffffUL) {
		return 0;
	}
	if (c == lex_ctx->sandbox_nchunks_cap) {
		duk_size_t cap = c == 0 ? 8 : c * 2;
		p = DUK_REALLOC(lex_ctx->thr->heap, (void *) lex_ctx->sandbox_chunks, cap * sizeof(duk_sandbox_tok *));
		if (p == NULL) {
			return 0;
		}
		lex_ctx->sandbox_chunks = (duk_sandbox_tok **) p;
		lex_ctx->sandbox_nchunks_cap = cap;
	}
	p = DUK_ALLOC(lex_ctx->thr->heap, DUK__SANDBOX_TOK_CHUNK * sizeof(duk_sandbox_tok));
	if (p == NULL) {
		return 0;
	}
	lex_ctx->sandbox_chunks[c] = (duk_sandbox_tok *) p;
	lex_ctx->sandbox_nchunks = c + 1;
	return 1;
}

/* Appends the token just lexed from offset 'from' if it continues the
 * records (source order) and there is room; else nothing. */
DUK_LOCAL void duk__sandbox_record(duk_lexer_ctx *lex_ctx, const duk_token *tok, duk_size_t from, duk_small_uint_t modes) {
	duk_sandbox_tok *e;
	duk_size_t n = lex_ctx->sandbox_ntoks;
	duk_int_t lines = lex_ctx->window[0].line - tok->start_line;
	if (n > 0 && (duk_size_t) DUK__SANDBOX_TOK_AT(lex_ctx, n - 1)->end_offset != from) {
		return; /* not at the frontier */
	}
	if (!duk__sandbox_room(lex_ctx, n)) {
		return;
	}
	e = DUK__SANDBOX_TOK_AT(lex_ctx, n);
	e->t = (duk_uint8_t) tok->t;
	e->t_nores = (duk_uint8_t) tok->t_nores;
	e->flags = (duk_uint8_t) (modes | (tok->lineterm ? DUK__SANDBOX_TOK_LINETERM : 0) |
	                          (tok->num_escapes > 0 ? DUK__SANDBOX_TOK_ESCAPES : 0));
	e->end_lines = (duk_uint8_t) lines;
	e->v1.str = NULL;
	if (tok->t == DUK_TOK_REGEXP || lines < 0 || lines > 255) {
		e->flags |= DUK__SANDBOX_TOK_NOREPLAY; /* lexed again; a placeholder keeps the order */
	} else if (tok->t == DUK_TOK_NUMBER) {
		e->flags |= DUK__SANDBOX_TOK_NUM;
		e->v1.num = tok->num;
	} else if (tok->t_nores == DUK_TOK_IDENTIFIER || tok->t == DUK_TOK_STRING) {
		e->v1.str = tok->str1;
		DUK_HSTRING_INCREF(lex_ctx->thr, e->v1.str);
	}
	e->from_offset = (duk_uint32_t) from;
	e->start_offset = (duk_uint32_t) tok->start_offset;
	e->end_offset = (duk_uint32_t) lex_ctx->window[0].offset;
	e->start_line = (duk_int32_t) tok->start_line;
	lex_ctx->sandbox_ntoks = n + 1;
}

DUK_LOCAL void duk__sandbox_unref(duk_hthread *thr, duk_sandbox_tok *e) {
	if (!(e->flags & DUK__SANDBOX_TOK_NUM) && e->v1.str != NULL) {
		DUK_HSTRING_DECREF(thr, e->v1.str);
	}
}

DUK_INTERNAL
void duk_lexer_parse_js_input_element(duk_lexer_ctx *lex_ctx,
                                      duk_token *out_token,
                                      duk_bool_t strict_mode,
                                      duk_bool_t regexp_mode) {
	duk_small_uint_t modes = (strict_mode ? DUK__SANDBOX_TOK_STRICT : 0) | (regexp_mode ? DUK__SANDBOX_TOK_REGEXP : 0);
	duk_size_t from;
	if (lex_ctx->sandbox_stale) {
		duk_size_t k = lex_ctx->sandbox_next;
		duk_sandbox_tok *e = k < lex_ctx->sandbox_ntoks ? DUK__SANDBOX_TOK_AT(lex_ctx, k) : NULL;
		if (e != NULL && duk__sandbox_replay(lex_ctx, e, out_token, modes)) {
			if (++lex_ctx->token_count >= lex_ctx->token_limit) {
				DUK_ERROR_RANGE(lex_ctx->thr, DUK_STR_TOKEN_LIMIT);
				DUK_WO_NORETURN(return;);
			}
			return;
		}
		duk__sandbox_materialize(lex_ctx);
		from = lex_ctx->window[0].offset;
		duk__sandbox_lex_raw(lex_ctx, out_token, strict_mode, regexp_mode);
		if (e != NULL && (duk_size_t) e->from_offset == from && lex_ctx->window[0].offset == (duk_size_t) e->end_offset) {
			/* same extent (a regexp; other modes before "use strict"): replay on after it */
			lex_ctx->sandbox_stale = 1;
			lex_ctx->sandbox_next = k + 1;
			lex_ctx->sandbox_pt.offset = lex_ctx->window[0].offset;
			lex_ctx->sandbox_pt.line = lex_ctx->window[0].line;
			return;
		}
	} else {
		from = lex_ctx->window[0].offset;
		duk__sandbox_lex_raw(lex_ctx, out_token, strict_mode, regexp_mode);
	}
	if (out_token->t != DUK_TOK_EOF) {
		duk__sandbox_record(lex_ctx, out_token, from, modes);
	}
}

/* An inner function is compiled: drops the records from index keep (the
 * first after the token that followed 'function') up to, not including, the
 * closing brace at rbrace_offset, which the outer function's second pass
 * seeks when it skips the body. */
DUK_INTERNAL void duk_lexer_sandbox_release(duk_lexer_ctx *lex_ctx, duk_size_t keep, duk_size_t rbrace_offset) {
	duk_size_t b = duk__sandbox_find(lex_ctx, rbrace_offset, 1);
	duk_size_t i, gone;
	if (b >= lex_ctx->sandbox_ntoks || b <= keep || (duk_size_t) DUK__SANDBOX_TOK_AT(lex_ctx, b)->start_offset != rbrace_offset) {
		return;
	}
	if (lex_ctx->sandbox_stale && lex_ctx->sandbox_next < b) {
		duk__sandbox_materialize(lex_ctx);
	}
	gone = b - keep;
	for (i = keep; i < b; i++) {
		duk__sandbox_unref(lex_ctx->thr, DUK__SANDBOX_TOK_AT(lex_ctx, i));
	}
	for (i = b; i < lex_ctx->sandbox_ntoks; i++) {
		*DUK__SANDBOX_TOK_AT(lex_ctx, i - gone) = *DUK__SANDBOX_TOK_AT(lex_ctx, i);
	}
	lex_ctx->sandbox_ntoks -= gone;
	if (lex_ctx->sandbox_stale) {
		lex_ctx->sandbox_next -= gone;
	}
}

/* Drops the records (and their string references); unlinks the lexer from
 * the heap's chain. */
DUK_INTERNAL void duk_lexer_sandbox_free(duk_hthread *thr, duk_lexer_ctx *lex_ctx) {
	duk_size_t i;
	duk_lexer_ctx **pp;
	for (pp = &thr->heap->sandbox_lexers; *pp != NULL; pp = &(*pp)->sandbox_prev) {
		if (*pp == lex_ctx) {
			*pp = lex_ctx->sandbox_prev;
			break;
		}
	}
	for (i = 0; i < lex_ctx->sandbox_ntoks; i++) {
		duk__sandbox_unref(thr, DUK__SANDBOX_TOK_AT(lex_ctx, i));
	}
	for (i = 0; i < lex_ctx->sandbox_nchunks; i++) {
		DUK_FREE(thr->heap, (void *) lex_ctx->sandbox_chunks[i]);
	}
	DUK_FREE(thr->heap, (void *) lex_ctx->sandbox_chunks);
	lex_ctx->sandbox_chunks = NULL;
	lex_ctx->sandbox_ntoks = lex_ctx->sandbox_nchunks = lex_ctx->sandbox_nchunks_cap = 0;
	lex_ctx->sandbox_stale = 0;
}

C
) perl -0pi -e 's|^(DUK_INTERNAL void duk_lexer_getpoint\()|$ENV{SANDBOX_CODE}\n$1|m' "$out/duktape.c.tmp"
# Patch 12: ASCII fast paths of the lexer. An identifier of ASCII characters
# is interned straight from the source bytes (the general loop decoded,
# checked and appended it character by character), and an identifier is
# compared with the ~45 reserved words only if the string carries the
# reserved-word flags Duktape sets on exactly those strings.
perl -0pi -e 's|^(\t\tDUK__INITBUFFER\(lex_ctx\);\n\t\tfor \(;;\) \{\n\t\t\t/\* re-lookup first char on first loop \*/\n)|\t\tif (duk__sandbox_ident_ascii(lex_ctx, out_token)) { /* mcp-codemode: ASCII fast path */
\t\t\tgoto sandbox_ident_done;
\t\t}
$1|m' "$out/duktape.c.tmp"
perl -0pi -e 's|^(\t\tout_token->str1 = duk__internbuffer\(lex_ctx, lex_ctx->slot1_idx\);\n)(\t\tstr = out_token->str1;\n)|$1sandbox_ident_done:\n$2|m' "$out/duktape.c.tmp"
perl -0pi -e 's|^\t\tif \(out_token->num_escapes == 0\) \{\n|\t\tif (out_token->num_escapes == 0 \&\& DUK_HSTRING_HAS_RESERVED_WORD(str) \&\& (strict_mode \|\| !DUK_HSTRING_HAS_STRICT_RESERVED_WORD(str))) { /* mcp-codemode: flags first */\n|m' "$out/duktape.c.tmp"
SANDBOX_CODE=$(cat <<'C'
/* mcp-codemode (patch 12): ASCII fast paths of the lexer. Advances the
 * window by n characters (any n). */
DUK_LOCAL void duk__sandbox_skip(duk_lexer_ctx *lex_ctx, duk_size_t n) {
	while (n > 0) {
		duk_small_uint_t k = n < DUK_LEXER_WINDOW_SIZE ? (duk_small_uint_t) n : DUK_LEXER_WINDOW_SIZE;
		DUK__ADVANCECHARS(lex_ctx, k);
		n -= k;
	}
}

/* An identifier of ASCII characters without escapes goes from the source
 * bytes straight into slot 1: the string the general loop makes, without a
 * decode, check and append per character. Returns 0, having consumed
 * nothing, for any other identifier (the general loop takes it). */
DUK_LOCAL duk_bool_t duk__sandbox_ident_ascii(duk_lexer_ctx *lex_ctx, duk_token *out_token) {
	const duk_uint8_t *p0 = lex_ctx->input + lex_ctx->window[0].offset;
	const duk_uint8_t *pe = lex_ctx->input + lex_ctx->input_length;
	const duk_uint8_t *p = p0;
	duk_hstring *h;
	duk_tval *tv;
	if (lex_ctx->window[0].codepoint >= 0x80 || lex_ctx->window[0].codepoint == DUK_ASC_BACKSLASH) {
		return 0;
	}
	while (p < pe && *p < 0x80 && duk_is_idchar_tab[*p] != 0) {
		p++;
	}
	if (p < pe && (*p >= 0x80 || *p == DUK_ASC_BACKSLASH)) {
		return 0;
	}
	h = duk_heap_strtable_intern_checked(lex_ctx->thr, p0, (duk_uint32_t) (p - p0));
	tv = DUK_GET_TVAL_POSIDX(lex_ctx->thr, lex_ctx->slot1_idx);
	DUK_TVAL_SET_STRING_UPDREF(lex_ctx->thr, tv, h);
	out_token->str1 = h;
	duk__sandbox_skip(lex_ctx, (duk_size_t) (p - p0));
	return 1;
}

C
) perl -0pi -e 's|^(DUK_LOCAL void duk__sandbox_lex_raw\(duk_lexer_ctx \*lex_ctx,\n)|$ENV{SANDBOX_CODE}\n\n$1|m' "$out/duktape.c.tmp"
# Patch 13: bookkeeping of the compiler through the generic property
# machinery. Every statement reset the label list to its length at entry
# through duk_set_length (~390 instructions) even when it had not changed; it
# now returns early then. Declarations (name, kind) and inner functions
# (template, offset, line) were appended to their bare arrays with
# duk_put_prop_index; they are defined at the array's length and the length
# set, as patch 9 does for constants.
perl -0pi -e 's|^(DUK_LOCAL void duk__reset_labels_to_length\(duk_compiler_ctx \*comp_ctx, duk_size_t len\) \{\n\tduk_hthread \*thr = comp_ctx->thr;\n)|/* mcp-codemode: appends the value on the stack top to the bare array at idx, as index n (its length). */
DUK_LOCAL void duk__sandbox_append(duk_hthread *thr, duk_idx_t idx, duk_uarridx_t n) {
\tduk_harray *a = (duk_harray *) duk_known_hobject(thr, idx);
\tduk_xdef_prop_index_wec(thr, idx, n);
\tif (a->length <= n) {
\t\ta->length = n + 1;
\t}
}

$1\tif (((duk_harray *) comp_ctx->curr_func.h_labelnames)->length == len \&\&
\t    DUK_HBUFFER_DYNAMIC_GET_SIZE(comp_ctx->curr_func.h_labelinfos) == sizeof(duk_labelinfo) * len) {
\t\treturn; /* mcp-codemode: unchanged */
\t}
|m' "$out/duktape.c.tmp"
perl -0pi -e 's|duk_put_prop_index\(thr, comp_ctx->curr_func\.decls_idx, (n\|n \+ 1)\);|duk__sandbox_append(thr, comp_ctx->curr_func.decls_idx, $1);|g' "$out/duktape.c.tmp"
perl -0pi -e 's|\(void\) duk_put_prop_index\(thr, old_func\.funcs_idx, (\(duk_uarridx_t\) \(fnum \* 3( \+ [12])?\))\);|duk__sandbox_append(thr, old_func.funcs_idx, $1);|g' "$out/duktape.c.tmp"
# Patch 14: the compiler's bare arrays (constants, declarations, inner
# functions) grew their array part by ~1/8 + 2 slots per append that found it
# full (a reallocation and copy each time, ~360 instructions); appends now
# double it first. The second pass read the declarations and inner functions
# back through duk_get_prop_index; it reads their array parts directly (the
# generic read still takes anything else).
perl -0pi -e 's|^(/\* mcp-codemode: the two ways of sandbox_const_slots)|/* mcp-codemode: makes room for index n in the array part of the compiler array h (doubling). */
DUK_LOCAL void duk__sandbox_reserve(duk_hthread *thr, duk_hobject *h, duk_uarridx_t n) {
\tif (DUK_HOBJECT_HAS_ARRAY_PART(h) \&\& n >= DUK_HOBJECT_GET_ASIZE(h) \&\& n < 0x10000000UL) {
\t\tduk_uint32_t a = DUK_HOBJECT_GET_ASIZE(h) * 2;
\t\tduk_hobject_realloc_props(thr, h, DUK_HOBJECT_GET_ESIZE(h), a > n + 16 ? a : n + 16, DUK_HOBJECT_GET_HSIZE(h), 0);
\t}
}

/* mcp-codemode: pushes index i of the compiler array at idx (its array part, else a generic read). */
DUK_LOCAL void duk__sandbox_get_index(duk_hthread *thr, duk_idx_t idx, duk_uarridx_t i) {
\tduk_hobject *h = duk_known_hobject(thr, idx);
\tif (DUK_HOBJECT_HAS_ARRAY_PART(h) \&\& i < DUK_HOBJECT_GET_ASIZE(h) \&\& i < ((duk_harray *) h)->length \&\&
\t    !DUK_TVAL_IS_UNUSED(DUK_HOBJECT_A_GET_VALUE_PTR(thr->heap, h, i))) {
\t\tduk_push_tval(thr, DUK_HOBJECT_A_GET_VALUE_PTR(thr->heap, h, i));
\t} else {
\t\t(void) duk_get_prop_index(thr, idx, i);
\t}
}

$1|m' "$out/duktape.c.tmp"
perl -0pi -e 's|^(\tduk_xdef_prop_index_wec\(thr, f->consts_idx, \(duk_uarridx_t\) n\); /\* invalidates tv1, tv2 \*/\n)|\tduk__sandbox_reserve(thr, f->h_consts, (duk_uarridx_t) n); /* mcp-codemode */\n$1|m' "$out/duktape.c.tmp"
perl -0pi -e 's|^(\tduk_harray \*a = \(duk_harray \*\) duk_known_hobject\(thr, idx\);\n)|$1\tduk__sandbox_reserve(thr, (duk_hobject *) a, n);\n|m' "$out/duktape.c.tmp"
perl -0pi -e 's|duk_get_prop_index\(thr, comp_ctx->curr_func\.(decls_idx\|funcs_idx), |duk__sandbox_get_index(thr, comp_ctx->curr_func.$1, |g' "$out/duktape.c.tmp"
# Patch 15: value-stack traffic of the expression parser. Intermediate
# values were copied between their (known, valid) value-stack slots with
# duk_copy, which re-validates both indices (~40 instructions); the copy with
# its reference counts is done directly. duk__getconst read the constant
# array's length through duk_get_length; it reads the bare array's length.
perl -0pi -e 's|\tduk_copy\(comp_ctx->thr, (src->(?:x[12]\.)?valstack_idx), (dst->(?:x[12]\.)?valstack_idx)\);\n|\tDUK_TVAL_SET_TVAL_UPDREF(comp_ctx->thr, DUK_GET_TVAL_POSIDX(comp_ctx->thr, $2), DUK_GET_TVAL_POSIDX(comp_ctx->thr, $1)); /* mcp-codemode: duk_copy */\n|g' "$out/duktape.c.tmp"
perl -0pi -e 's|^\tn = \(duk_int_t\) duk_get_length\(thr, f->consts_idx\);\n|\tn = (duk_int_t) ((duk_harray *) f->h_consts)->length; /* mcp-codemode: a bare array */\n|m' "$out/duktape.c.tmp"
# Fast paths over plain objects (sandbox/duktape/fastpaths.inc, appended): the
# object spread native sandbox_object_spread, and Object.keys, which tries
# the entry walk before building Duktape's generic enumerator.
cat "$here/fastpaths.inc" >> "$out/duktape.c.tmp"
perl -0pi -e 's|(DUK_INTERNAL duk_ret_t duk_bi_object_constructor_keys_shared\(duk_hthread \*thr\) \{\n)|DUK_LOCAL duk_bool_t duk__sandbox_fast_keys(duk_hthread *thr, duk_hobject *obj);\n$1|; s|(\tenum_flags = duk__object_keys_enum_flags\[magic\];\n)(\treturn duk_hobject_get_enumerated_keys\(thr, enum_flags\);\n)|$1\tif (magic == 0 \&\& duk__sandbox_fast_keys(thr, duk_known_hobject(thr, 0))) { /* mcp-codemode: plain objects */\n\t\treturn 1;\n\t}\n$2|' "$out/duktape.c.tmp"
# Object literals (MPUTOBJ) defined each property through duk_def_prop,
# the full [[DefineOwnProperty]] with descriptor checks (~600 instructions
# a property). For a string key with no accessor of that name on the fresh
# literal, the internal define does the same for about a third of that.
perl -0pi -e 's|(\t\t\tdo \{\n)(\t\t\t\t/\* XXX: faster initialization \(direct access or better primitives\) \*/\n)(\t\t\t\tduk_dup\(thr, \(duk_idx_t\) idx\);\n\t\t\t\tduk_dup\(thr, \(duk_idx_t\) \(idx \+ 1\)\);\n\t\t\t\tduk_def_prop\(thr,\n.*?\n.*?\n.*?;\n)|$1\t\t\t\tduk_tval *sandbox_key = DUK_GET_TVAL_POSIDX(thr, (duk_idx_t) idx); /* mcp-codemode: literal fast path */\n\t\t\t\tduk_hobject *sandbox_obj = duk_known_hobject(thr, obj_idx);\n\t\t\t\tduk_int_t sandbox_e, sandbox_h;\n\t\t\t\tif (DUK_TVAL_IS_STRING(sandbox_key) \&\& !DUK_HOBJECT_HAS_ARRAY_PART(sandbox_obj) \&\&\n\t\t\t\t    (!duk_hobject_find_entry(thr->heap, sandbox_obj, DUK_TVAL_GET_STRING(sandbox_key), \&sandbox_e, \&sandbox_h) \|\|\n\t\t\t\t     !DUK_HOBJECT_E_SLOT_IS_ACCESSOR(thr->heap, sandbox_obj, sandbox_e))) {\n\t\t\t\t\tduk_dup(thr, (duk_idx_t) (idx + 1));\n\t\t\t\t\tduk_hobject_define_property_internal(thr, sandbox_obj, DUK_TVAL_GET_STRING(sandbox_key), DUK_PROPDESC_FLAGS_WEC);\n\t\t\t\t\tidx += 2;\n\t\t\t\t\tcontinue;\n\t\t\t\t}\n$2$3|s' "$out/duktape.c.tmp"
# JSON.parse built every string in a fresh buffer, then interned the buffer
# (~470 instructions a string). A string without escapes is interned
# straight from the input bytes: the same bytes, the same string.
perl -0pi -e 's|(DUK_LOCAL void duk__json_dec_string\(duk_json_dec_ctx \*js_ctx\) \{\n\tduk_hthread \*thr = js_ctx->thr;\n\tduk_bufwriter_ctx bw_alloc;\n\tduk_bufwriter_ctx \*bw;\n\tduk_uint8_t \*q;\n)|$1\t{ /* mcp-codemode: no escapes, straight from the input */\n\t\tconst duk_uint8_t *sandbox_p = js_ctx->p;\n\t\twhile (duk__json_decstr_lookup[*sandbox_p] != 0) {\n\t\t\tsandbox_p++;\n\t\t}\n\t\tif (*sandbox_p == DUK_ASC_DOUBLEQUOTE) {\n\t\t\tduk_push_lstring(thr, (const char *) js_ctx->p, (duk_size_t) (sandbox_p - js_ctx->p));\n\t\t\tjs_ctx->p = sandbox_p + 1;\n\t\t\treturn;\n\t\t}\n\t}\n|' "$out/duktape.c.tmp"
# String.prototype.split appended each piece with duk_put_prop_index: past
# the array part's end that is the generic put, which turns the index into a
# string first (~1,000 instructions a piece). Define the element and set the
# length directly (the pieces are appended in order to a fresh array).
perl -pi -e 's|^(\t+)duk_put_prop_index\(thr, 3, arr_idx\);|$1duk_xdef_prop_index_wec(thr, 3, arr_idx); ((duk_harray *) duk_known_hobject(thr, 3))->length = (duk_uint32_t) arr_idx + 1U; /* mcp-codemode: split append */|' "$out/duktape.c.tmp"
# Two directives of our own, which the lowering puts first in the functions
# it makes: "use duk noctor" (not a constructor: arrows, async functions,
# generators and the lowering's own wrappers, as ES2015 says) and "use duk
# nobind" (a name given by inference, without the inner binding a named
# function expression has). Each closure of a constructor got a fresh
# .prototype object with a reference cycle that only mark-and-sweep could
# collect, and each name binding an extra environment record.
perl -0pi -e 's|(\t\t\t\t\} else if \(DUK_HSTRING_GET_BYTELEN\(h_dir\) == 14 \&\&\n\t\t\t\t           DUK_STRCMP\(\(const char \*\) DUK_HSTRING_GET_DATA\(h_dir\), "use duk notail"\) == 0\) \{\n)|\t\t\t\t} else if (DUK_HSTRING_GET_BYTELEN(h_dir) == 14 \&\& comp_ctx->curr_func.is_function \&\&\n\t\t\t\t           DUK_STRCMP((const char *) DUK_HSTRING_GET_DATA(h_dir), "use duk noctor") == 0) { /* mcp-codemode: directives */\n\t\t\t\t\tcomp_ctx->curr_func.is_constructable = 0;\n\t\t\t\t} else if (DUK_HSTRING_GET_BYTELEN(h_dir) == 14 \&\& comp_ctx->curr_func.is_function \&\&\n\t\t\t\t           DUK_STRCMP((const char *) DUK_HSTRING_GET_DATA(h_dir), "use duk nobind") == 0) {\n\t\t\t\t\tcomp_ctx->curr_func.is_namebinding = 0;\n$1|' "$out/duktape.c.tmp"
# Property reads: Duktape's getprop pushes the key, fills a full property
# descriptor at every level of the prototype chain and removes the key at the
# end (~20% of a run's instructions are property reads). A string key that is
# not an index, "length" or "caller" has no virtual property on an ordinary
# object or array: walk the chain's own entries and push a plain value
# directly; accessors, proxies, string/arguments/buffer objects and a chain
# too deep take the generic path.
perl -0pi -e 's|(DUK_INTERNAL duk_bool_t duk_hobject_getprop\(duk_hthread \*thr, duk_tval \*tv_obj, duk_tval \*tv_key\) \{\n)|$1\tif (DUK_TVAL_IS_OBJECT(tv_obj) \&\& DUK_TVAL_IS_STRING(tv_key)) { /* mcp-codemode: plain read */\n\t\tduk_hstring *sandbox_key = DUK_TVAL_GET_STRING(tv_key);\n\t\tif (!DUK_HSTRING_HAS_ARRIDX(sandbox_key) \&\& sandbox_key != DUK_HTHREAD_STRING_LENGTH(thr) \&\&\n\t\t    sandbox_key != DUK_HTHREAD_STRING_CALLER(thr)) {\n\t\t\tduk_hobject *sandbox_o = DUK_TVAL_GET_OBJECT(tv_obj);\n\t\t\tduk_uint_t sandbox_n = DUK_HOBJECT_PROTOTYPE_CHAIN_SANITY;\n\t\t\tdo {\n\t\t\t\tduk_int_t sandbox_e, sandbox_h;\n\t\t\t\tif (DUK_HEAPHDR_CHECK_FLAG_BITS(\&sandbox_o->hdr, DUK_HOBJECT_FLAG_EXOTIC_PROXYOBJ \| DUK_HOBJECT_FLAG_EXOTIC_STRINGOBJ \|\n\t\t\t\t                                                      DUK_HOBJECT_FLAG_EXOTIC_ARGUMENTS \| DUK_HOBJECT_FLAG_BUFOBJ)) {\n\t\t\t\t\tbreak;\n\t\t\t\t}\n\t\t\t\tif (duk_hobject_find_entry(thr->heap, sandbox_o, sandbox_key, \&sandbox_e, \&sandbox_h)) {\n\t\t\t\t\tif (DUK_HOBJECT_E_SLOT_IS_ACCESSOR(thr->heap, sandbox_o, sandbox_e)) {\n\t\t\t\t\t\tbreak;\n\t\t\t\t\t}\n\t\t\t\t\tduk_push_tval(thr, DUK_HOBJECT_E_GET_VALUE_TVAL_PTR(thr->heap, sandbox_o, sandbox_e));\n\t\t\t\t\treturn 1;\n\t\t\t\t}\n\t\t\t\tsandbox_o = DUK_HOBJECT_GET_PROTOTYPE(thr->heap, sandbox_o);\n\t\t\t} while (sandbox_o != NULL \&\& --sandbox_n > 0);\n\t\t\tif (sandbox_o == NULL) {\n\t\t\t\tduk_push_undefined(thr);\n\t\t\t\treturn 0;\n\t\t\t}\n\t\t}\n\t}\n|' "$out/duktape.c.tmp"
# Property writes over an own writable data property (this.count++, the
# fields of an object being filled in) went through Duktape's full put; on an
# ordinary object with a string key that is not an index or "length", the
# value is replaced in place. Everything else takes the generic path.
perl -0pi -e 's|(duk_hobject_putprop\(duk_hthread \*thr, duk_tval \*tv_obj, duk_tval \*tv_key, duk_tval \*tv_val, duk_bool_t throw_flag\) \{\n)|$1\tif (DUK_TVAL_IS_OBJECT(tv_obj) \&\& DUK_TVAL_IS_STRING(tv_key)) { /* mcp-codemode: plain write */\n\t\tduk_hstring *sandbox_key = DUK_TVAL_GET_STRING(tv_key);\n\t\tduk_hobject *sandbox_obj = DUK_TVAL_GET_OBJECT(tv_obj);\n\t\tduk_int_t sandbox_e, sandbox_h;\n\t\tif (!DUK_HSTRING_HAS_ARRIDX(sandbox_key) \&\& sandbox_key != DUK_HTHREAD_STRING_LENGTH(thr) \&\&\n\t\t    !DUK_HEAPHDR_CHECK_FLAG_BITS(\&sandbox_obj->hdr, DUK_HOBJECT_EXOTIC_BEHAVIOR_FLAGS) \&\&\n\t\t    duk_hobject_find_entry(thr->heap, sandbox_obj, sandbox_key, \&sandbox_e, \&sandbox_h) \&\&\n\t\t    !DUK_HOBJECT_E_SLOT_IS_ACCESSOR(thr->heap, sandbox_obj, sandbox_e) \&\&\n\t\t    (DUK_HOBJECT_E_GET_FLAGS(thr->heap, sandbox_obj, sandbox_e) \& DUK_PROPDESC_FLAG_WRITABLE)) {\n\t\t\tduk_tval *sandbox_tv = DUK_HOBJECT_E_GET_VALUE_TVAL_PTR(thr->heap, sandbox_obj, sandbox_e);\n\t\t\tDUK_TVAL_SET_TVAL_UPDREF(thr, sandbox_tv, tv_val); /* side effects, as in the generic path */\n\t\t\treturn 1;\n\t\t}\n\t}\n|' "$out/duktape.c.tmp"
# The matches of pattern $1 in file $2 (or stdin); none is a count of 0
# (grep's status 1), not a failure of the script before it can say which
# patch did not apply. A read error (status 2) still stops it.
count() {
    c=$(grep -c -- "$@") || [ $? -eq 1 ]
    echo "$c"
}
n6=$(count 'SANDBOX_PINNED' "$out/duktape.c.tmp")
n1=$(count 'steps_count & 0xffffUL' "$out/duktape.c.tmp")
n2=$(grep -A1 '^DUK_LOCAL void duk__comp_recursion_increase' "$out/duktape.c.tmp" | count 'duk_native_stack_check')
n3=$(count "^#define DUK_USE_EXEC_TIMEOUT_CHECK" "$out/duk_config.h.tmp")
n4=$(count 'duk__sandbox_timeout_site(thr, act);' "$out/duktape.c.tmp")
n5=$(count 'mcp-codemode: the error is made now, blame this pc' "$out/duktape.c.tmp")
n7=$(count 'sandbox_const_slot' "$out/duktape.c.tmp")
n8=$(count 'sandbox_isreg' "$out/duktape.c.tmp")
n9=$(count 'mcp-codemode: a direct append' "$out/duktape.c.tmp")
n10=$(count 'mcp-codemode: swap the token slots' "$out/duktape.c.tmp")
n12=$(count 'duk__sandbox_ident_ascii(lex_ctx, out_token)\|^sandbox_ident_done:$\|mcp-codemode: flags first\|^DUK_LOCAL void duk__sandbox_skip(' "$out/duktape.c.tmp")
n13=$(count 'duk__sandbox_append(\|mcp-codemode: unchanged' "$out/duktape.c.tmp")
n14=$(count 'duk__sandbox_reserve(\|duk__sandbox_get_index(' "$out/duktape.c.tmp")
n15=$(count 'mcp-codemode: duk_copy\|mcp-codemode: a bare array' "$out/duktape.c.tmp")
n11=$(count 'sandbox_stale\|sandbox_lexers\|duk__sandbox_seek(lex_ctx, pt)\|duk_lexer_sandbox_free(thr, &comp_stk\|sandbox_keep\|^DUK_LOCAL void duk__sandbox_lex_raw(duk_lexer_ctx \*lex_ctx,$' "$out/duktape.c.tmp")
nw=$(count 'mcp-codemode: plain write' "$out/duktape.c.tmp")
ng=$(count 'mcp-codemode: plain read' "$out/duktape.c.tmp")
nd=$(count 'mcp-codemode: directives' "$out/duktape.c.tmp")
ns=$(count 'mcp-codemode: split append' "$out/duktape.c.tmp")
nj=$(count 'mcp-codemode: no escapes, straight from the input' "$out/duktape.c.tmp")
nl=$(count 'mcp-codemode: literal fast path' "$out/duktape.c.tmp")
nk=$(count 'duk__sandbox_fast_keys(thr, duk_known_hobject(thr, 0))) { /\* mcp-codemode: plain objects' "$out/duktape.c.tmp")
if [ "$n1" != 1 ] || [ "$n2" != 1 ] || [ "$n3" != 1 ] || [ "$n4" != 1 ] || [ "$n5" != 1 ] || [ "$n6" != 6 ] || [ "$n7" != 6 ] || [ "$n8" != 4 ] || [ "$n9" != 1 ] || [ "$n10" != 1 ] || [ "$n11" != 24 ] || [ "$n12" != 4 ] || [ "$n13" != 9 ] || [ "$n14" != 11 ] || [ "$n15" != 4 ] || [ "$nk" != 1 ] || [ "$nl" != 1 ] || [ "$nj" != 1 ] || [ "$ns" != 3 ] || [ "$nd" != 1 ] || [ "$ng" != 1 ] || [ "$nw" != 1 ]; then
    echo "duktape-variant: a patch did not apply (regexp=$n1 compiler=$n2 config=$n3 timeout-site=$n4 callable-line=$n5 pinned=$n6 getconst=$n7 varmap=$n8 append=$n9 token-slots=$n10 token-replay=$n11 ascii=$n12 bookkeeping=$n13 arrays=$n14 stack=$n15 fast-keys=$nk literal=$nl json-string=$nj split=$ns directives=$nd getprop=$ng putprop=$nw)" >&2
    exit 1
fi
mv "$out/duk_config.h.tmp" "$out/duk_config.h"
mv "$out/duktape.c.tmp" "$out/duktape.c"
