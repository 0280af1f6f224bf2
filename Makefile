# evkit: hybrid retrieval with evidence attribution, as Unix filters.
#
# Layout: cmd/ev-*.c are thin programs (one per command, found by wildcard);
# lib/FOLDER/*.c (base, cli, store, lanes, merge, judge: the parts of
# lib/LAYERS) is archived into build/libevkit.a, which every command links, so
# a command only pulls in the modules it calls.  Adding a command: cmd/ev-foo.c,
# man/ev-foo.1, tests/cmd/ev-foo/; nothing here changes.

# `make` alone builds every command (the rules below begin with ev-extract's).
.DEFAULT_GOAL := all

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
MANDIR   = $(PREFIX)/share/man

CC      ?= cc
CXX     ?= c++
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
CXXFLAGS ?= $(OPT) -g
EV_CFLAGS = -std=c11 -Wall -Wextra -D_GNU_SOURCE $(LIB_DIRS:%=-I%)
EV_CXXFLAGS = -std=c++17 -Wall -Wextra $(LIB_DIRS:%=-I%)
SANITIZE ?=
BUILD   ?= build
BIN     ?= bin
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

COMMANDS := $(sort $(patsubst cmd/%.c,%,$(wildcard cmd/ev-*.c)))
LIB_DIRS := $(sort $(patsubst %/,%,$(dir $(wildcard lib/*/*.h))))
LIB_H    := $(wildcard lib/*/*.h)
LIB_C    := $(sort $(wildcard lib/*/*.c))
LIB_OBJ  := $(LIB_C:lib/%.c=$(BUILD)/lib/%.o)

# Debian's libfaiss-dev ships the C API headers but not the compiled C API:
# build our own subset (lib/store/faiss_capi.cpp) only when the machine lacks it.
FAISS_C_LIB := $(wildcard /usr/lib/*/libfaiss_c.so /usr/lib/libfaiss_c.so /usr/local/lib/libfaiss_c.so)
ifeq ($(FAISS_C_LIB),)
LIB_OBJ  += $(if $(wildcard lib/store/faiss_capi.cpp),$(BUILD)/lib/store/faiss_capi.o)
FAISS_C  :=
else
FAISS_C  := -lfaiss_c
endif

# The C++ modules of evkit's own: they reach what Faiss's C API cannot (the
# prefetch threads; an IVF scan whose sums must stay in Faiss's order, so
# never contracted into fused multiply-adds; large allocations, the index's
# quantizer among them, on huge pages; a Flat index's vectors searched where
# they lie in the mapped file).
LIB_OBJ  += $(BUILD)/lib/store/faiss_prefetch.o $(BUILD)/lib/store/faiss_scan.o \
	$(BUILD)/lib/store/faiss_alloc.o $(BUILD)/lib/store/faiss_flatmap.o
$(BUILD)/lib/store/faiss_scan.o: CXXFLAGS += -ffp-contract=off

# libfaiss is linked statically with its OpenMP needs; --as-needed keeps
# commands that do not use Faiss free of them at start-up.  BLAS and LAPACK
# are not linked: lib/base/lapack.c loads them on first use (the group lets
# Faiss's calls find its routines in libevkit.a).  The C++ library is linked
# statically too (only the parts Faiss and lib/store/*.cpp call): loading
# libstdc++.so and binding its symbols took 2 M instructions, half a
# millisecond, of every process that searches (ev-hybrid runs six); not
# under a sanitizer, whose runtime expects the shared one.
# The commands link SQLite, Jansson and libyaml statically as well (their
# archives come in the same -dev packages): loading and binding the shared
# libraries took 0.4 ms of a command's 1.2 to 2 (--help), 0.9 of the 4.2
# that ev-search-vec takes to open a store and its index.  A security update
# of one of them is taken by running make again (the commands depend on the
# archives).  The unit tests link them shared: those that wrap malloc at
# link time leave theirs alone.  libstemmer is loaded on first use instead
# (lib/base/stemmer.h): its tables cost every process 2 ms to relocate, and
# English text never calls it.
STDCXX = $(if $(SANITIZE),-lstdc++,-Wl,-Bstatic -lstdc++ -Wl,-Bdynamic)
EXTLIBS = -lsqlite3 -ljansson -lyaml
EXTLIB_FILES := $(wildcard $(foreach l,$(EXTLIBS:-l%=lib%.a) libfaiss.a libstdc++.a,$(shell $(CC) -print-file-name=$(l))))
LDLIBS_BASE = -Wl,--as-needed $(FAISS_C) -Wl,--start-group $(BUILD)/libevkit.a \
	-Wl,-Bstatic -lfaiss -Wl,-Bdynamic -Wl,--end-group -lgomp
LDLIBS_ALL = $(LDLIBS_BASE) -Wl,-Bstatic $(EXTLIBS) -Wl,-Bdynamic $(STDCXX) -lm -lpthread -ldl
LDLIBS_TEST = $(LDLIBS_BASE) $(EXTLIBS) $(STDCXX) -lm -lpthread -ldl

# ev-extract alone links poppler (GPL-2.0-or-later), libxml2 and uchardet: see README
# "Licence".  Their callers (lib/store/extract_pdf.c, extract_html.c) stay out
# of libevkit.a, so that no other command can link them and a machine without
# them builds every other command; OBJS_<program> and LDLIBS_<program> add to
# one program's link line (a command's or a unit test's).
EXTRACT_OBJ := $(BUILD)/lib/store/extract_pdf.o $(BUILD)/lib/store/extract_html.o
LIB_OBJ := $(filter-out $(EXTRACT_OBJ),$(LIB_OBJ))
EXTRACT_CFLAGS := $(shell pkg-config --cflags poppler-glib libxml-2.0 uchardet 2>/dev/null)
OBJS_ev-extract = $(EXTRACT_OBJ)
OBJS_test_extract = $(EXTRACT_OBJ)
LDLIBS_ev-extract = $(shell pkg-config --libs poppler-glib libxml-2.0 uchardet 2>/dev/null)
LDLIBS_test_extract = $(LDLIBS_ev-extract)
$(EXTRACT_OBJ): EV_CFLAGS += $(EXTRACT_CFLAGS)
$(BIN)/ev-extract $(BUILD)/tests/test_extract: $(EXTRACT_OBJ)

# test_strmap, test_fuse_nomem, test_textsearch_nomem and test_route_nomem make allocations
# fail: malloc and realloc wrapped at link time (and calloc, for the last two).
LDLIBS_test_strmap = -Wl,--wrap=malloc -Wl,--wrap=realloc
LDLIBS_test_fuse_nomem = $(LDLIBS_test_strmap)
LDLIBS_test_textsearch_nomem = $(LDLIBS_test_strmap) -Wl,--wrap=calloc
LDLIBS_test_route_nomem = $(LDLIBS_test_textsearch_nomem)
# test_qfilter counts the dates read; test_ingest and test_ingestpass make opendir()
# and stat() run out of memory.
LDLIBS_test_qfilter = -Wl,--wrap=ev_clock_date_days
LDLIBS_test_ingest = -Wl,--wrap=opendir
LDLIBS_test_ingestpass = -Wl,--wrap=stat

TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

.PHONY: all deps demo check test layers unit golden eval eval-ablation eval-loo eval-tune eval-mix eval-lang bench install uninstall clean asan fuzz bench-scale \
	hostile crash alloc valgrind reliability man-options

all: $(COMMANDS:%=$(BIN)/%) $(BIN)/evkit_fts5.so

# The tokeniser as a SQLite extension, for the sqlite3 shell (evkit_fts5.c).
# Never built with $(SANITIZE): the shell that loads it is not (AddressSanitizer
# refuses to start a runtime inside a program that lacks it).
FTS5_EXT_SRC := lib/store/evkit_fts5.c lib/store/analyze.c lib/base/buf.c lib/base/err.c
$(BIN)/evkit_fts5.so: $(FTS5_EXT_SRC) $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(EV_CFLAGS) $(CFLAGS) -fPIC -shared -o $@ $(FTS5_EXT_SRC) \
		-lsqlite3 -licuuc -lstemmer

deps:
	@scripts/install-deps.sh

$(BUILD)/lib/%.o: lib/%.c $(LIB_H) VERSION
	@mkdir -p $(@D)
	$(CC) $(EV_CFLAGS) -DEV_VERSION='"$(VERSION)"' $(CFLAGS) $(SANITIZE) -c -o $@ $<

$(BUILD)/lib/%.o: lib/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(EV_CXXFLAGS) $(CXXFLAGS) $(SANITIZE) -fopenmp -c -o $@ $<

$(BUILD)/libevkit.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/cmd/%.o: cmd/%.c $(LIB_H)
	@mkdir -p $(@D)
	$(CC) $(EV_CFLAGS) $(CFLAGS) $(SANITIZE) -c -o $@ $<

$(BIN)/%: $(BUILD)/cmd/%.o $(BUILD)/libevkit.a $(EXTLIB_FILES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $< $(OBJS_$*) $(LDLIBS_ALL) $(LDLIBS_$*)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libevkit.a
	@mkdir -p $(@D)
	$(CC) $(EV_CFLAGS) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $< $(OBJS_$*) -lcriterion $(LDLIBS_TEST) $(LDLIBS_$*)

unit: $(TEST_BIN)
	@scripts/run-unit-tests.sh $(TEST_BIN)

golden: all
	@tests/cmd/run.sh $(BIN)

layers:
	@scripts/check-layers.sh

# Each command's man page against its option table (lib/cli/opt.h).
man-options: all
	@tests/man-options.sh $(BIN)

# Every command over the hostile inputs, and kill -9 / concurrent writers /
# write errors; with SANITIZE set (make asan) the runners fail on any
# sanitizer report.
hostile: all
	@tests/hostile/run.sh $(BIN)

crash: all
	@tests/crash/run.sh $(BIN)

# The Nth allocation fails, for N over every allocation of 9 scenarios
# (ALLOC_STEPS runs each); not under ASan, which replaces malloc itself.
alloc: all
	@tests/alloc/run.sh $(BIN)

# make demo under valgrind memcheck.
valgrind: all
	@scripts/valgrind.sh $(BIN)

reliability: hostile crash alloc valgrind

test: layers unit golden man-options hostile crash

check: deps
	$(MAKE) all
	$(MAKE) test

demo: deps
	$(MAKE) all
	@scripts/demo.sh $(BIN)

# Quality on the seven test collections beside the repository (../shared/data),
# with the shipped defaults; says where to put them when they are absent.
eval: all
	@scripts/eval.sh $(BIN)

# What each of the text lane's additions over plain BM25 does on each of them.
eval-ablation: all
	@scripts/eval-ablation.sh $(BIN)

# The measured defaults chosen again on six collections, scored on the seventh.
eval-loo: all
	@scripts/eval-loo.sh $(BIN)

# The fusion weights each store's own calibration chooses beside those
# ev-tune fits to the judgements (cross-validated), and what each scores.
eval-tune: all
	@scripts/eval-tune.sh $(BIN)

# The defaults on three collections none of them was chosen on: one of the
# seven's queries over its documents and another's.
eval-mix: all
	@scripts/eval-mix.sh $(BIN)

# The text lane on the manual pages Debian ships in five languages (skipped
# without manpages-fr, manpages-de, manpages-ja and manpages-zh).
eval-lang: all
	@scripts/eval-lang.sh $(BIN)

bench: all
	@scripts/bench.sh $(BIN)

# The late-interaction lane alone (make bench runs it at 1,000 pages): 10,000 pages x
# 1,024 vectors x 128 dimensions against numpy; PAGES=... VECS=... to shrink.
.PHONY: bench-maxsim
bench-maxsim: all
	@sh scripts/bench-maxsim.sh $(BIN)

# One machine, DOCS documents (default 1,000,000; DOCS=100000 for a trial):
# every stage timed, with the targets and the peers of the same run.
bench-scale: all
	@scripts/bench-scale.sh $(BIN)

# (after all: the tests of scripts/ev-hybrid run it from the checkout, with bin/)
# A sanitized binary runs two to three times slower: the hostile suite's
# limit for a hang is three times its own there.
asan: all
	HOSTILE_TIMEOUT=$${HOSTILE_TIMEOUT:-90} $(MAKE) BUILD=build-asan BIN=build-asan/bin OPT=-O1 \
		SANITIZE='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined' test

# libFuzzer targets (clang) for the JSON Lines reader, the chunker, the text
# lane's query handling and the config reader, FUZZ_SECONDS (default 60) each.
fuzz:
	@scripts/fuzz.sh

# the commands that are shell scripts, installed beside the others
SCRIPT_COMMANDS = ev-hybrid ev-shard

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	install -m 755 $(COMMANDS:%=$(BIN)/%) $(DESTDIR)$(BINDIR)
	install -m 755 $(SCRIPT_COMMANDS:%=scripts/%) $(DESTDIR)$(BINDIR)
	install -d $(DESTDIR)$(PREFIX)/lib/evkit
	install -m 644 $(BIN)/evkit_fts5.so $(DESTDIR)$(PREFIX)/lib/evkit
	install -m 644 $(wildcard man/*.1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(wildcard man/*.7) $(DESTDIR)$(MANDIR)/man7

uninstall:
	rm -f $(COMMANDS:%=$(DESTDIR)$(BINDIR)/%) $(SCRIPT_COMMANDS:%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(DESTDIR)$(PREFIX)/lib/evkit/evkit_fts5.so

clean:
	rm -rf build build-asan build-fuzz bin
