# dnnmem.h: build, test, demo, benchmarks, fuzzing and installation.
#   make          the tool (build/dnnmem) and the examples
#   make test     everything under ASan+UBSan, compile checks, fuzz regressions;
#                 ends with "N passed, M failed"
#   make demo     plans a bundled real model with every strategy (and an SVG)
#   make bench    quality and speed tables over tests/data and ../shared/data
#                 (exact planning side by side with build/minimalloc if built)
#   make minimalloc MINIMALLOC_SRC=DIR  google/minimalloc's solver for make bench
#   make tflm TFLM=DIR  the TensorFlow Lite Micro drop-in planner against a
#                 tensorflow/tflite-micro checkout: its planner tests, its
#                 models side by side with its GreedyMemoryPlanner
#   make fuzz     libFuzzer on every target (FUZZ_SECONDS each, clang)
#   make coverage line and branch coverage of dnnmem.h per part (gcov; with
#                 lcov also build/coverage/index.html)
#   make mutate   a mutation run over the implementation (MUTANTS mutants
#                 drawn by MUTATE_SEED); ends "mutation score: K/M"
#   make install    the header, the tool and dnnmem.pc under $(DESTDIR)$(PREFIX)
#   make uninstall  removes them again
#   make clean

CC      ?= cc
CXX     ?= c++
CLANG   := $(shell command -v clang 2>/dev/null)
BUILD   := build
WARN    := -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror
SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# the sanitized builds also guard the scratch (dnnmem.h part 1: an overrun
# inside one scratch block, which ASan cannot see, fails an assertion)
GUARD   := -DDNNMEM_SCRATCH_GUARD
# -g for the sanitizers' reports (file:line), without gcc's tracking of
# variables, which took a quarter of every sanitized compile of the header
SAN_G   := -g $(shell $(CC) -Werror -fno-var-tracking -x c -c /dev/null -o /dev/null 2>/dev/null && echo -fno-var-tracking)
FUZZ_SECONDS ?= 60
STB     := /usr/include/stb/stb_ds.h

