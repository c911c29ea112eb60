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
# code does (patch 7 may, rarely, keep a duplicate constant).
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

sed -e "/__OVERRIDE_DEFINES__/r $here/duk_overrides.h" "$src/duk_config.h" > "$out/duk_config.h.tmp"
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
# (SANDBOX_PINNED, duk_overrides.h): Duktape never writes them, so a run no
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
# Fast paths over plain objects (sandbox/duk_fastpaths.inc, appended): the
# object spread native sandbox_object_spread, and Object.keys, which tries
# the entry walk before building Duktape's generic enumerator.
cat "$here/duk_fastpaths.inc" >> "$out/duktape.c.tmp"
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
nw=$(count 'mcp-codemode: plain write' "$out/duktape.c.tmp")
ng=$(count 'mcp-codemode: plain read' "$out/duktape.c.tmp")
nd=$(count 'mcp-codemode: directives' "$out/duktape.c.tmp")
ns=$(count 'mcp-codemode: split append' "$out/duktape.c.tmp")
nj=$(count 'mcp-codemode: no escapes, straight from the input' "$out/duktape.c.tmp")
nl=$(count 'mcp-codemode: literal fast path' "$out/duktape.c.tmp")
nk=$(count 'duk__sandbox_fast_keys(thr, duk_known_hobject(thr, 0))) { /\* mcp-codemode: plain objects' "$out/duktape.c.tmp")
if [ "$n1" != 1 ] || [ "$n2" != 1 ] || [ "$n3" != 1 ] || [ "$n4" != 1 ] || [ "$n5" != 1 ] || [ "$n6" != 6 ] || [ "$n7" != 6 ] || [ "$n8" != 4 ] || [ "$n9" != 1 ] || [ "$n10" != 1 ] || [ "$nk" != 1 ] || [ "$nl" != 1 ] || [ "$nj" != 1 ] || [ "$ns" != 3 ] || [ "$nd" != 1 ] || [ "$ng" != 1 ] || [ "$nw" != 1 ]; then
    echo "duktape-variant: a patch did not apply (regexp=$n1 compiler=$n2 config=$n3 timeout-site=$n4 callable-line=$n5 pinned=$n6 getconst=$n7 varmap=$n8 append=$n9 token-slots=$n10 fast-keys=$nk literal=$nl json-string=$nj split=$ns directives=$nd getprop=$ng putprop=$nw)" >&2
    exit 1
fi
mv "$out/duk_config.h.tmp" "$out/duk_config.h"
mv "$out/duktape.c.tmp" "$out/duktape.c"
