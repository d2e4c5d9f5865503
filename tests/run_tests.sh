#!/usr/bin/env bash
# Runs every test of dnnmem.h (make test builds the binaries first) and ends
# with one line "N passed, M failed". Exit status 0 only when M is 0.
#
# Every check is a job: TEST_JOBS of them (default: the number of cores) run
# at once, each in its own temporary folder, and their reports are printed
# in the order of the sections below, whatever order they finished in:
#   1. unit and property tests      2. compile checks
#   3. fuzz targets as plain programs over their corpora
#   4. short libFuzzer runs (clang)  5. command-line tests
# `bash tests/run_tests.sh --job SECTION NUMBER KIND [ARG]` runs one job
# (what the pool calls): its report goes to $R/SECTION.NUMBER.out, its
# counts ("pass fail") to $R/SECTION.NUMBER.n.
set -u
B=${BUILD:-build}
CLANG=${CLANG:-}
export BUILD=$B CLANG

# ---------------------------------------------------------------- one job --
if [ "${1:-}" = --job ]; then
kind=$4 arg=${5:-}
exec >"$R/$2.$3.out" 2>&1
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# summary SUITE-OUTPUT: adds a "SUITE: N passed, M failed" line's counts
summary() {
  line=$(grep -E '^[A-Za-z0-9_]+: [0-9]+ passed, [0-9]+ failed$' "$1" | tail -1)
  [ -n "$line" ] || return 1
  p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
  pass=$((pass + p)); fail=$((fail + f))
  echo "$line"
}
case $kind in