TEST_SRC  := $(wildcard tests/test_*.c)
BENCH_SRC := $(wildcard tests/bench_*.c)
FUZZ_SRC  := $(wildcard fuzz/fuzz_*.c)
EX_SRC    := $(filter-out examples/dnnmem.c,$(wildcard examples/*.c))

TESTS     := $(TEST_SRC:tests/%.c=$(BUILD)/%)
# the files with cases for the plain -O2 build (tests/test.h's RUN_PLAIN):
# those cases alone, linked with the tool's archive (build/o2), no sanitizers
PLAIN_SRC := $(shell grep -lw RUN_PLAIN $(TEST_SRC) 2>/dev/null)
TESTS_PLAIN := $(PLAIN_SRC:tests/%.c=$(BUILD)/plain/%)
BENCHES   := $(BENCH_SRC:tests/%.c=$(BUILD)/%)
FUZZ_RUN  := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_LIB  := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/libfuzzer/%)
EXAMPLES  := $(EX_SRC:examples/%.c=$(BUILD)/example_%)

# make test compiles the implementation once per flavour (tests/impl.c into
# build/san/libdnnmem.a: gcc, ASan+UBSan; build/libfuzzer/libdnnmem.a: clang,
# libFuzzer instrumentation) and links every test, fuzz target and the
# sanitized tool against it. Their files still define DNNMEM_IMPLEMENTATION
# (each builds alone: make coverage, fuzz/build.sh); they are compiled with
# -DDNNMEM__IMPLEMENTATION_DONE, the header's guard, so that the define emits
# nothing. A file that uses private dnnmem__ / DNNMEM__ names or defines a
# DNNMEM_ macro other than DNNMEM_IMPLEMENTATION (a configuration such as
# DNNMEM_LABEL_FACTOR_BITS) keeps its own copy; the linker then leaves the
# archive out. Nothing to register: new files are sorted by their text.
SAN_LIB   := $(BUILD)/san/libdnnmem.a
LF_LIB    := $(BUILD)/libfuzzer/libdnnmem.a
O2_LIB    := $(BUILD)/o2/libdnnmem.a
HEADERS   := dnnmem.h tests/test.h tests/ref.h tests/remat_state.h fuzz/fuzz.h examples/dnnmem_files.h
# (comments aside: a private name in a comment does not count)
own_impl   = $(shell (perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' $(1) 2>/dev/null || cat $(1)) | \
               sed '/define[[:space:]]*DNNMEM_IMPLEMENTATION/d' | grep -cE 'dnnmem__|DNNMEM__|(define|undef)[[:space:]]+DNNMEM_')
skip_impl  = $(if $(filter 0,$(call own_impl,$(1))),-DDNNMEM__IMPLEMENTATION_DONE)
# A test's own copy is private (DNNMEM_STATIC): the compiler then drops the
# functions the test never reaches instead of instrumenting all 24k lines
# (gcc -O1 with ASan+UBSan: test_flow 46 -> 7 s of CPU). gcc keeps unused
# static functions at -O0, so the 32-bit own copies are built at -Og (test_flow
# 20 -> 3 s; -O1 took more than -O0 for the copies that reach most of remat).
impl_flags = $(if $(filter 0,$(call own_impl,$(1))),-DDNNMEM__IMPLEMENTATION_DONE,-DDNNMEM_STATIC)
SAN_OBJ   := $(TEST_SRC:%.c=$(BUILD)/obj/san/%.o) $(FUZZ_SRC:%.c=$(BUILD)/obj/san/%.o) \
             $(BUILD)/obj/san/fuzz/driver.o $(BUILD)/obj/san/examples/dnnmem.o
LF_OBJ    := $(FUZZ_SRC:%.c=$(BUILD)/obj/libfuzzer/%.o)
# The unit tests once more as a 32-bit build (a 32-bit size_t, as on many
# embedded targets; SSE2 arithmetic, x87's is refused; UBSan; -O0: a quarter
# of -O1's compile time), when gcc can build for it (Debian: gcc-multilib);
# skipped with a message otherwise. Its tests skip the long cases
# (TEST_SKIP_LONG: tests/test.h's RUN_LONG), which the 64-bit build runs.
M32FLAGS  := -m32 -msse2 -mfpmath=sse -fsanitize=undefined -fno-sanitize-recover=all
M32       := $(shell printf 'int main(void){return 0;}' | $(CC) $(M32FLAGS) -x c - -o /dev/null 2>/dev/null && echo yes)
M32_LIB   := $(BUILD)/m32/libdnnmem.a
# A test that links the archive: its own code (the checks, tests/ref.h's
# oracles) at -O1, the library's at -O0 (the 16 such tests: 116 -> 72 s of CPU
# to run, 43 -> 34 s to compile)
M32_TEST_OPT ?= -O1 $(SAN_G)
TESTS32   := $(if $(M32),$(TEST_SRC:tests/%.c=$(BUILD)/m32/%))
M32_OBJ   := $(TEST_SRC:%.c=$(BUILD)/obj/m32/%.o)
.SECONDARY: $(SAN_OBJ) $(LF_OBJ) $(SAN_LIB) $(LF_LIB) $(M32_OBJ) $(M32_LIB) $(O2_LIB)
# Boost.Graph's max flow, for side-by-side timings in make bench when installed
BOOST     := $(wildcard /usr/include/boost/graph/boykov_kolmogorov_max_flow.hpp)
BENCH_CXX := $(if $(BOOST),$(if $(wildcard tests/bench_boost.cpp),$(BUILD)/bench_boost))
# 0.1.0's tool and placement timer (commit 5e321d1, from the git history
# when there is one), for placement's time against it in make bench
V010      := 5e321d1
BENCH_OLD := $(BUILD)/place_solve \
             $(if $(shell git cat-file -e $(V010) 2>/dev/null && echo yes),$(BUILD)/v0.1.0/dnnmem $(BUILD)/v0.1.0/place_solve)

.PHONY: all test demo bench fuzz coverage mutate clean stb install uninstall minimalloc tflm
.DELETE_ON_ERROR:

all: $(BUILD)/dnnmem $(EXAMPLES)

# stb_ds (Debian libstb-dev) for the tool, tests and drivers; installed when
# missing and we are root, otherwise we say what to install.
stb:
	@if [ ! -f $(STB) ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing libstb-dev (stb_ds)"; \
	    (apt-get install -y -qq libstb-dev >/dev/null 2>&1 || \
	     (apt-get update -qq >/dev/null && apt-get install -y -qq libstb-dev >/dev/null)) || exit 1; \
	  else \
	    echo "missing $(STB): install it with 'sudo apt-get install -y libstb-dev'"; exit 1; \
	  fi; \
	fi

# the tool and the examples link one -O2 build of the implementation
# (build/o2/libdnnmem.a, as SAN_LIB below): one compile of the header, not five
$(BUILD)/dnnmem: examples/dnnmem.c examples/dnnmem_files.h dnnmem.h $(O2_LIB) | stb
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -I. $(call skip_impl,$<) -o $@ $< $(O2_LIB) -lm

$(BUILD)/san/dnnmem: $(BUILD)/obj/san/examples/dnnmem.o $(SAN_LIB)
	$(CC) $(SAN) -o $@ $^ -lm

# the implementation once per flavour, and each file's object (see SAN_LIB)
$(BUILD)/san/impl.o: tests/impl.c dnnmem.h
	@mkdir -p $(@D)
	$(CC) $(WARN) $(SAN) $(GUARD) -O1 $(SAN_G) -I. -c -o $@ $<

# (at -O0 as the libFuzzer own copies below: clang's -O1 took 134 s of CPU
# here, -O0 18 s, and every target's short run gets twice the time; for long
# runs, make fuzz LF_OPT=-O1 BUILD=DIR: about twice the inputs a second)
LF_OPT  ?= -O0
# At -O0 (make test's short runs) the library's comparisons are not traced for
# libFuzzer: its callbacks and libFuzzer's bookkeeping of the features they
# make took most of a slow target's time (fuzz_plan_conflict: 91 inputs in
# 16 s, 414 without them and with run_tests.sh's -entropic=0); the harness's
# own comparisons (its decoding of the input) are still traced. A long run
# (LF_OPT=-O1, another BUILD) traces them all.
LF_COV  ?= $(if $(filter -O0,$(LF_OPT)),-fno-sanitize-coverage=trace-cmp)
$(BUILD)/libfuzzer/impl.o: tests/impl.c dnnmem.h
	@mkdir -p $(@D)
	$(CLANG) $(WARN) -fsanitize=fuzzer-no-link,address,undefined $(LF_COV) $(LF_OPT) -g -I. -c -o $@ $<

$(BUILD)/o2/impl.o: tests/impl.c dnnmem.h
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -I. -c -o $@ $<

$(BUILD)/m32/impl.o: tests/impl.c dnnmem.h
	@mkdir -p $(@D)
	$(CC) $(WARN) $(M32FLAGS) -O0 -g -I. -c -o $@ $<

%/libdnnmem.a: %/impl.o
	rm -f $@ && $(AR) rcs $@ $<

$(BUILD)/obj/san/%.o: %.c $(HEADERS) | stb
	@mkdir -p $(@D)
	$(CC) $(WARN) $(SAN) $(GUARD) -O1 $(SAN_G) -DTEST_SKIP_PLAIN -I. $(call impl_flags,$<) -c -o $@ $<

$(BUILD)/plain/test_%: tests/test_%.c $(HEADERS) $(O2_LIB) | stb
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -DTEST_PLAIN -I. $(call impl_flags,$<) -o $@ $< $(O2_LIB) -lm

$(BUILD)/obj/m32/%.o: %.c $(HEADERS) | stb
	@mkdir -p $(@D)
	$(CC) $(WARN) $(M32FLAGS) -DTEST_SKIP_LONG -DTEST_SKIP_PLAIN $(if $(call skip_impl,$<),$(M32_TEST_OPT),-Og $(SAN_G)) -I. $(call impl_flags,$<) -c -o $@ $<

$(BUILD)/m32/test_%: $(BUILD)/obj/m32/tests/test_%.o $(M32_LIB)
	$(CC) $(M32FLAGS) -o $@ $^ -lm

# A libFuzzer target with its own copy of the implementation at -O0, as the
# archive: clang's -O1 with these sanitizers took 75 s of CPU a copy, -O0 9 s;
# the short runs in make test get twice the time (LF_O0: run_tests.sh), as
# many inputs.
$(BUILD)/obj/libfuzzer/%.o: %.c $(HEADERS) | stb
	@mkdir -p $(@D)
	$(CLANG) $(WARN) -fsanitize=fuzzer-no-link,address,undefined $(if $(call skip_impl,$<),-O1,-O0 $(LF_COV)) -g -I. \
	  $(call impl_flags,$<) -c -o $@ $<

$(BUILD)/example_%: examples/%.c dnnmem.h $(O2_LIB) | stb
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -I. $(call skip_impl,$<) -o $@ $< $(O2_LIB) -lm

$(BUILD)/test_%: $(BUILD)/obj/san/tests/test_%.o $(SAN_LIB)
	$(CC) $(SAN) -o $@ $^ -lm

$(BUILD)/bench_%: tests/bench_%.c tests/ref.h examples/dnnmem_files.h dnnmem.h | stb
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -DNDEBUG -I. -o $@ $< -lm

$(BUILD)/bench_boost: tests/bench_boost.cpp
	@mkdir -p $(@D)
	$(CXX) -O2 -DNDEBUG -o $@ $<

$(BUILD)/v0.1.0/dnnmem: | stb
	@mkdir -p $(@D)/examples
	git show $(V010):dnnmem.h > $(@D)/dnnmem.h
	git show $(V010):examples/dnnmem.c > $(@D)/examples/dnnmem.c
	$(CC) -O2 -I$(@D) -o $@ $(@D)/examples/dnnmem.c -lm

$(BUILD)/place_solve: tests/place_solve.c dnnmem.h
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -DNDEBUG -I. -o $@ $< -lm

$(BUILD)/v0.1.0/place_solve: tests/place_solve.c $(BUILD)/v0.1.0/dnnmem
	$(CC) -std=c99 -O2 -DNDEBUG -I$(@D) -o $@ $< -lm

$(BUILD)/fuzz/fuzz_%: $(BUILD)/obj/san/fuzz/fuzz_%.o $(BUILD)/obj/san/fuzz/driver.o $(SAN_LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ -lm

$(BUILD)/libfuzzer/fuzz_%: $(BUILD)/obj/libfuzzer/fuzz/fuzz_%.o $(LF_LIB)
	$(CLANG) -fsanitize=fuzzer,address,undefined -o $@ $^ -lm

# The longest compiles first: the objects that hold the implementation, the
# longest first, named here (make -j starts prerequisites in this order, but
# a program whose archive is still being built waits with its object: listed
# as programs, the copies of the implementation came last), then the rest.
OWN_SRC := $(foreach f,$(TEST_SRC) $(FUZZ_SRC),$(if $(filter 0,$(call own_impl,$(f))),,$(f)))
LF_O0   := $(notdir $(basename $(if $(filter -O0,$(LF_OPT)),$(FUZZ_SRC),$(filter fuzz/%,$(OWN_SRC)))))
HEAVY   := $(if $(CLANG),$(BUILD)/libfuzzer/impl.o) $(BUILD)/san/impl.o $(OWN_SRC:%.c=$(BUILD)/obj/san/%.o) \
           $(BUILD)/o2/impl.o $(if $(M32),$(BUILD)/m32/impl.o $(patsubst %.c,$(BUILD)/obj/m32/%.o,$(filter tests/%,$(OWN_SRC)))) \
           $(if $(CLANG),$(patsubst %.c,$(BUILD)/obj/libfuzzer/%.o,$(filter fuzz/%,$(OWN_SRC))))
test: $(HEAVY) $(BUILD)/dnnmem $(BUILD)/san/dnnmem $(EXAMPLES) $(TESTS) \
      $(FUZZ_RUN) $(if $(CLANG),$(FUZZ_LIB)) $(TESTS32) $(TESTS_PLAIN) $(BUILD)/size_planner $(BUILD)/size_plan
	@$(if $(M32),,echo "no 32-bit build (gcc -m32 needs gcc-multilib): its unit tests skipped";) \
	BUILD=$(BUILD) CLANG=$(CLANG) M32=$(M32) LF_O0="$(LF_O0)" bash tests/run_tests.sh

# Embedded builds as an engine links them (-Os, unused functions dropped;
# run_tests.sh sums their dnnmem code size), tests/size_plan.c: the embedded
# planner (plan only, no exact search, no links: 20 KB), and the planner
# with shared objects and links (-DSIZE_PLANNER).
EMBEDDED  := $(CC) $(WARN) -Wconversion -Wsign-conversion -Os -ffunction-sections -fdata-sections -Wl,--gc-sections -I.
$(BUILD)/size_plan: tests/size_plan.c dnnmem.h
	@mkdir -p $(@D)
	$(EMBEDDED) -o $@ $<

$(BUILD)/size_planner: tests/size_plan.c dnnmem.h
	@mkdir -p $(@D)
	$(EMBEDDED) -DSIZE_PLANNER -o $@ $<

demo: $(BUILD)/dnnmem
	@bash examples/demo.sh $(BUILD)/dnnmem

bench: $(BUILD)/dnnmem $(BENCHES) $(BENCH_CXX) $(BENCH_OLD)
	@if [ -z "$(MINIMALLOC)" ]; then echo "minimalloc not built (make minimalloc MINIMALLOC_SRC=DIR): no side-by-side times"; fi
	@for b in $(BENCHES); do MINIMALLOC=$(MINIMALLOC) $$b || exit 1; echo; done

# google/minimalloc's command-line solver, timed side by side with the exact
# planner by make bench: MINIMALLOC_SRC is a source tree or git dir of
# github.com/google/minimalloc; built by ../shared/tools/build_minimalloc.sh
# (Debian's libabsl-dev). make bench uses $(MINIMALLOC) when it exists.
MINIMALLOC       ?= $(wildcard $(BUILD)/minimalloc)
BUILD_MINIMALLOC ?= ../shared/tools/build_minimalloc.sh
minimalloc:
	@if [ -z "$(MINIMALLOC_SRC)" ]; then echo "usage: make minimalloc MINIMALLOC_SRC=DIR (google/minimalloc sources or git dir)"; exit 1; fi
	@if [ ! -x "$(BUILD_MINIMALLOC)" ]; then echo "$(BUILD_MINIMALLOC): not found (set BUILD_MINIMALLOC)"; exit 1; fi
	$(BUILD_MINIMALLOC) $(MINIMALLOC_SRC) $(BUILD)/minimalloc

# examples/tflm_memory_planner.cc against a TensorFlow Lite Micro checkout
# (TFLM=DIR, the root holding tensorflow/lite/micro): (1) its own
# greedy_memory_planner_test.cc with the drop-in (greedy-tflm) as its
# tflite::GreedyMemoryPlanner (tests/tflm_greedy_shim.h), all but its two
# tests of its internals (its sort helper, and the scratch of 40 bytes its
# 36 bytes per buffer fit; ours take about 500), its scratch raised to
# 1 MiB; (2) tests/tflm_side_by_side.cc: the drop-in next to its planner
# built from its source, on random buffer sets and on every .tflite of the
# checkout (buffers by examples/tflite_to_graph.py): greedy-tflm's offsets
# identical, best valid and never larger. Skipped without TFLM.
TFLM      ?=
TFLM_CXX  := $(CXX) -std=c++17 -O1 -g -Wall -Wextra -Werror -DTF_LITE_STATIC_MEMORY -I. -isystem $(TFLM)
TFLM_MP   := $(TFLM)/tensorflow/lite/micro/memory_planner
TFLM_SUPPORT := micro_log debug_log system_setup
PYTHON    ?= python3
tflm:
	@if [ -z "$(TFLM)" ]; then echo "make tflm: skipped (give TFLM=DIR, a tensorflow/tflite-micro checkout)"; exit 0; fi; \
	if [ ! -f "$(TFLM_MP)/greedy_memory_planner_test.cc" ]; then \
	  echo "make tflm: $(TFLM) is not a TensorFlow Lite Micro checkout (no $(TFLM_MP)/greedy_memory_planner_test.cc)"; exit 1; fi; \
	set -e; mkdir -p $(BUILD)/tflm/models; \
	for f in $(TFLM_SUPPORT); do $(TFLM_CXX) -w -c $(TFLM)/tensorflow/lite/micro/$$f.cc -o $(BUILD)/tflm/$$f.o; done; \
	sed -e '/^TEST(GreedyMemoryPlannerTest, TestReverseSortInPlace)/,/^}/d' \
	    -e '/^TEST(GreedyMemoryPlannerTest, TestSmallScratch)/,/^}/d' -e '/^void ReverseSortInPlace/d' \
	    -e 's/constexpr int kScratchBufferSize = 4096;/constexpr int kScratchBufferSize = 1 << 20;/' \
	    $(TFLM_MP)/greedy_memory_planner_test.cc >$(BUILD)/tflm/greedy_memory_planner_test.cc; \
	echo "== its greedy_memory_planner_test.cc, $$(grep -c '^TEST(' $(BUILD)/tflm/greedy_memory_planner_test.cc) tests, with the drop-in (greedy-tflm)"; \
	$(TFLM_CXX) -Wno-unused-parameter -include tests/tflm_greedy_shim.h $(BUILD)/tflm/greedy_memory_planner_test.cc \
	  $(TFLM_SUPPORT:%=$(BUILD)/tflm/%.o) -o $(BUILD)/tflm/greedy_test; \
	$(BUILD)/tflm/greedy_test >$(BUILD)/tflm/greedy_test.log 2>&1 || { cat $(BUILD)/tflm/greedy_test.log; exit 1; }; \
	grep -E '^\[ *(OK|FAILED|PASSED) *\]' $(BUILD)/tflm/greedy_test.log; \
	rm -f $(BUILD)/tflm/models/*.csv; models=0; \
	if command -v $(PYTHON) >/dev/null; then \
	  for m in $$(find $(TFLM) -name '*.tflite' | sort); do \
	    out=$(BUILD)/tflm/models/$$(echo "$${m#$(TFLM)/}" | tr / _ | sed 's/\.tflite$$/.csv/'); \
	    $(PYTHON) examples/tflite_to_graph.py -o $$out $$m; models=$$((models + 1)); done; \
	else echo "no $(PYTHON): its models not converted, random cases only"; fi; \
	echo "== the drop-in next to its GreedyMemoryPlanner: random cases and $$models models"; \
	$(TFLM_CXX) tests/tflm_side_by_side.cc $(TFLM_MP)/greedy_memory_planner.cc \
	  $(TFLM_SUPPORT:%=$(BUILD)/tflm/%.o) -o $(BUILD)/tflm/side_by_side; \
	$(BUILD)/tflm/side_by_side $(BUILD)/tflm/models/*.csv | grep -v '^dnnmem planner\|^[0-9]*: size='

# make fuzz: each target FUZZ_SECONDS in FUZZ_JOBS parallel processes
# (libFuzzer's fork mode, which restarts workers and spreads the corpus
# itself) from a copy of its corpus, with its dictionary (fuzz/dict/PART.dict
# or the "Dictionaries:" its source names, as fuzz/build.sh) and input length
# (its source's "Max length:", else 512); then the inputs that reach new
# coverage are merged back into fuzz/corpus (-merge=1), so the committed
# corpus grows with every long run. A finding stops that target (its input
# in build/findings/), is merged like the rest, and fails make fuzz at the end.
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
fuzz: $(if $(CLANG),$(FUZZ_LIB),$(FUZZ_RUN))
	@if [ -z "$(CLANG)" ]; then echo "clang not found: running the plain drivers instead"; fi
	@if [ -n "$(CLANG)" ] && [ "$(LF_OPT)" = "-O0" ]; then echo "targets built at -O0 (make test's), the library's" \
	  "comparisons untraced: for long runs, make fuzz LF_OPT=-O1 BUILD=build-fuzz runs about twice the inputs a second" \
	  "and traces them"; fi
	@failed=; mkdir -p $(BUILD)/findings; \
	for t in $(FUZZ_SRC:fuzz/%.c=%); do \
	  part=$${t#fuzz_}; work=$(BUILD)/corpus/$$part; \
	  mkdir -p $$work fuzz/corpus/$$part; cp -r fuzz/corpus/$$part/. $$work/; \
	  max_len=$$(sed -n 's/^ *Max length: \([0-9]*\).*/\1/p' fuzz/$$t.c | head -1); max_len=$${max_len:-512}; \
	  if [ -n "$(CLANG)" ]; then \
	    dicts=$$(sed -n 's/^ *Dictionaries: //p' fuzz/$$t.c | head -1); \
	    [ -z "$$dicts" ] && [ -f fuzz/dict/$$part.dict ] && dicts=fuzz/dict/$$part.dict; \
	    dict=; if [ -n "$$dicts" ]; then cat $$dicts >$(BUILD)/corpus/$$t.dict; dict=-dict=$(BUILD)/corpus/$$t.dict; fi; \
	    echo "== $$t: $(FUZZ_SECONDS) s, $(FUZZ_JOBS) jobs, max_len $$max_len$${dicts:+, $$dicts}"; \
	    $(BUILD)/libfuzzer/$$t -fork=$(FUZZ_JOBS) -max_total_time=$(FUZZ_SECONDS) -max_len=$$max_len \
	      -artifact_prefix=$(BUILD)/findings/$$t- -print_final_stats=1 $$dict $$work || failed="$$failed $$t"; \
	    before=$$(ls fuzz/corpus/$$part | wc -l); \
	    $(BUILD)/libfuzzer/$$t -merge=1 -max_len=$$max_len fuzz/corpus/$$part $$work >/dev/null 2>&1 || failed="$$failed $$t(merge)"; \
	    echo "$$t: corpus $$before -> $$(ls fuzz/corpus/$$part | wc -l) inputs"; \
	  else \
	    $(BUILD)/fuzz/$$t -runs=200000 -max_len=$$max_len $$work || failed="$$failed $$t"; \
	  fi; \
	done; \
	if [ -n "$$failed" ]; then echo "make fuzz: findings in$$failed (inputs: $(BUILD)/findings/)"; exit 1; fi

# Coverage: the suite built with gcov at -O0 (tests/coverage.sh); lcov, for
# the HTML report, is installed like stb_ds when missing and we are root.
# The examples as make builds them (cli_demo.sh runs example_engine).
coverage: $(EXAMPLES) | stb
	@if ! command -v genhtml >/dev/null && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing lcov (HTML report)"; \
	  apt-get install -y -qq lcov >/dev/null 2>&1 || \
	  (apt-get update -qq >/dev/null && apt-get install -y -qq lcov >/dev/null 2>&1) || true; \
	fi
	@BUILD=$(BUILD) bash tests/coverage.sh

# Mutation testing (tests/mutate.py): MUTANTS mutants spread over the
# implementation by MUTATE_SEED (an operator, a constant, a return code, a
# condition or a break changed each), each built once and run against the
# unit test cases that execute its line (gcov per case, cached in
# $(BUILD)/mutate), survivors once more under ASan+UBSan; equivalent ones
# listed in tests/mutants_equivalent.txt. CPU heavy (about 15 s a killed
# mutant, a few minutes a survivor; the first run also takes the coverage):
# not part of make test. MUTATE_JOBS mutants at once.
MUTANTS     ?= 100
MUTATE_SEED ?= 1
MUTATE_JOBS ?= 1
mutate: | stb
	@BUILD=$(BUILD) nice python3 tests/mutate.py -n $(MUTANTS) --seed $(MUTATE_SEED) -j $(MUTATE_JOBS)

# Installation: the header, the tool, and a pkg-config file so that
# `pkg-config --cflags dnnmem` finds the header.
PREFIX     ?= /usr/local
INCLUDEDIR := $(PREFIX)/include
BINDIR     := $(PREFIX)/bin
PCDIR      := $(PREFIX)/lib/pkgconfig
VERSION    := $(shell sed -n 's/^\#define DNNMEM_VERSION_STRING "\(.*\)"/\1/p' dnnmem.h)

# The .pc file is written at install time: it records the PREFIX it was installed with.
install: $(BUILD)/dnnmem
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(PCDIR)
	install -m 644 dnnmem.h $(DESTDIR)$(INCLUDEDIR)/dnnmem.h
	install -m 755 $(BUILD)/dnnmem $(DESTDIR)$(BINDIR)/dnnmem
	printf 'prefix=%s\nincludedir=$${prefix}/include\n\nName: dnnmem\nDescription: %s\nVersion: %s\nCflags: -I$${includedir}\n' \
	  '$(PREFIX)' 'memory and placement planning for deep-learning compilers and runtimes (header-only C)' \
	  '$(VERSION)' >$(DESTDIR)$(PCDIR)/dnnmem.pc
	chmod 644 $(DESTDIR)$(PCDIR)/dnnmem.pc

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/dnnmem.h $(DESTDIR)$(BINDIR)/dnnmem $(DESTDIR)$(PCDIR)/dnnmem.pc

clean:
	rm -rf $(BUILD)
