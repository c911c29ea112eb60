/* Map and Set in C: an insertion-ordered hash table keyed by SameValueZero,
 * with live iterators, that sandbox/prelude/71_collections.js wraps as the
 * Map and Set built-ins (constructors, iteration protocol, errors). The
 * JavaScript version it replaces spent ~11x node:vm on a Map filled in a
 * for-of; see docs/javascript.md for what a program sees. */
#ifndef SANDBOX_COLLECTIONS_H
#define SANDBOX_COLLECTIONS_H

/* Adds the object `coll` holding the natives of Map and Set to the object on
 * top of the Duktape stack (rt); duk_context is passed as void * so that
 * this header does not need duktape.h. */
void sandbox_collections_put_natives(void *duk_ctx);

#endif
