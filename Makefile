# mcp-codemode: one non-recursive Makefile.
#   make            build build/mcp-codemode (and build/mcp-codemode-sandbox, its zygote image)
#   make run        set up, build, run the example program through the server's execution path
#   make serve      start the stdio server with the example config
#   make test       set up (system packages, pinned npm modules), build, run every test
#   make unit | e2e | programs | conformance | fuzz-ci | bench | soak (minutes)
#   make test SANITIZE=1   the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make fuzz [FUZZ_SECONDS=60]   build the libFuzzer targets (tests/fuzz/) with clang
#                  into build-fuzz/ and run each for FUZZ_SECONDS; make fuzz-ci: briefly
#   make install PREFIX=/usr/local
# Sources are found by directory: a new .c file anywhere under common/
# transport/ mcp-server/ sandbox/ tools/ (subsystem folders included) is built
# into the program; a new tests/unit/test_*.c (or test_*.sh) is a test.

PREFIX  ?= /usr/local
CC      ?= cc
SANITIZE ?= 0
ifeq ($(SANITIZE),1)
B       ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
B       ?= build
SANFLAGS :=
endif
OPT     ?= -O2
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter \
           -Wformat=2 -Wno-format-nonliteral
PKGS    := libuv libcjson libseccomp libcurl sqlite3 libpq
LLHTTP_SRC ?= /usr/share/llhttp
LLHTTP_INC ?= /usr/share/include/llhttp
CPPFLAGS += -I. -I$(B)/duk -I$(B)/gen -I$(LLHTTP_INC) -D_GNU_SOURCE
CFLAGS  += -std=c11 $(OPT) -g $(WARN) $(SANFLAGS) $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libcurl is compiled against but not linked: transport/curl_lib.c loads it
# when an HTTP downstream first needs it (its ~30 libraries cost ~5 MiB of RSS);
# SQLite likewise: tools/state/sqlite_lib.c loads it when state is first used
# (linked, it added ~350 KiB to the idle server's RSS); libpq likewise:
# tools/state/pg_lib.c loads it when codemode.store names a PostgreSQL server
LINK_PKGS := $(filter-out libcurl sqlite3 libpq,$(PKGS))
# libcrypto (OpenSSL) verifies the HTTP endpoint's inbound access tokens
# (mcp-server/http/oauth/): linked, as libcurl's TLS loads it anyway.
LDLIBS  += $(shell pkg-config --libs $(LINK_PKGS) 2>/dev/null || echo -luv -lcjson -lseccomp) -lcrypto -ldl -lm -lpthread
LDFLAGS += $(SANFLAGS)

SRC_DIRS := common transport mcp-server sandbox tools
# Recursive: each subsystem folder (sandbox/lower/, tools/schema/, ...) is searched.
rwildcard = $(foreach d,$(wildcard $(1:=/*)),$(call rwildcard,$d,$2) $(filter $(subst *,%,$2),$d))
ALL_SRCS := $(sort $(call rwildcard,$(SRC_DIRS),*.c))
ALL_HDRS := $(sort $(call rwildcard,$(SRC_DIRS),*.h))
LIB_SRCS := $(filter-out mcp-server/main.c sandbox/worker/main.c,$(ALL_SRCS))
# What the worker image (mcp-codemode-sandbox) may link: the worker side of
# sandbox/, the wire (sandbox/ipc.c) and common/. A worker-side file that
# calls into the host fails to link the image.
WORKER_SRCS := $(filter sandbox/worker/% sandbox/lower/% sandbox/ipc.c common/%,$(LIB_SRCS))
LLHTTP_OBJS := $(B)/llhttp/api.o $(B)/llhttp/http.o $(B)/llhttp/llhttp.o
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/prelude_js.o $(B)/obj/gen/prelude_lazy_js.o $(LLHTTP_OBJS)
PRELUDE  := $(sort $(wildcard sandbox/prelude/*.js))
PRELUDE_LAZY := $(sort $(wildcard sandbox/prelude/lazy/*/*.js))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_SCRIPTS := $(wildcard tests/unit/test_*.sh)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%) $(UNIT_SCRIPTS:tests/unit/%.sh=$(B)/tests/%)
BIN     := $(B)/mcp-codemode
SANDBOX_BIN := $(B)/mcp-codemode-sandbox
DUK_OBJ := $(B)/duk/duktape.o
EXAMPLES := $(B)/examples/maze-server