# 1. unit and property tests: each prints "SUITE: N passed, M failed"
unit)
  t=$arg
  case $t in */m32/*) echo "32-bit build:" ;; */plain/*) echo "plain -O2 build:" ;; esac
  "$t" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if ! summary "$tmp/out"; then
    bad "$(basename "$t") (no summary, exit $rc)"; tail -20 "$tmp/err"
  else
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then fail=$((fail + 1)); echo "FAIL $(basename "$t") exit $rc"; fi
    [ "$f" -eq 0 ] || tail -30 "$tmp/err"
  fi
  ;;

# 2. compile checks: C++ (g++, clang++), C99 warnings with gcc and clang,
#    DNNMEM_STATIC in two translation units linked together
cpp)
  cxx=$arg
  if $cxx -x c++ -Wall -Wextra -Wconversion -Wsign-conversion -Werror -I. -c tests/compile_cpp.cpp -o "$tmp/cpp.o" 2>"$tmp/err"; then ok "compile as C++ ($cxx)"; else bad "compile as C++ ($cxx)"; head -20 "$tmp/err"; fi
  ;;
tour_cpp)
  # the tour's examples are what C++ users copy first (C++20: designated
  # initializers; missing fields are zero, as in C)
  cxx=$arg
  if $cxx -x c++ -std=c++20 -Wall -Wextra -Wno-missing-field-initializers -Werror -I. -Itests tests/test_tour.c \
      -o "$tmp/tour_cpp" 2>"$tmp/err" && "$tmp/tour_cpp" >/dev/null; then ok "tour as C++ ($cxx)"
  else bad "tour as C++ ($cxx)"; head -20 "$tmp/err"; fi
  ;;
static)
  cc=$arg
  if $cc -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wconversion -Wsign-conversion -Werror -I. \
       -c tests/compile_static.c -o "$tmp/s.o" 2>"$tmp/err" &&
     $cc -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror -DDNNMEM_STATIC_SECOND -I. tests/compile_static.c "$tmp/s.o" -o "$tmp/s" -lm 2>>"$tmp/err" && "$tmp/s"; then
    ok "DNNMEM_STATIC twice, C99 warnings with -Wconversion ($cc)"
  else
    bad "DNNMEM_STATIC twice, C99 warnings with -Wconversion ($cc)"; head -20 "$tmp/err"
  fi
  ;;

# compile-time opt-outs: every combination of the optional parts that
# honours their dependencies (cover, remat and label need flow, place needs
# label) compiles warning-free with the implementation
optouts)
  for exact in "" -DDNNMEM_NO_EXACT; do
    for mask in $(seq 0 63); do
      flags=$exact
      [ $((mask & 1)) -ne 0 ] && flags="$flags -DDNNMEM_NO_COVER"
      [ $((mask & 2)) -ne 0 ] && flags="$flags -DDNNMEM_NO_REMAT"
      [ $((mask & 4)) -ne 0 ] && flags="$flags -DDNNMEM_NO_LAYOUT"
      [ $((mask & 8)) -ne 0 ] && flags="$flags -DDNNMEM_NO_PLACE"
      if [ $((mask & 32)) -ne 0 ]; then
        [ $((mask & 8)) -ne 0 ] || continue # label out only with place
        flags="$flags -DDNNMEM_NO_LABEL"
      fi
      if [ $((mask & 16)) -ne 0 ]; then
        [ $((mask & 43)) -eq 43 ] || continue # flow out only with its users
        flags="$flags -DDNNMEM_NO_FLOW"
      fi
      echo "$flags"
    done
  done >"$tmp/optouts"
  # one macro alone (checked below)
  optout_one=("-DDNNMEM_NO_FLOW:flow|cover|remat|label|place" "-DDNNMEM_NO_LABEL:label|place"
              "-DDNNMEM_ONLY_PLAN:flow|cover|remat|label|place|layout")
  # -Wmisleading-indentation took 1.7 of a check's 2.0 s of CPU, and it reads only the text of
  # function bodies: it runs on the sets "full" names (none out, exact out alone, all out),
  # while every run of three lines inside function bodies that any set compiles (gcc -E) is one
  # of theirs; otherwise every set runs it again. (DNNMEM_NO_EXACT is the only opt-out inside
  # a function body.)
  { head -1 "$tmp/optouts"; echo "-DDNNMEM_NO_EXACT"; tail -1 "$tmp/optouts"; } >"$tmp/full"
  body_runs() { # the runs of three consecutive compiled lines of dnnmem.h, all inside a body
    # shellcheck disable=SC2086
    gcc -std=c99 -E -x c -DDNNMEM_IMPLEMENTATION $1 dnnmem.h |
      awk 'NR == FNR { body[FNR] = /^[ \t]/; next }
           /^# [0-9]+ "/ { n = $2; f = $3; next }
           { if (f == "\"dnnmem.h\"" && NF) { if (body[a] && body[b] && body[n]) print a, b, n; a = b; b = n }; n++ }' \
        dnnmem.h -
  }
  while read -r flags; do body_runs "$flags"; done <"$tmp/full" | sort -u >"$tmp/runs_full"
  for flags in "${optout_one[@]%%:*}"; do echo "$flags"; done | cat "$tmp/optouts" - |
    while read -r flags; do body_runs "$flags"; done | sort -u >"$tmp/runs_all"
  indent=-Wno-misleading-indentation
  if [ ! -s "$tmp/runs_full" ] || comm -13 "$tmp/runs_full" "$tmp/runs_all" | grep -q .; then
    indent=; echo "  (lines outside the three full sets: -Wmisleading-indentation on every set)"
  fi
  optout_bad=0
  while read -r flags; do
    w=$indent
    grep -qxF -- "$flags" "$tmp/full" && w=
    # shellcheck disable=SC2086
    if ! gcc -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror $w -fsyntax-only -x c \
        -DDNNMEM_IMPLEMENTATION $flags dnnmem.h 2>"$tmp/err"; then
      optout_bad=1; echo "  with$flags:"; head -5 "$tmp/err"
    fi
  done <"$tmp/optouts"
  if [ $optout_bad -eq 0 ]; then ok "opt-outs: $(wc -l <"$tmp/optouts") combinations compile"; else bad "opt-outs"; fi
  # a part whose dependency is out drops out with it: one macro suffices
  optout_bad=0
  for case in "${optout_one[@]}"; do
    flags=${case%%:*} gone=${case#*:}
    # shellcheck disable=SC2086
    if ! gcc -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Werror $indent -c -o "$tmp/one.o" -x c \
        -DDNNMEM_IMPLEMENTATION $flags dnnmem.h 2>"$tmp/err"; then
      optout_bad=1; echo "  with $flags:"; head -5 "$tmp/err"
    elif nm "$tmp/one.o" | grep -qE " T dnnmem_($gone)_" || ! nm "$tmp/one.o" | grep -q " T dnnmem_plan_solve$"; then
      optout_bad=1; echo "  with $flags: the parts built are not the ones left"
    fi
  done
  if [ $optout_bad -eq 0 ]; then ok "opt-outs: DNNMEM_NO_FLOW, _NO_LABEL, _ONLY_PLAN alone take their dependents out"
  else bad "opt-outs: one macro alone"; fi
  ;;

# the same answers from a 32-bit build of the tool (SSE2 arithmetic) as
# from the 64-bit one: annealing, bounds, exact plans, labeling (outputs
# without the fields that time the run)
same32)
  if ! gcc -std=c99 -O1 -m32 -msse2 -mfpmath=sse -I. -o "$tmp/dnnmem32" examples/dnnmem.c -lm 2>"$tmp/err"; then
    bad "32-bit tool builds"; head -5 "$tmp/err"
  else
    untimed() { sed -E 's/"(time_ms|moves_per_second|bound_ms)": [0-9.e+-]+//g'; }
    while read -r args; do
      # shellcheck disable=SC2086 # a word list
      if a=$("$B/dnnmem" $args | untimed) && b=$("$tmp/dnnmem32" $args | untimed) && [ -n "$a" ] && [ "$a" = "$b" ]; then
        ok "32-bit tool, same answer: $args"
      else
        bad "32-bit tool, same answer: $args"; diff <(echo "$a") <(echo "$b") | head -6
      fi
    done <<'EOF2'
remat --budget-ratio 0.6 --iterations 20000 --seed 3 --bound --json tests/data/resnet18.train.graph.csv
remat --points 5 --iterations 10000 --json tests/data/mobilenet_v2.train.graph.csv
plan --algo exact --nodes 200000 --json tests/data/resnet18.train.intervals.csv
plan --symbol S=64..2048 --json tests/data/gpt_mini.symbolic.csv
place --devices cpu,gpu,npu --json tests/data/place3.graph.csv
layoutplan --candidates tests/data/gpt_mini.layouts.txt --json tests/data/gpt_mini.graph.csv
EOF2
  fi
  ;;

# the embedded builds of tests/size_plan.c fit their budgets (dnnmem code
# at -Os): the planner with shared objects and links (SIZE_PLANNER), and the
# embedded planner (TFLite Micro's yardstick); nothing writable: the name
# tables are read-only (flash on a microcontroller)
size)
  for build in "size_planner 32000 planner with shared objects and links" "size_plan 20480 embedded planner"; do
    read -r bin budget name <<<"$build"
    if [ -x "$B/$bin" ] && "$B/$bin"; then
      size=$(nm -S "$B/$bin" | awk '$3 ~ /^[tT]$/ && $4 ~ /^dnnmem/ {print $2}' |
             (s=0; while read -r h; do s=$((s + 0x$h)); done; echo $s))
      if [ "$size" -gt 0 ] && [ "$size" -le "$budget" ]; then ok "$name: $size bytes of code (<= $budget)"
      else bad "$name: $size bytes of code (> $budget)"; fi
      data=$(nm "$B/$bin" | awk '$2 ~ /^[dDbB]$/ && $3 ~ /^dnnmem/ {print $3}')
      if [ -z "$data" ]; then ok "$name: no writable static data"
      else bad "$name: writable static data: $data"; fi
    else
      bad "$name: build/$bin missing or failed"
    fi
  done
  ;;

# make install into a staging folder; pkg-config finds the header there
install)
  if env -u MAKEFLAGS -u MFLAGS make -s install DESTDIR="$tmp/stage" PREFIX=/opt/dnnmem >"$tmp/out" 2>&1 &&
     [ -f "$tmp/stage/opt/dnnmem/include/dnnmem.h" ] && [ -x "$tmp/stage/opt/dnnmem/bin/dnnmem" ] &&
     { ! command -v pkg-config >/dev/null ||
       [ "$(PKG_CONFIG_PATH="$tmp/stage/opt/dnnmem/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp/stage" \
            pkg-config --cflags dnnmem | sed 's/ *$//')" = "-I$tmp/stage/opt/dnnmem/include" ]; }; then
    ok "make install (DESTDIR, PREFIX)$(command -v pkg-config >/dev/null && echo ", pkg-config --cflags")"
  else
    bad "make install"; tail -5 "$tmp/out"
  fi
  ;;

# 3. fuzz targets as plain programs: corpus plus generated inputs
regression)
  t=$arg
  name=$(basename "$t")
  corpus=fuzz/corpus/${name#fuzz_}
  args=()
  [ -d "$corpus" ] && args+=("$corpus")
  if "$t" -runs=3000 -max_len=512 "${args[@]}" >"$tmp/out" 2>&1; then ok "$name regression ($(tail -1 "$tmp/out" | sed 's/.*: //'))"; else bad "$name regression"; tail -20 "$tmp/out"; fi
  ;;

# 4. short libFuzzer runs where clang is present (time-bound)
libfuzzer)
  t=$arg
  name=$(basename "$t")
  mkdir -p "$tmp/c_$name"
  # Seeds: every k-th of the sorted corpus, at most LIBFUZZER_SEEDS (64). The
  # whole corpus is replayed by section 3; libFuzzer runs it all before it
  # fuzzes, and on the big corpora that took minutes, not the 8 s asked for.
  corpus=fuzz/corpus/${name#fuzz_}
  if [ -d "$corpus" ]; then
    n=$(find "$corpus" -maxdepth 1 -type f | wc -l) seeds=${LIBFUZZER_SEEDS:-64}
    find "$corpus" -maxdepth 1 -type f | LC_ALL=C sort |
      awk -v k=$(((n + seeds - 1) / seeds)) '(NR - 1) % k == 0' | xargs -r cp -t "$tmp/c_$name/"
  fi
  # Findings go to the temporary folder, not the checkout; the log
  # prints each as base64 so a CI run carries its reproducer.
  # A target built at -O0 (the Makefile's LF_O0: all of them, with the
  # archive) runs about half the inputs a second, so twice the time.
  # -entropic=0: libFuzzer's default schedule counts every feature of every
  # input (a third of a slow target's time at -O0); the plain one does not.
  # With the library's comparisons untraced (the Makefile's LF_COV) every
  # target runs more inputs in 10 s than in 16 s before (BENCHMARKS, CI time 0.31.0).
  secs=${LIBFUZZER_SECONDS:-5}
  case " ${LF_O0:-} " in *" $name "*) secs=$((2 * secs)) ;; esac
  if "$t" -seed=${LIBFUZZER_SEED:-1} -max_total_time=$secs -max_len=512 -entropic=0 \
      -artifact_prefix="$tmp/$name-" "$tmp/c_$name" >"$tmp/lf_out" 2>&1; then
    ok "$name libFuzzer $secs s from $(ls "$tmp/c_$name" | wc -l) seeds ($(grep -o 'Done [0-9]* runs' "$tmp/lf_out" | tail -1))"
  else
    bad "$name libFuzzer"; tail -30 "$tmp/lf_out"
    for f in "$tmp/$name"-*; do [ -f "$f" ] && echo "input $(basename "$f"): $(base64 -w0 "$f")"; done
  fi
  ;;

# 5. command-line tests: each tests/cli_*.sh prints "SUITE: N passed, M failed";
#    all with the sanitized tool but cli_demo.sh, which checks make demo's
#    script with the tool make demo runs (build/dnnmem, -O2): under ASan it took
#    45 of its CPU seconds, and each command of the demo is run sanitized by
#    another script (cli_plan, cli_cover, cli_layout, cli_place, cli_remat,
#    cli_plan_exact) or test (test_remat_quality: mobilenet_v2's training graph)
cli)
  s=$arg
  tool=$B/san/dnnmem
  [ "$s" = tests/cli_demo.sh ] && tool=$B/dnnmem
  DNNMEM="$tool" bash "$s" >"$tmp/out" 2>&1
  if ! summary "$tmp/out"; then bad "$s (no summary)"; tail -20 "$tmp/out"
  else [ "$f" -eq 0 ] || grep -E '^(FAIL|  )' "$tmp/out" | head -30; fi
  ;;
*) bad "unknown job $kind $arg" ;;
esac
echo "$pass $fail" >"$R/$2.$3.n"
exit 0
fi

# ------------------------------------------------------------ the pool ----
# Jobs as "SECTION NUMBER KIND ARG" in the order of their reports. They start
# longest first, so that the pool does not end on one long job while the
# other cores idle: the jobs in LONG (measured CPU seconds, above 10, in
# order; a job missing from it is only started later), then the libFuzzer
# runs (5 or 10 s each), then the rest in the order of their sections.
LONG="cli_remat.sh test_remat cli_onnx.sh test_remat_plan test_remat_arena m32/test_remat m32/test_remat_plan
m32/test_remat_arena same32 cli_demo.sh optouts fuzz/fuzz_plan_conflict test_plan_exact test_plan_greedy fuzz/fuzz_plan
cli_users.sh m32/test_plan_greedy fuzz/fuzz_plan_exact fuzz/fuzz_label"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  for t in "$B"/test_*; do [ -x "$t" ] && echo "1 unit $t"; done
  if [ -n "${M32:-}" ]; then for t in "$B"/m32/test_*; do [ -x "$t" ] && echo "1 unit $t"; done; fi
  for t in "$B"/plain/test_*; do [ -x "$t" ] && echo "1 unit $t"; done # tests/test.h's RUN_PLAIN cases
  for cxx in g++ clang++; do
    command -v $cxx >/dev/null || continue
    echo "2 cpp $cxx"
    echo "2 tour_cpp $cxx"
  done
  for cc in gcc clang; do command -v $cc >/dev/null && echo "2 static $cc"; done
  echo "2 optouts"
  [ -n "${M32:-}" ] && echo "2 same32"
  echo "2 size"
  echo "2 install"
  for t in "$B"/fuzz/fuzz_*; do [ -x "$t" ] && echo "3 regression $t"; done
  if [ -n "$CLANG" ]; then
    for t in "$B"/libfuzzer/fuzz_*; do [ -x "$t" ] && echo "4 libfuzzer $t"; done
  fi
  for s in tests/cli_*.sh; do [ -f "$s" ] && [ "$s" != tests/cli_lib.sh ] && echo "5 cli $s"; done
} | awk '{printf "%s %04d", $1, NR; for (i = 2; i <= NF; i++) printf " %s", $i; print ""}' >"$tmp/jobs"
export R="$tmp/r"
mkdir -p "$R"
awk -v long="$LONG" -v b="$B/" 'BEGIN { n = split(long, l); for (i = 1; i <= n; i++) rank[l[i]] = i - n - 1 }
  { name = NF < 4 ? $3 : $4
    if (index(name, b) == 1) name = substr(name, length(b) + 1); else sub(/^tests\//, "", name)
    print (name in rank ? rank[name] : $3 == "libfuzzer" ? 0 : $1), $0 }' "$tmp/jobs" |
  sort -s -k1,1n | cut -d' ' -f2- |
  xargs -P "${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}" -L 1 bash "$0" --job
pass=0
fail=0
while read -r section number kind arg; do
  key=$section.$number
  cat "$R/$key.out" 2>/dev/null
  p= f=
  read -r p f <"$R/$key.n" 2>/dev/null
  if [ -n "$f" ]; then pass=$((pass + p)); fail=$((fail + f))
  else fail=$((fail + 1)); echo "FAIL $kind $arg (no result)"; fi
done <"$tmp/jobs"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
