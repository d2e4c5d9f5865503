#!/usr/bin/env bash
# make coverage: the unit tests, the fuzz targets (plain driver over their
# corpora) and the tool built with gcov instrumentation (-O0), the suite run
# as make test runs it (without sanitizers and libFuzzer), then line and
# branch coverage of dnnmem.h per part (tests/coverage.py) and, when lcov is
# installed, an HTML report in build/coverage/index.html.
set -u
B=${BUILD:-build}
COV="$B/cov"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# NDEBUG: assertions are not branches to cover. always_inline dropped:
# gcov counts an inlined function's branches once per call site it is
# inlined into (dnnmem__label_node_cost: 32 copies, 128 "branches" for one
# `&&`), and per-program copy counts differ, so (line, index) would not name
# one source branch; -O0 inlines nothing else, so each branch counts once.
CFLAGS_COV="-std=c99 -O0 -g --coverage -DNDEBUG -Dalways_inline= -I."
rm -rf "$COV" && mkdir -p "$COV/fuzz" || exit 1

# build: one line per program for xargs (name, then sources)
{
  for t in tests/test_*.c; do echo "$COV/$(basename "$t" .c) $t"; done
  for t in fuzz/fuzz_*.c; do echo "$COV/fuzz/$(basename "$t" .c) $t fuzz/driver.c"; done
  echo "$COV/dnnmem examples/dnnmem.c"
} | xargs -P "$JOBS" -L 1 sh -c 'out=$0; '"${GCC:-gcc} $CFLAGS_COV"' -o "$out" "$@" -lm || exit 255' || exit 1

# run: a failing test still counts its coverage; the suite's verdict is make test's
for src in tests/test_*.c; do
  t="$COV/$(basename "$src" .c)"
  "$t" >/dev/null 2>&1 || echo "coverage: $(basename "$t") failed (see make test)"
done
for src in fuzz/fuzz_*.c; do
  t="$COV/fuzz/$(basename "$src" .c)"
  corpus=fuzz/corpus/$(basename "$src" .c | sed 's/^fuzz_//')
  "$t" -runs=3000 -max_len=512 "$corpus" >/dev/null 2>&1 || echo "coverage: $(basename "$t") failed"
done
for s in tests/cli_*.sh; do
  [ "$s" = tests/cli_lib.sh ] && continue
  DNNMEM="$COV/dnnmem" bash "$s" >/dev/null 2>&1 || echo "coverage: $s failed"
done

# report
if command -v lcov >/dev/null && command -v genhtml >/dev/null; then
  lcov --quiet --capture --directory "$COV" --rc lcov_branch_coverage=1 --output-file "$COV/all.info" 2>/dev/null &&
    lcov --quiet --extract "$COV/all.info" '*/dnnmem.h' --rc lcov_branch_coverage=1 --output-file "$COV/dnnmem.info" 2>/dev/null &&
    genhtml --quiet --branch-coverage --output-directory "$B/coverage" "$COV/dnnmem.info" >/dev/null 2>&1 &&
    echo "HTML report: $B/coverage/index.html"
else
  echo "(lcov not installed: no HTML report; apt-get install lcov)"
fi
python3 tests/coverage.py dnnmem.h "$COV"