.PHONY: all run serve test unit e2e programs conformance bench soak install clean deps npm-deps format check-format fuzz fuzz-ci fuzz-bins
all: $(BIN) $(EXAMPLES)

# --- Duktape, built from the packaged amalgamation and our patch series -----
# (sandbox/duktape/README.md: the overrides, the series, the appended fast paths)
DUK_PATCHES := sandbox/duktape/patches/series $(wildcard sandbox/duktape/patches/*.patch)
$(B)/duk/duktape.c $(B)/duk/duk_config.h $(B)/duk/duktape.h &: sandbox/duktape/build.sh sandbox/duktape/config_overrides.h sandbox/duktape/fastpaths.inc $(DUK_PATCHES)
	sh sandbox/duktape/build.sh $(B)/duk
# Duktape itself is always optimised (the interpreter is the hot path) and is
# not instrumented: ASan/UBSan findings inside the engine are not ours to fix.
$(DUK_OBJ): $(B)/duk/duktape.c $(B)/duk/duk_config.h
	$(CC) -std=c99 -O2 -g -fno-omit-frame-pointer -w -I$(B)/duk -c $< -o $@

# --- llhttp, the HTTP/1.1 parser of the HTTP server ---------------------------
# Its C sources come from Debian's node-llhttp package (outside our tree); they
# go into the library like our own objects. Generated code: built optimised,
# without our warnings and without sanitizers (like Duktape), in llhttp's strict
# mode (no bare LF or spaces in header names: nothing a proxy could read otherwise).
$(B)/llhttp/%.o: $(LLHTTP_SRC)/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c99 -O2 -g -fno-omit-frame-pointer -w -DLLHTTP_STRICT_MODE=1 -I$(LLHTTP_INC) -c $< -o $@

# --- embedded prelude --------------------------------------------------------
$(B)/gen/prelude_js.c: $(PRELUDE) scripts/embed.sh sandbox/prelude
	@mkdir -p $(dir $@)
	sh scripts/embed.sh sandbox_prelude_js $(PRELUDE) > $@.tmp && mv $@.tmp $@
$(B)/gen/prelude_lazy_js.c: $(PRELUDE_LAZY) scripts/embed.sh scripts/embed_lazy.sh sandbox/prelude/lazy $(wildcard sandbox/prelude/lazy/*)
	@mkdir -p $(dir $@)
	sh scripts/embed_lazy.sh sandbox/prelude/lazy > $@.tmp && mv $@.tmp $@

# --- objects -----------------------------------------------------------------
$(B)/obj/%.o: %.c $(B)/duk/duk_config.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(B)/obj/gen/%.o: $(B)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libmcpcodemode.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^
$(B)/libmcpcodemode-worker.a: $(WORKER_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/prelude_js.o $(B)/obj/gen/prelude_lazy_js.o
	rm -f $@ && ar rcs $@ $^

# The trust boundary (docs/architecture.md): code that runs inside the worker
# includes nothing of the host's: no libuv, no tools/, transport/,
# mcp-server/ or sandbox/host/ header. A file that does fails the build.
BOUNDARY_FILES := $(wildcard sandbox/worker/*.[ch] sandbox/lower/*.[ch] sandbox/ipc.[ch])
$(B)/boundary.ok: $(BOUNDARY_FILES)
	@mkdir -p $(dir $@)
	@bad=$$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](uv\.h|uv/|tools/|transport/|mcp-server/|sandbox/host/)' $(BOUNDARY_FILES)); \
	if [ -n "$$bad" ]; then \
		echo "$$bad"; \
		echo "boundary: code that runs in the sandbox worker must not include the host's headers (libuv, tools/, transport/, mcp-server/, sandbox/host/)" >&2; \
		exit 1; \
	fi; touch $@

$(BIN): $(B)/obj/mcp-server/main.o $(DUK_OBJ) $(B)/libmcpcodemode.a | $(SANDBOX_BIN) $(B)/boundary.ok
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The zygote image the server starts from next to itself: the same library
# without libuv and libcurl, so that every worker fork copies ~36 mappings,
# not ~205 (sandbox/worker/main.c). Without it the server runs itself.
# libseccomp is linked in statically: each shared library is five
# more mappings that every fork copies and every exit tears down (~1-1.5 us
# per mapping per worker, measured in a fork-exit loop).
SANDBOX_STATIC_LIBS := -Wl,-Bstatic -lseccomp -Wl,-Bdynamic -lm
$(SANDBOX_BIN): $(B)/obj/sandbox/worker/main.o $(DUK_OBJ) $(B)/libmcpcodemode-worker.a | $(B)/boundary.ok
	$(CC) $(LDFLAGS) -Wl,-z,now -o $@ $^ $(shell pkg-config --libs libcjson 2>/dev/null || echo -lcjson) $(SANDBOX_STATIC_LIBS)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

# --- unit tests (cmocka) -----------------------------------------------------
$(B)/tests/%: tests/unit/%.c $(B)/libmcpcodemode.a $(DUK_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(DUK_OBJ) $(B)/libmcpcodemode.a $(LDFLAGS) $(LDLIBS) -lcmocka -lsqlite3
# A shell test (tests/unit/test_*.sh) runs from the tree through a wrapper.
$(B)/tests/%: tests/unit/%.sh
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec sh "%s" "$$@"\n' "$(CURDIR)/$<" > $@ && chmod +x $@

# --- test-only helpers (tests/helpers/*.c, driven by the e2e tests) ------------
TOOL_BINS := $(B)/tests/decl_dump $(B)/tests/failmalloc.so
# The malloc-failure preload of tests/e2e/faults-alloc.test.mjs: plain, never
# sanitized (a sanitizer must be the first malloc of the process).
$(B)/tests/failmalloc.so: tests/fault/failmalloc.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -g -fPIC -shared $(WARN) -o $@ $<
$(B)/tests/decl_dump: tests/helpers/decl_dump.c $(B)/libmcpcodemode.a $(DUK_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(DUK_OBJ) $(B)/libmcpcodemode.a $(LDFLAGS) $(LDLIBS)

# --- fuzz targets (tests/fuzz/fuzz_*.c, libFuzzer) ---------------------------
# Built by scripts/run-fuzz.sh through `make fuzz-bins B=build-fuzz CC=clang
# SANFLAGS=...`: the library is instrumented (fuzzer-no-link + ASan + UBSan),
# Duktape and llhttp are not (as above); each target links -fsanitize=fuzzer.
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(B)/fuzz/%)
fuzz-bins: $(FUZZ_BINS)
$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(B)/libmcpcodemode.a $(DUK_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(DUK_OBJ) $(B)/libmcpcodemode.a $(LDFLAGS) $(LDLIBS)

# --- examples -------------------------------------------------------------------
$(B)/examples/maze-server: examples/maze/maze_server.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) -g $(WARN) $(SANFLAGS) -D_GNU_SOURCE $(shell pkg-config --cflags libcjson 2>/dev/null) -o $@ $< $(LDFLAGS) -lcjson

# --- set-up ------------------------------------------------------------------
deps:
	sh scripts/setup.sh
npm-deps:
	sh scripts/setup.sh --npm

# --- user-facing targets -----------------------------------------------------
run: deps
	$(MAKE) $(BIN) $(EXAMPLES)
	sh scripts/run-example.sh $(BIN)

serve: $(BIN) $(EXAMPLES)
	$(BIN) --stdio --config examples/config.json

test: npm-deps
	$(MAKE) $(BIN) $(EXAMPLES) $(UNIT_BINS) $(TOOL_BINS)
	sh scripts/run-tests.sh $(B)

unit: $(BIN) $(UNIT_BINS)
	sh scripts/run-tests.sh $(B) unit
e2e: $(BIN) $(EXAMPLES) $(TOOL_BINS)
	sh scripts/run-tests.sh $(B) e2e
programs: $(BIN) $(EXAMPLES)
	sh scripts/run-tests.sh $(B) programs
conformance: $(BIN)
	sh scripts/run-tests.sh $(B) conformance
bench: $(BIN)
	sh scripts/run-bench.sh $(B)
# Minutes, not part of test: SOAK_EXECUTIONS (100000), SOAK_SECONDS (1800), SOAK_RSS_MIB (8)
soak: $(BIN) npm-deps
	MCP_CODEMODE_BIN=$(B)/mcp-codemode node tests/soak/soak.mjs
FUZZ_SECONDS ?= 60
fuzz:
	sh scripts/run-fuzz.sh $(FUZZ_SECONDS)
fuzz-ci:
	sh scripts/run-fuzz.sh ci

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/mcp-codemode
	install -m 755 $(SANDBOX_BIN) $(DESTDIR)$(PREFIX)/bin/mcp-codemode-sandbox

format:
	clang-format -i $(ALL_SRCS) $(ALL_HDRS) $(UNIT_SRCS)

clean:
	rm -rf build build-san build-fuzz
