/* Sandbox configuration of the Duktape build, inserted after the
 * __OVERRIDE_DEFINES__ marker of the packaged duk_config.h by
 * sandbox/duktape-variant.sh. The hooks are implemented in sandbox/limits.c. */
#define DUK_USE_INTERRUPT_COUNTER
#define DUK_USE_EXEC_TIMEOUT_CHECK(udata) sandbox__exec_timeout_check((udata))
#define DUK_USE_NATIVE_STACK_CHECK() sandbox__native_stack_check()
#define DUK_USE_DATE_GET_LOCAL_TZOFFSET(d) 0
#define DUK_USE_GET_RANDOM_DOUBLE(udata) sandbox__random_double((udata))
#define DUK_USE_FASTINT
extern int sandbox__exec_timeout_check(void *udata);
extern int sandbox__native_stack_check(void);
extern double sandbox__random_double(void *udata);
extern int sandbox__timeout_site(void *udata, const char *file, long line);
#undef DUK_USE_TAILCALL /* as in Node: no frame disappears from traces, deep recursion hits the call-stack limit */
/* Reference counts of objects in [sandbox__pin_lo, +sandbox__pin_len) are
 * never updated (sandbox/zone.c sets the range in a worker: the template). */
#include <stdint.h>
extern uintptr_t sandbox__pin_lo, sandbox__pin_len;
#define SANDBOX_PINNED(h) ((uintptr_t) (const void *) (h) - sandbox__pin_lo < sandbox__pin_len)
#define DUK_USE_JSON_STRINGIFY_FASTPATH /* JSON.stringify without the generic walk when it can (falls back on toJSON, getters, proxies): run-rep -0.9% Ir */
