# bootprof — one non-recursive Makefile.
#   make            build ./bootprof
#   make deps       install the Debian packages the tests and the demo need
#   make check      make deps, build with -Werror (+ ASan/UBSan), run all tests
#                   (in parallel; T=PATTERN runs only matching tests, J=N jobs)
#   make test       the fast root-free part: unit tests and fixture tests
#   make demo       install deps, record the built-in demo, print its report
#   make bench      run every benchmark (bench/run.sh), then a summary of their ratios
#   make fuzz       run each fuzz target for a bounded time
#   make chart-example  regenerate the chart/export goldens from fixtures and examples/chart.svg
#                   from a systemd boot (scripts/chart-example.sh)
#   make install    prefix=/usr/local DESTDIR=...
#   make static     build-static/bootprof: one static binary, plugins built in
#   make ARCH=arm64 cross-build with Debian's aarch64-linux-gnu- toolchain and
#                   arm64 multiarch libraries (make deps-arm64) into build-arm64/;
#                   make static ARCH=arm64 gives build-static-arm64/bootprof
#                   (CROSS_COMPILE=aarch64-linux-gnu- does the same); ARCH=i386
#                   likewise with i686-linux-gnu- (make deps-i386)
# V=1 shows the full commands.

VERSION   := 0.1.0
prefix    ?= /usr/local
PREFIX    ?= $(prefix)
bindir    := $(PREFIX)/bin
libdir    := $(PREFIX)/lib
mandir    := $(PREFIX)/share/man
datadir   := $(PREFIX)/share
plugindir := $(libdir)/bootprof/plugins

CC        ?= cc
AR        ?= ar
PKG_CONFIG ?= pkg-config
# Cross builds: ARCH=arm64 picks Debian's cross toolchain; the target's
# libraries come from its multiarch directory (dpkg --add-architecture).
ifeq ($(ARCH),arm64)
CROSS_COMPILE ?= aarch64-linux-gnu-
endif
ifeq ($(ARCH),i386)
CROSS_COMPILE ?= i686-linux-gnu-
endif
ifneq ($(CROSS_COMPILE),)
CROSS_TRIPLET := $(patsubst %-,%,$(CROSS_COMPILE))
# Debian's names for the output directory: aarch64- is arm64, i686- is i386.
CROSS_ARCH    := $(firstword $(subst -, ,$(CROSS_TRIPLET)))
CROSS_ARCH    := $(if $(ARCH),$(ARCH),$(patsubst aarch64,arm64,$(patsubst i686,i386,$(CROSS_ARCH))))
CROSS_SUFFIX  := -$(CROSS_ARCH)
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
# Debian's i386 libraries live in i386-linux-gnu, its compiler is i686-.
CROSS_MULTIARCH := $(patsubst i686-%,i386-%,$(CROSS_TRIPLET))
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_MULTIARCH)/pkgconfig:/usr/share/pkgconfig pkg-config
endif
PKGS      := libtracefs libtraceevent ncursesw libzstd sqlite3
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

WARN := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wvla -Wwrite-strings -Wundef -Wimplicit-fallthrough -fno-common
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(EXTRA_CFLAGS) $(PKG_CFLAGS) \
	-Isrc -Iinclude -DBOOTPROF_VERSION='"$(VERSION)"' -DBOOTPROF_PLUGIN_DIR='"$(plugindir)"' \
	-DBOOTPROF_BINDIR='"$(bindir)"' -MMD -MP
LDLIBS   := $(PKG_LIBS) -lpthread -ldl -lm

ifneq ($(V),1)
Q := @
quiet = @printf '  %-7s %s\n' $(1) $(2);
endif

# Build output: build/ (normal) or another O= directory (build-asan for
# tests); a cross build defaults to build-ARCH.
O ?= build$(CROSS_SUFFIX)
SRCS     := $(sort $(shell find src -name '*.c'))
# Plugins: linked into bootprof (built-in) and also built as .so files.
PLUGIN_SRCS := $(sort $(wildcard plugins/*.c))
PLUGIN_LIBS := $(PLUGIN_SRCS:%.c=$(O)/%.so)
LIB_SRCS := $(filter-out src/bootprof.c,$(SRCS)) $(PLUGIN_SRCS)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)
EXAMPLE_SRCS := $(sort $(wildcard examples/*/*.c))
EXAMPLE_BINS := $(patsubst %.c,$(O)/%,$(EXAMPLE_SRCS))

all: bootprof examples plugins

# ./bootprof points at the native build only.
bootprof: $(O)/bootprof
	$(Q)$(if $(CROSS_COMPILE),:,ln -sf $(O)/bootprof bootprof)

$(O)/bootprof: $(O)/src/bootprof.o $(O)/libbootprof.a
	$(call quiet,LINK,$@)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(O)/libbootprof.a: $(LIB_OBJS)
	$(call quiet,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/tests/%: tests/unit/%.c $(O)/libbootprof.a
	@mkdir -p $(dir $@)
	$(call quiet,CCLD,$@)$(CC) $(ALL_CFLAGS) -o $@ $< $(O)/libbootprof.a $(LDFLAGS) $(LDLIBS) -lcmocka

$(PLUGIN_SRCS:%.c=$(O)/%.o): ALL_CFLAGS += -DBOOTPROF_BUILTIN

# A plugin .so sees only the public header, like an external one.
$(O)/plugins/%.so: plugins/%.c include/bootprof/plugin.h
	@mkdir -p $(dir $@)
	$(call quiet,CCLD,$@)$(CC) $(filter-out -Isrc,$(ALL_CFLAGS)) -fPIC -shared -MF $@.d -o $@ $< $(LDFLAGS)

plugins: $(PLUGIN_LIBS)

# Examples are plain programs; they do not link libbootprof.
$(O)/examples/%: examples/%.c
	@mkdir -p $(dir $@)
	$(call quiet,CCLD,$@)$(CC) $(ALL_CFLAGS) -o $@ $< $(LDFLAGS) -lpthread -lm

examples: $(EXAMPLE_BINS)
unit-tests: $(UNIT_BINS)

# Recordings kept as text (gzip, base64): tests/fixtures/NAME.dat.gz.b64
# gives the NAME.dat the tests read. Text, because a recording is random
# bytes to any tool that reads the tree as text.
FIXTURE_TEXT := $(wildcard tests/fixtures/*.dat.gz.b64)
FIXTURE_DATS := $(FIXTURE_TEXT:%.gz.b64=%)
tests/fixtures/%.dat: tests/fixtures/%.dat.gz.b64
	$(call quiet,FIXTURE,$@)base64 -d <$< | gunzip >$@.tmp && mv $@.tmp $@
fixtures: $(FIXTURE_DATS)

deps-build:
	@scripts/deps.sh build

# Packages are installed by this one step (per target); check, demo and
# fuzz call it.
deps:
	@scripts/deps.sh check
deps-demo:
	@scripts/deps.sh demo
deps-fuzz:
	@scripts/deps.sh fuzz
deps-arm64:
	@scripts/deps.sh arm64
deps-i386:
	@scripts/deps.sh i386

# The test build: -Werror, AddressSanitizer and UndefinedBehaviorSanitizer.
ASAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
TEST_JOBS := $(if $(J),-j $(J))
check: deps fixtures
	$(Q)$(MAKE) --no-print-directory O=build EXTRA_CFLAGS=-Werror all
	$(Q)$(MAKE) --no-print-directory O=build-asan EXTRA_CFLAGS="-Werror $(ASAN_FLAGS)" \
		LDFLAGS="-fsanitize=address,undefined" build-asan/bootprof unit-tests examples plugins \
		build-asan/tests/fuzz-replay build-asan/tests/fault.so
	$(Q)BOOTPROF=$(CURDIR)/build-asan/bootprof BOOTPROF_FAST=$(CURDIR)/build/bootprof \
		BUILD=$(CURDIR)/build-asan tests/run.sh $(TEST_JOBS) $(T)

# No root, no tracefs, no sanitizers: the unit tests and the tests on
# fixtures, in parallel (tests tagged serial are left to make check).
test: all unit-tests fixtures
	$(Q)BOOTPROF=$(CURDIR)/build/bootprof BUILD=$(CURDIR)/build tests/run.sh --quick $(TEST_JOBS) $(T)

demo: deps-demo
	$(Q)$(MAKE) --no-print-directory all
	@# The boot of a real kernel under QEMU; where no kernel can be had,
	@# the cold-cache examples (zygote, package scan) recorded live.
	$(Q)scripts/demo-boot.sh || { echo "demo: falling back to the live examples" >&2; scripts/demo.sh; }

# A static build-static/bootprof for initramfs images (busybox, no shared
# libraries) and Android: libtracefs.a and libtraceevent.a linked in, the
# plugins built in; build-static-arm64/bootprof with ARCH=arm64. What a
# static binary cannot do (dlopen libtraceevent's plugins): docs/design.md,
# 'Static and cross builds'.
STATIC_O    := build-static$(CROSS_SUFFIX)
STATIC_LIBS := $(shell $(PKG_CONFIG) --static --libs $(PKGS) 2>/dev/null) -lpthread -ldl -lm
static:
	$(Q)$(MAKE) --no-print-directory O=$(STATIC_O) LDFLAGS=-static LDLIBS="$(STATIC_LIBS)" \
		$(STATIC_O)/bootprof
	@$(CROSS_COMPILE)strip -o $(STATIC_O)/bootprof.stripped $(STATIC_O)/bootprof
	@printf '  %-7s %s, %s bytes (%s stripped)\n' STATIC $(STATIC_O)/bootprof \
		"$$(stat -c %s $(STATIC_O)/bootprof)" "$$(stat -c %s $(STATIC_O)/bootprof.stripped)"

bench: all
	$(Q)bench/run.sh

# The goldens of t8100/t8101, from the checked-in fixture, and the README's
# picture, from a systemd boot under QEMU (cached): regenerated, never edited.
chart-example: bootprof
	$(Q)tests/fixtures/make-chart-fixtures.sh
.PHONY: chart-example

# ---- fuzzing: libFuzzer targets (clang) and a replay driver (make check) ----
FUZZ_TARGETS := reader meta model spool
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang-14
FUZZ_SRCS    := $(FUZZ_TARGETS:%=tests/fuzz/fuzz-%.c) tests/fuzz/fuzz-file.c
FUZZ_FLAGS   := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link

$(O)/tests/fuzz-replay: tests/fuzz/replay.c $(FUZZ_SRCS) tests/fuzz/fuzz.h $(O)/libbootprof.a
	@mkdir -p $(dir $@)
	$(call quiet,CCLD,$@)$(CC) $(ALL_CFLAGS) -o $@ tests/fuzz/replay.c $(FUZZ_SRCS) \
		$(O)/libbootprof.a $(LDFLAGS) $(LDLIBS)

$(O)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz-file.c tests/fuzz/fuzz.h $(O)/libbootprof.a
	@mkdir -p $(dir $@)
	$(call quiet,CCLD,$@)$(CC) $(ALL_CFLAGS) -DBP_FUZZ_LIBFUZZER -fsanitize=fuzzer -o $@ $< \
		tests/fuzz/fuzz-file.c $(O)/libbootprof.a $(LDFLAGS) $(LDLIBS)

# The LD_PRELOAD fault shim (tests/fault): plain, not sanitized.
$(O)/tests/fault.so: tests/fault/fault.c
	@mkdir -p $(dir $@)
	$(call quiet,CCLD,$@)$(CC) -std=gnu11 -D_GNU_SOURCE $(WARN) -Werror -O2 -g -fPIC -shared \
		-o $@ $< -ldl

fuzz: deps-fuzz
	$(Q)$(MAKE) --no-print-directory O=build-fuzz CC=$(FUZZ_CC) EXTRA_CFLAGS="$(FUZZ_FLAGS)" \
		LDFLAGS="-fsanitize=address,undefined" $(FUZZ_TARGETS:%=build-fuzz/fuzz/fuzz-%)
	$(Q)tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf build build-asan build-static build-fuzz bootprof $(FIXTURE_DATS)

.PHONY: all bootprof examples plugins unit-tests fixtures deps deps-build deps-demo deps-fuzz deps-arm64 deps-i386 check test demo bench clean install uninstall fuzz static

-include $(shell find $(O) -name '*.d' 2>/dev/null)

# ---- install / uninstall: PREFIX (default /usr/local), DESTDIR ----
includedir  := $(PREFIX)/include
bashcompdir := $(datadir)/bash-completion/completions
zshcompdir  := $(datadir)/zsh/vendor-completions
exampledir  := $(datadir)/doc/bootprof/examples
INSTALL     ?= install
MAN_PAGES   := $(wildcard man/*.[1-9])
# Evaluated when the recipe runs, after `all` has built the plugins.
PLUGIN_SOS   = $(wildcard $(O)/plugins/*.so)
# Sources, sample recordings, reports and boot snippets (not build output).
EXAMPLE_FILES := $(shell find examples -type f 2>/dev/null)

install: all
	$(INSTALL) -d $(DESTDIR)$(bindir)
	$(INSTALL) -m 755 $(O)/bootprof $(DESTDIR)$(bindir)/bootprof
	ln -sf bootprof $(DESTDIR)$(bindir)/bootprof-init
	$(if $(PLUGIN_SOS),$(INSTALL) -d $(DESTDIR)$(plugindir) && \
		$(INSTALL) -m 755 $(PLUGIN_SOS) $(DESTDIR)$(plugindir)/)
	for p in $(MAN_PAGES); do \
		$(INSTALL) -D -m 644 $$p $(DESTDIR)$(mandir)/man$${p##*.}/$${p#man/} || exit 1; \
	done
	$(INSTALL) -D -m 644 completions/bootprof.bash $(DESTDIR)$(bashcompdir)/bootprof
	$(INSTALL) -D -m 644 completions/_bootprof $(DESTDIR)$(zshcompdir)/_bootprof
	$(if $(wildcard include/bootprof/plugin.h),$(INSTALL) -D -m 644 include/bootprof/plugin.h \
		$(DESTDIR)$(includedir)/bootprof/plugin.h)
	for f in $(EXAMPLE_FILES); do \
		if [ -x "$$f" ]; then m=755; else m=644; fi; \
		$(INSTALL) -D -m $$m "$$f" "$(DESTDIR)$(exampledir)/$${f#examples/}" || exit 1; \
	done

uninstall:
	rm -f $(DESTDIR)$(bindir)/bootprof $(DESTDIR)$(bindir)/bootprof-init
	$(if $(PLUGIN_SOS),rm -f $(addprefix $(DESTDIR)$(plugindir)/,$(notdir $(PLUGIN_SOS))))
	for p in $(MAN_PAGES); do rm -f $(DESTDIR)$(mandir)/man$${p##*.}/$${p#man/}; done
	rm -f $(DESTDIR)$(bashcompdir)/bootprof $(DESTDIR)$(zshcompdir)/_bootprof
	rm -f $(DESTDIR)$(includedir)/bootprof/plugin.h
	rm -rf $(DESTDIR)$(exampledir)
	for d in $(DESTDIR)$(plugindir) $(DESTDIR)$(libdir)/bootprof $(DESTDIR)$(datadir)/doc/bootprof \
		$(DESTDIR)$(includedir)/bootprof; do \
		if [ -d $$d ]; then rmdir $$d || exit 1; fi; \
	done
