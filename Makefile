# perfreport — hand-written Makefile. Objects go to build/ (or $(BUILD)).
# make                 build ./perfreport
# make test            unit + CLI + conformance tests, ends with "N passed, N failed"
# make check           the test suite under ASan+UBSan (SANITIZE=address,undefined)
# make SANITIZE=address,undefined   sanitized build in build-san/
# make bench           benchmarks (bench/)
# make soak            the generator held for 10 min at 20,000 req/s and 1 h at 5,000 req/s (bench/soak.sh)
# make fuzz            libFuzzer targets (clang, ASan+UBSan, stop at the first report) in build-fuzz/
# make fuzz-long       every target for FUZZ_SECONDS (120) with its dictionary and the merged
#                      corpus; new coverage minimised into tests/fuzz/<target>/, crashes kept
#                      in tests/fuzz/crashes/<target>/ (docs/fuzzing.md)
# make install PREFIX=/usr/local
# make pot             po/perfreport.pot from the sources (xgettext); make po: merge it into po/*.po
# make deps            install the Debian packages the project needs (idempotent)
# make lint            include direction between modules, committed clang-format style

PREFIX   ?= /usr/local
CC       ?= cc
PKGS     := jansson libxml-2.0 cairo pangocairo sqlite3 libpq md4c md4c-html openssl zlib libxxhash
SANITIZE ?=
WERROR   ?=
OPT      ?= -O2

ifeq ($(SANITIZE),)
BUILD    ?= build
else
BUILD    ?= build-san
SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
OPT      := -O1 -g
endif

WARN     := -Wall -Wextra -Wshadow -Wpointer-arith -Wcast-qual -Wstrict-prototypes \
            -Wmissing-prototypes -Wformat=2 -Wno-unused-parameter -Wvla -Wundef
ifneq ($(WERROR),)
WARN     += -Werror
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcsv -lm -lpthread

CFLAGS   ?= $(OPT) -g
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(CFLAGS) $(WARN) $(SANFLAGS) -I. $(PKG_CFLAGS) -MMD -MP
LDFLAGS_ALL := $(SANFLAGS) $(LDFLAGS)
ifneq ($(FUZZ_LIBFUZZER),)
ALL_CFLAGS += -DPR_LIBFUZZER
endif

