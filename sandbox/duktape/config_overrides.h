/* Sandbox configuration of the Duktape build, inserted after the
 * __OVERRIDE_DEFINES__ marker of the packaged duk_config.h by
 * sandbox/duktape/build.sh. The hooks are implemented in sandbox/worker/limits.c
 * and sandbox/worker/date_parse.c. */
#define DUK_USE_INTERRUPT_COUNTER
#define DUK_USE_EXEC_TIMEOUT_CHECK(udata) sandbox__exec_timeout_check((udata))
#define DUK_USE_NATIVE_STACK_CHECK() sandbox__native_stack_check()
#define DUK_USE_DATE_GET_LOCAL_TZOFFSET(d) 0
/* Date.parse of the non-ISO forms V8 reads (instead of strptime's "%c") */
#define DUK_USE_DATE_PARSE_STRING(ctx, str) sandbox__date_parse_string((void *) (ctx), (str))
extern int sandbox__date_parse_string(void *ctx, const char *str);
#define DUK_USE_GET_RANDOM_DOUBLE(udata) sandbox__random_double((udata))
#define DUK_USE_FASTINT
extern int sandbox__exec_timeout_check(void *udata);
extern int sandbox__native_stack_check(void);
extern double sandbox__random_double(void *udata);
extern int sandbox__timeout_site(void *udata, const char *file, long line);
#undef DUK_USE_TAILCALL /* as in Node: no frame disappears from traces, deep recursion hits the call-stack limit */
/* Reference counts of objects in [sandbox__pin_lo, +sandbox__pin_len) are
 * never updated (sandbox/worker/zone.c sets the range in a worker: the template). */
#include <stdint.h>
extern uintptr_t sandbox__pin_lo, sandbox__pin_len;
#define SANDBOX_PINNED(h) ((uintptr_t) (const void *) (h) - sandbox__pin_lo < sandbox__pin_len)
#define DUK_USE_JSON_STRINGIFY_FASTPATH /* JSON.stringify without the generic walk when it can (falls back on toJSON, getters, proxies): run-rep -0.9% Ir */
/* Property tables and array parts grow by (size + ADD) / DIV slots. A run
 * grows them by 8 + 25% instead of Duktape's 2 + 12.5%, so a parsed or
 * spread object reaches its size in one or two reallocations rather than
 * four or five (run-rep -1.9% Ir; at most a quarter of a table is slack);
 * the zygote's template keeps the lean default (sandbox__grow_lean, set by
 * sandbox/worker/zone.c while the zone builds it), as every worker maps it. */
extern int sandbox__grow_lean;
#undef DUK_USE_HOBJECT_ENTRY_MINGROW_ADD
#define DUK_USE_HOBJECT_ENTRY_MINGROW_ADD (sandbox__grow_lean ? 16 : 32)
#undef DUK_USE_HOBJECT_ENTRY_MINGROW_DIVISOR
#define DUK_USE_HOBJECT_ENTRY_MINGROW_DIVISOR (sandbox__grow_lean ? 8 : 4)
#undef DUK_USE_HOBJECT_ARRAY_MINGROW_ADD
#define DUK_USE_HOBJECT_ARRAY_MINGROW_ADD (sandbox__grow_lean ? 16 : 32)
#undef DUK_USE_HOBJECT_ARRAY_MINGROW_DIVISOR
#define DUK_USE_HOBJECT_ARRAY_MINGROW_DIVISOR (sandbox__grow_lean ? 8 : 4)
/* Objects get a hash index from 16 properties instead of 8: the objects a
 * program makes (parsed tool results, literals, environments) mostly have
 * fewer, and a scan of up to 16 keys costs less than building and probing
 * the index (run-rep -0.5% Ir; 4 and 32 measured worse or no better). */
#undef DUK_USE_HOBJECT_HASH_PROP_LIMIT
#define DUK_USE_HOBJECT_HASH_PROP_LIMIT 16
