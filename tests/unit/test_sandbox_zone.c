/* Unit tests for sandbox/worker/zone.c and its use by sandbox/worker/limits.c: blocks of
 * the template zone are aligned, reused by size class, and, once a worker
 * froze the zone, never written again (frees are dropped, reallocs move to
 * malloc), while a heap built in the zone keeps working after the freeze,
 * and the freeze pins the reference counts of the zone's objects: a run
 * copies far fewer template pages, and programs that rewrite built-ins and
 * make garbage still run right. Restore (worker reuse): after a run, the
 * zone's pages are written back from the zygote's snapshot, the run's
 * blocks freed, and the next run observes what the first one did; no
 * worker can write that snapshot, and none maps it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/buf.h"
#include "sandbox/worker/engine.h"
#include "sandbox/worker/limits.h"
#include "sandbox/worker/zone.h"
#include "support/engine_run.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_classes_and_reuse(void **state)
{
    (void) state;
    assert_int_equal(sandbox_zone_active(), 1);
    assert_int_equal(sandbox_zone_usable(1), 16);
    assert_int_equal(sandbox_zone_usable(17), 32);
    assert_int_equal(sandbox_zone_usable(512), 512);
    assert_int_equal(sandbox_zone_usable(513), 640);
    assert_int_equal(sandbox_zone_usable(1024), 1024);
    assert_int_equal(sandbox_zone_usable(1025), 1280);
    assert_int_equal(sandbox_zone_usable(32768), 32768);
    assert_int_equal(sandbox_zone_usable(32769), 36864);
    size_t sizes[] = {1, 24, 100, 600, 5000, 40000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *a = sandbox_zone_alloc(sizes[i]);
        assert_non_null(a);
        assert_int_equal((uintptr_t) a % 16, 0);
        assert_true(sandbox_zone_owns(a));
        memset(a, 0x5a, sizes[i]);
        sandbox_zone_free(a, sizes[i]);
        assert_ptr_equal(sandbox_zone_alloc(sizes[i]), a); /* same class: reused */
    }
    void *m = malloc(16);
    assert_false(sandbox_zone_owns(m));
    free(m);
}

static void test_limits_allocate_in_the_zone(void **state)
{
    (void) state;
    struct sandbox_limits l;
    sandbox_limits_init(&l, 0);
    char *p = sandbox_limits_alloc(&l, 100);
    assert_true(sandbox_zone_owns(p));
    assert_int_equal(l.mem_used, 100);
    char *q = sandbox_limits_realloc(&l, p, 104); /* same class: in place */
    assert_ptr_equal(q, p);
    q = sandbox_limits_realloc(&l, q, 3000);
    assert_true(sandbox_zone_owns(q));
    assert_int_equal(l.mem_used, 3000);
    sandbox_limits_free(&l, q);
    assert_int_equal(l.mem_used, 0);
}

/* Pages of the zone this process holds alone (/proc/self/pagemap bit 56):
 * in a forked child, the template pages it copied on write. */
static int exclusive_pages(void)
{
    int fd = open("/proc/self/pagemap", O_RDONLY);
    if (fd < 0)
        return -1;
    int n = 0;
    for (uintptr_t a = sandbox__pin_lo & ~(uintptr_t) 4095; a < sandbox__pin_lo + sandbox__pin_len;
         a += 4096) {
        uint64_t e = 0;
        if (pread(fd, &e, sizeof e, (off_t) (a / 4096 * 8)) != sizeof e)
            n = -1000000;
        n += (int) ((e >> 56) & 1);
    }
    close(fd);
    return n;
}

/* Forks a child that runs code on the template e (pinned or not, as in a
 * worker) and reports how many template pages it copied; -1 on failure. */
static int pages_copied_by_run(struct sandbox_engine *e, const char *code, int pinned)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        uintptr_t len = sandbox__pin_len;
        if (!pinned)
            sandbox__pin_len = 0;
        struct sandbox_run_limits rl = {5000, 64u << 20, 16};
        sandbox_engine_start(e, code, strlen(code), NULL, &rl);
        sandbox__pin_len = len; /* the range to count */
        int n = sandbox_engine_state(e) == SANDBOX_DONE ? exclusive_pages() : -1;
        (void) !write(p[1], &n, sizeof n);
        _exit(0);
    }
    close(p[1]);
    int n = -1;
    if (pid < 0 || read(p[0], &n, sizeof n) != sizeof n)
        n = -1;
    close(p[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return n;
}

/* The same program on the same template, once with the pins lifted (as
 * before patch 6) and once pinned: the pinned run copies far fewer pages. */
static void check_pinning(struct sandbox_engine *e)
{
    assert_true(sandbox__pin_len > 0);
    assert_true(sandbox_zone_owns((const void *) sandbox__pin_lo));
    const char *code =
        "let o = {a: [1, 2, 3].map(x => x * 2)}; return JSON.stringify(o) + 'x'.repeat(3)";
    int without = pages_copied_by_run(e, code, 0);
    int with = pages_copied_by_run(e, code, 1);
    print_message("template pages copied by one run: %d unpinned, %d pinned\n", without, with);
    assert_true(with >= 0);
    assert_true(with * 3 < without * 2);
}

/* Programs that rewrite built-ins of the template and make garbage enough
 * for mark-and-sweep to run, on a pinned heap. */
static void check_pinned_heap_survives(struct sandbox_engine *e)
{
    const char *code =
        "delete Array.prototype.map; Object.prototype.foo = {k: 'v'};"
        "const keep = String.prototype.slice; String.prototype.slice = null;"
        "let junk = [], i; for (i = 0; i < 200000; i++) {"
        "  junk.push({i, s: 'k' + (i % 100), c: [junk.length]}); if (junk.length > 1000) junk = "
        "[]; }"
        "Math = undefined; JSON.parse = null;"
        "return [typeof Array.prototype.map, ({}).foo.k, keep.call('hello', 1, 3), typeof Math, i]";
    char *o = engine_run(e, code);
    assert_non_null(strstr(o, "\"value\":[\"undefined\",\"v\",\"el\",\"undefined\",200000]"));
    free(o);
}

/* A digest of the global object graph (own names, descriptors, prototypes,
 * extensibility), with a probe of the timers and the Symbol registry. */
static const char digest_program[] =
    "const seen = new Map(), q = []; let out = '';\n"
    "const ref = (v) => { if (v === null) return 'null'; const t = typeof v;\n"
    "  if (t === 'object' || t === 'function') { if (!seen.has(v)) { seen.set(v, q.length); "
    "q.push(v); }\n"
    "    return '#' + seen.get(v); } return t + ':' + String(v); };\n"
    "ref(globalThis);\n"
    "for (let i = 0; i < q.length; i++) { const o = q[i];\n"
    "  out += i + (Object.isExtensible(o) ? 'e' : 'f') + ref(Object.getPrototypeOf(o));\n"
    "  let ks = []; try { ks = "
    "Object.getOwnPropertyNames(o).concat(Object.getOwnPropertySymbols(o)); } catch (e) {}\n"
    "  for (const k of ks) { let d; try { d = Object.getOwnPropertyDescriptor(o, k); } catch (e) { "
    "continue; }\n"
    "    if (!d) continue; out += String(k) + (d.writable ? 'w' : '') + (d.enumerable ? 'n' : '') "
    "+\n"
    "      (d.configurable ? 'c' : '') + (Object.prototype.hasOwnProperty.call(d, 'value') ? "
    "ref(d.value)\n"
    "      : ref(d.get) + ref(d.set)); } out += ';'; }\n"
    "let h = 0x811c9dc5; for (let i = 0; i < out.length; i++) h = Math.imul(h ^ out.charCodeAt(i), "
    "0x01000193) >>> 0;\n"
    "const t = setTimeout(() => {}, 1000); clearTimeout(t);\n"
    "return [q.length, h, typeof leak, t, Symbol.keyFor(Symbol.for('k'))];";

static const char *const leaks[] = {
    "globalThis.leak = 1; Object.prototype.x = 2; Array.prototype.push = null; return 1",
    "Object.freeze(Object.prototype); Object.seal(globalThis); Math.random = () => 0; return 1",
    "setTimeout(() => { globalThis.leak = 3; }, 1); Promise.resolve().then(() => { globalThis.leak "
    "= 4; });"
    "(async () => { await new Promise(() => {}); })(); return 1",
    "Object.defineProperty(Object.prototype, 'then', {get() { return 1; }}); Symbol.for('leak'); "
    "return 1",
    "let a = []; for (let i = 0; i < 100000; i++) { a.push({i}); if (a.length > 300) a = []; }"
    "globalThis.big = 'x'.repeat(1 << 20); return 1",
};

/* 1 when this process maps the snapshot (it must only read it). */
static int snapshot_mapped(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    int mapped = 0;
    while (f && fgets(line, sizeof line, f))
        mapped |= strstr(line, "mcp-codemode-template") != NULL;
    if (f)
        fclose(f);
    return mapped;
}

/* In a forked child (the zone frozen, as in a worker): the digest of a fresh
 * engine, then each leaking program followed by a restore and the digest
 * again. Returns 0, or a code telling what differed. */
static int restore_child(struct sandbox_engine *e)
{
    sandbox_zone_freeze();
    char *fresh = engine_run(e, digest_program);
    if (sandbox_zone_restore() < 0)
        return 2;
    sandbox_engine_reset(e);
    if (!sandbox_zone_pristine())
        return 3;
    for (size_t i = 0; i < sizeof leaks / sizeof leaks[0]; i++) {
        free(engine_run(e, leaks[i]));
        if (!sandbox_engine_reusable(e))
            return 4;
        if (sandbox_zone_pristine())
            return 5; /* the program changed nothing: the check would prove nothing */
        if (sandbox_zone_restore() <= 0)
            return 6;
        sandbox_engine_reset(e);
        if (!sandbox_zone_pristine())
            return 7;
        char *again = engine_run(e, digest_program);
        int same = strcmp(again, fresh) == 0;
        if (!same)
            fprintf(stderr, "after leak %zu: %s\nfresh: %s\n", i, again, fresh);
        free(again);
        if (!same)
            return 8;
        sandbox_zone_restore();
        sandbox_engine_reset(e);
    }
    free(fresh);
    return snapshot_mapped() ? 9 : 0;
}

/* In a forked child: a run that wrote to the zone, then a snapshot that
 * cannot be read (an empty file in its place). The restore must fail, not
 * report success over pages it could not write back. */
static int unreadable_snapshot_child(struct sandbox_engine *e)
{
    sandbox_zone_freeze();
    free(engine_run(e, leaks[0]));
    int empty = open("/dev/null", O_RDONLY);
    if (empty < 0)
        return 2;
    sandbox_zone_use_snapshot_fd(empty);
    if (sandbox_zone_restore() != -1 || sandbox_zone_pristine())
        return 3;
    sandbox_zone_use_snapshot_fd(-1); /* dropped: nothing to restore from */
    return sandbox_zone_restorable() == 0 && sandbox_zone_restore() == -1 ? 0 : 4;
}

static void test_restore_gives_a_fresh_engine(void **state)
{
    (void) state;
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(NULL, &err); /* built in the zone */
    assert_non_null(e);
    assert_int_equal(sandbox_zone_restore(), -1); /* no snapshot yet */
    assert_int_equal(sandbox_zone_snapshot(), 0);
    assert_int_equal(sandbox_zone_restorable(), 1);
    assert_int_equal(sandbox_zone_pristine(), 1);
    int fd = open("/proc/self/pagemap", O_RDONLY);
    for (int with_pagemap = 0; with_pagemap < 2; with_pagemap++) {
        pid_t pid = fork();
        if (pid == 0) {
            sandbox_zone_use_pagemap(with_pagemap ? fd : -1);
            _exit(restore_child(e));
        }
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    close(fd);
    pid_t pid = fork();
    if (pid == 0)
        _exit(unreadable_snapshot_child(e));
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(sandbox_zone_pristine(), 1); /* the child's failure changed nothing here */
    /* The zone changed after the snapshot: no restore. */
    void *more = sandbox_zone_alloc(8192);
    assert_non_null(more);
    assert_int_equal(sandbox_zone_restorable(), 0);
    assert_int_equal(sandbox_zone_restore(), -1);
    sandbox_zone_free(more, 8192);
    sandbox_engine_destroy(e);
}

/* 1 when fd lets nothing change the file behind it: no write, no
 * truncation, no shared writable mapping. */
static int unwritable(int fd, size_t len)
{
    char byte = 'x';
    if (write(fd, &byte, 1) >= 0 || pwrite(fd, &byte, 1, 0) >= 0 || ftruncate(fd, 0) == 0)
        return 0;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m != MAP_FAILED) {
        munmap(m, len);
        return 0;
    }
    m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return 1;
    int ok = mprotect(m, len, PROT_READ | PROT_WRITE) != 0;
    munmap(m, len);
    return ok;
}

/* Every worker restores from the snapshot: code running in one (the
 * filter lets it mprotect its own memory) must not be able to change it
 * through its descriptor, here or in a forked child, nor through the file
 * opened anew for writing (the seals hold). */
static void test_snapshot_cannot_be_written(void **state)
{
    (void) state;
    void *p = sandbox_zone_alloc(4096);
    assert_non_null(p);
    assert_int_equal(sandbox_zone_snapshot(), 0);
    int fd = sandbox_zone_snapshot_fd();
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    assert_true(st.st_size > 0);
    assert_true(unwritable(fd, (size_t) st.st_size));
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int rw = open(path, O_RDWR);
    if (rw >= 0) {
        assert_true(unwritable(rw, (size_t) st.st_size));
        close(rw);
    }
    pid_t pid = fork();
    if (pid == 0)
        _exit(unwritable(fd, (size_t) st.st_size) ? 0 : 1);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    sandbox_zone_free(p, 4096);
}

/* A reset frees every block from malloc and the arena, whoever points to
 * them (in a child, with the zone frozen as in a worker). */
static int reset_child(void)
{
    sandbox_zone_freeze();
    struct sandbox_limits l;
    sandbox_limits_init(&l, 1 << 20);
    char *small = sandbox_limits_alloc(&l, 100);
    char *big = sandbox_limits_alloc(&l, 100000);
    char *grown = sandbox_limits_realloc(&l, sandbox_limits_alloc(&l, 5000), 50000);
    if (small == NULL || big == NULL || grown == NULL || l.blocks == NULL)
        return 2;
    sandbox_limits_free(&l, small);
    l.timed_out = l.alloc_failed = 1;
    sandbox_limits_reset(&l, 1234);
    if (l.blocks != NULL || l.arena.chunks != NULL || l.mem_used != 1234 || l.mem_peak != 1234 ||
        l.mem_cap != 0 || l.timed_out || l.alloc_failed)
        return 3;
    sandbox_limits_release(&l); /* nothing left: a leak would show under ASan */
    return 0;
}

static void test_limits_reset_frees_the_run(void **state)
{
    (void) state;
    pid_t pid = fork();
    if (pid == 0)
        _exit(reset_child());
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* Runs last: the freeze is for the rest of the process, as in a worker. */
static void test_frozen_zone_is_never_written(void **state)
{
    (void) state;
    struct sandbox_limits l;
    sandbox_limits_init(&l, 0);
    char *old = sandbox_limits_alloc(&l, 200);
    memset(old, 'z', 200);
    char *err = NULL;
    struct sandbox_engine *e = sandbox_engine_create(NULL, &err); /* built in the zone */
    struct sandbox_engine *e2 = sandbox_engine_create(NULL, &err);
    assert_non_null(e);
    assert_non_null(e2);
    assert_int_equal(sandbox__pin_len, 0);
    sandbox_zone_freeze();
    assert_int_equal(sandbox_zone_active(), 0);
    assert_null(sandbox_zone_alloc(16));
    char *fresh = sandbox_limits_alloc(&l, 50);
    assert_false(sandbox_zone_owns(fresh));
    char *moved = sandbox_limits_realloc(&l, old, 400);
    assert_false(sandbox_zone_owns(moved));
    assert_memory_equal(moved, "zzzz", 4);
    for (int i = 0; i < 200; i++)
        assert_int_equal(old[i], 'z'); /* the zone block was left as it was */
    sandbox_limits_free(&l, moved);
    sandbox_limits_free(&l, fresh);
    assert_int_equal(l.mem_used, 0);

    char *out = engine_run(e, "let a = []; for (let i = 0; i < 20000; i++) a.push({i, s: 'x' + i});"
                              "return a.length + a[19999].i");
    assert_non_null(strstr(out, "\"value\":39999"));
    free(out);
    sandbox_engine_destroy(e); /* frees of zone blocks are dropped */
    check_pinning(e2);
    check_pinned_heap_survives(e2);
    sandbox_engine_destroy(e2);
}

int main(void)
{
    if (sandbox_zone_enable() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_and_reuse),
        cmocka_unit_test(test_limits_allocate_in_the_zone),
        cmocka_unit_test(test_restore_gives_a_fresh_engine),
        cmocka_unit_test(test_snapshot_cannot_be_written),
        cmocka_unit_test(test_limits_reset_frees_the_run),
        cmocka_unit_test(test_frozen_zone_is_never_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