# Library: every .c in the source folders except cli/main.c.
SRC_DIRS := model store parsers analysis render gen cli
LIB_SRC  := $(filter-out cli/main.c,$(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libperfreport.a

# Built-in templates compiled into the binary.
TPL_SRC  := $(sort $(wildcard templates/*.md templates/*.html templates/*.mustache))
TPL_C    := $(BUILD)/gen/templates_data.c
TPL_OBJ  := $(BUILD)/gen/templates_data.o $(BUILD)/gen/assets_data.o $(BUILD)/gen/catalogs_data.o

# Assets compiled in beside them (render/dashboard.c): the interactive report's script and the
# charting library it drives, uPlot, fetched at build time by `npm ci` from the pinned
# render/js/package-lock.json into $(NPM_DIR) (never committed). UPLOT_DIR may point at
# another copy of the uplot package.
NPM_DIR   ?= build/npm
UPLOT_DIR ?= $(NPM_DIR)/render/node_modules/uplot
UPLOT     := $(UPLOT_DIR)/dist/uPlot.iife.min.js
ASSET_SRC := dashboard.js=render/js/dashboard.js uPlot.min.js=$(UPLOT) \
             uPlot.min.css=$(UPLOT_DIR)/dist/uPlot.min.css uPlot.LICENSE=$(UPLOT_DIR)/LICENSE
ASSET_C   := $(BUILD)/gen/assets_data.c

# Message catalogs (GNU gettext, docs/l10n.md): po/LANG.po compiled by msgfmt into
# $(BUILD)/locale/LANG/LC_MESSAGES/perfreport.mo, where the uninstalled binary finds them;
# `make install` puts them in $(LOCALEDIR). `make pot` extracts the messages of the sources and
# of the templates ({{#_}}…{{/_}}, tests/tools/tpl_msgs.sh).
LOCALEDIR ?= $(PREFIX)/share/locale
PO_SRC   := $(wildcard po/*.po)
PO_LANGS := $(notdir $(PO_SRC:.po=))
MO       := $(PO_LANGS:%=$(BUILD)/locale/%/LC_MESSAGES/perfreport.mo)
POT_SRC  := $(sort $(LIB_SRC) cli/main.c)
XGETTEXT_FLAGS := --language=C --from-code=UTF-8 --keyword=_ --keyword=N_ --keyword=C_:1c,2 \
                  --keyword=NC_:1c,2 --keyword=n_:1,2 --add-comments=TRANSLATORS: \
                  --add-location=file --sort-by-file --package-name=perfreport \
                  --package-version=$(shell sed -n 's/.*PR_VERSION "\(.*\)"/\1/p' model/version.h) \
                  --msgid-bugs-address="the perfreport issue tracker" \
                  --copyright-holder="the perfreport authors"
$(BUILD)/model/l10n.o: ALL_CFLAGS += -DPR_LOCALEDIR='"$(LOCALEDIR)"' -DPR_BUILD_DIR='"$(BUILD)"'

UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TESTLIB_SRC := $(wildcard tests/unit/lib/*.c)
TESTLIB_OBJ := $(TESTLIB_SRC:%.c=$(BUILD)/%.o)

FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)

BENCH_SRC := $(wildcard bench/*.c)
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

ifeq ($(V),)
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2)
else
Q :=
msg =
endif

BIN := perfreport
ifneq ($(SANITIZE),)
BIN := $(BUILD)/perfreport
endif

.PHONY: all test test-run check bench soak fuzz fuzz-long install deps clean demo unit-bins fuzz-bins lint pot po
all: $(BIN) $(MO)

$(BIN): $(BUILD)/cli/main.o $(LIB) $(TPL_OBJ)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS)

$(LIB): $(LIB_OBJ)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(TPL_C): $(TPL_SRC) tests/tools/embed.sh
	$(call msg,EMBED,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)sh tests/tools/embed.sh $(TPL_SRC) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/templates_data.o: $(TPL_C)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -I. -c -o $@ $<

$(UPLOT): render/js/package-lock.json
	$(call msg,NPM,$(UPLOT_DIR))
	$(Q)sh tests/tools/npm.sh render/js $(NPM_DIR)/render
	$(Q)test -f $@ && touch $@

$(ASSET_C): render/js/dashboard.js $(UPLOT) tests/tools/embed.sh
	$(call msg,EMBED,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)sh tests/tools/embed.sh -t pr_builtin_assets $(ASSET_SRC) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/assets_data.o: $(ASSET_C)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -I. -c -o $@ $<

# The message catalogs built into the binary (model/l10n.c): a binary copied elsewhere keeps
# its languages.
CAT_C := $(BUILD)/gen/catalogs_data.c
$(CAT_C): $(MO) tests/tools/embed.sh
	$(call msg,EMBED,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)sh tests/tools/embed.sh -t pr_builtin_catalogs $(foreach l,$(PO_LANGS),$(l)=$(BUILD)/locale/$(l)/LC_MESSAGES/perfreport.mo) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/catalogs_data.o: $(CAT_C)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -I. -c -o $@ $<

$(BUILD)/locale/%/LC_MESSAGES/perfreport.mo: po/%.po
	$(call msg,MSGFMT,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)msgfmt --check -o $@.tmp $< && mv $@.tmp $@

POT ?= po/perfreport.pot
pot:
	$(Q)xgettext $(XGETTEXT_FLAGS) -o $(POT).c.tmp $(POT_SRC)
	$(Q)sh tests/tools/tpl_msgs.sh $(TPL_SRC) | msguniq --add-location=file -o $(POT).tpl.tmp
	$(Q)msgcat --use-first --add-location=file -o $(POT) $(POT).c.tmp $(POT).tpl.tmp
	$(Q)rm -f $(POT).c.tmp $(POT).tpl.tmp

po: pot
	$(Q)for p in $(PO_SRC); do msgmerge --quiet --update --backup=none --add-location=file $$p po/perfreport.pot; done

$(BUILD)/tests/%: tests/unit/%.c $(LIB) $(TPL_OBJ) $(TESTLIB_OBJ)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(TESTLIB_OBJ) $(LIB) $(TPL_OBJ) $(LDFLAGS_ALL) $(PKG_LIBS) -lcmocka

# Fuzz targets: built here with a corpus-replay driver (fuzz/driver.c) so the test
# suite runs them over their seed corpus; `make fuzz` builds them with libFuzzer.
$(BUILD)/fuzz/%: fuzz/%.c fuzz/driver.c $(LIB) $(TPL_OBJ)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< fuzz/driver.c $(LIB) $(TPL_OBJ) $(LDFLAGS_ALL) $(PKG_LIBS)

$(BUILD)/bench/%: bench/%.c $(LIB) $(TPL_OBJ)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(TPL_OBJ) $(LDFLAGS_ALL) $(PKG_LIBS)

# The scripted loopback server of the unit tests as a process, for the CLI cases.
HTTPD_BIN := $(BUILD)/tests/httpd
$(HTTPD_BIN): tests/tools/httpd.c tests/unit/lib/testhttpd.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS_ALL) -lpthread

# Peak memory of a command, for the CLI cases that bound it.
MAXRSS_BIN := $(BUILD)/tests/maxrss
$(MAXRSS_BIN): tests/tools/maxrss.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS_ALL)

# The pseudo-terminal runner of the CLI cases' terminal pass.
PTY_BIN := $(BUILD)/tests/pty
$(PTY_BIN): tests/tools/pty.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS_ALL)

# The behaviour lab: a loopback server whose behaviour the path sets (tests/lab/README.md).
LABD_BIN := $(BUILD)/tests/labd
$(LABD_BIN): tests/tools/labd.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS_ALL)

unit-bins: $(UNIT_BIN)
fuzz-bins: $(FUZZ_BIN)

# `make test` first makes sure the Debian packages are there (a no-op when they are), then
# re-enters make so pkg-config sees them.
test: deps
	$(Q)$(MAKE) --no-print-directory test-run

test-run: $(BIN) $(MO) $(UNIT_BIN) $(FUZZ_BIN) $(HTTPD_BIN) $(MAXRSS_BIN) $(PTY_BIN) $(LABD_BIN) $(BUILD)/bench/gen_k6 $(BUILD)/bench/gen_native
	$(Q)PERFREPORT_BIN=$(abspath $(BIN)) BUILD=$(BUILD) sh tests/run.sh

check:
	$(Q)$(MAKE) --no-print-directory test SANITIZE=address,undefined

# The man page, from the binary's own --help texts (tests/cli/manpage.sh checks it is current).
man: $(BIN)
	$(Q)sh tests/tools/manpage.sh ./$(BIN) > docs/perfreport.1.tmp && mv docs/perfreport.1.tmp docs/perfreport.1

bench: $(BIN) $(BENCH_BIN)
	$(Q)PERFREPORT_BIN=$(abspath $(BIN)) BUILD=$(BUILD) sh bench/run.sh

# Not part of CI: 70 minutes of load (SOAKS="RATE:DURATION ..." to choose).
soak: $(BIN)
	$(Q)PERFREPORT_BIN=$(abspath $(BIN)) bash bench/soak.sh

# clang and its libFuzzer runtime are needed here only (not by `make test`). UBSan does not
# recover: a finding stops the target and leaves its input as an artifact.
FUZZ_PKGS := clang libclang-rt-14-dev
fuzz:
	$(Q)PERFREPORT_EXTRA_PKGS="$(FUZZ_PKGS)" sh tests/tools/deps.sh
	$(Q)$(MAKE) --no-print-directory fuzz-bins CC=clang BUILD=build-fuzz OPT="-O1 -g" \
	  SANFLAGS="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  FUZZ_LIBFUZZER=1

fuzz-long: fuzz
	$(Q)sh tests/tools/fuzz_long.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh tests/tools/demo.sh

deps:
	$(Q)sh tests/tools/deps.sh

lint:
	$(Q)sh tests/tools/lint.sh

install: $(BIN) $(MO)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/perfreport
	install -m 644 docs/perfreport.1 $(DESTDIR)$(PREFIX)/share/man/man1/perfreport.1
	for l in $(PO_LANGS); do \
	  install -d $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES && \
	  install -m 644 $(BUILD)/locale/$$l/LC_MESSAGES/perfreport.mo $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES/perfreport.mo || exit 1; \
	done

clean:
	rm -rf build build-san build-fuzz perfreport

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
.SECONDARY:
