#!/bin/sh
# Derives the sandbox build of Duktape from the packaged amalgamation:
# copies duktape.c/.h and a duk_config.h with our overrides into OUTDIR (they
# must sit together, or the stock header is used silently) and applies the
# small patches described in ../shared/research/duktape.md section 2.1.
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
sed -e 's|^\(\t\t\)if (re_ctx->steps_count >= re_ctx->steps_limit) {|\1if ((re_ctx->steps_count \& 0xffffUL) == 0 \&\& DUK_USE_EXEC_TIMEOUT_CHECK(re_ctx->thr->heap->heap_udata)) { DUK_ERROR_RANGE(re_ctx->thr, "execution timeout"); DUK_WO_NORETURN(return NULL;); }\n&|' \
    -e '/^DUK_LOCAL void duk__comp_recursion_increase(duk_compiler_ctx \*comp_ctx) {$/a\
\tduk_native_stack_check(comp_ctx->thr);' \
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
C
n1=$(grep -c 'steps_count & 0xffffUL' "$out/duktape.c.tmp")
n2=$(grep -A1 '^DUK_LOCAL void duk__comp_recursion_increase' "$out/duktape.c.tmp" | grep -c 'duk_native_stack_check')
n3=$(grep -c "^#define DUK_USE_EXEC_TIMEOUT_CHECK" "$out/duk_config.h.tmp")
if [ "$n1" != 1 ] || [ "$n2" != 1 ] || [ "$n3" != 1 ]; then
    echo "duktape-variant: a patch did not apply (regexp=$n1 compiler=$n2 config=$n3)" >&2
    exit 1
fi
mv "$out/duk_config.h.tmp" "$out/duk_config.h"
mv "$out/duktape.c.tmp" "$out/duktape.c"
