#!/usr/bin/env bash
# Builds every fuzz target the way OSS-Fuzz and ClusterFuzzLite do:
#   CC=clang CFLAGS="-fsanitize=address,undefined -O1 -g" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out bash fuzz/build.sh
# For each fuzz/fuzz_X.c: $OUT/fuzz_X, its seed corpus
# $OUT/fuzz_X_seed_corpus.zip (fuzz/corpus/X) and, where it has one, its
# dictionary $OUT/fuzz_X.dict: fuzz/dict/X.dict, or the files its source names
# on a line "Dictionaries: fuzz/dict/a.dict fuzz/dict/b.dict" (joined into
# one: libFuzzer takes one). A source line "Max length: N" becomes
# $OUT/fuzz_X.options ([libfuzzer] max_len = N), as OSS-Fuzz reads it.
#
# The library targets need only the header and a C compiler. fuzz_files
# (the tool's readers) also needs stb_ds, Debian's libstb-dev
# (/usr/include/stb/stb_ds.h): an OSS-Fuzz or ClusterFuzzLite Dockerfile
# installs it with
#   RUN apt-get update && apt-get install -y libstb-dev
# Without it those targets are skipped with a message (the others are
# built; the exit status is then 1).
# zip is optional (python3's zipfile otherwise). Run from anywhere; paths are
# relative to the repository.
set -eu
cd "$(dirname "$0")/.."
: "${CC:=clang}" "${CFLAGS:=}" "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}" "${OUT:=build/oss-fuzz}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

zip_dir() { # zip_dir ZIP DIR: DIR's files, flat, in name order
  rm -f "$1"
  if command -v zip >/dev/null; then
    (cd "$2" && zip -q -X -r "$1" .)
  else
    python3 -c 'import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for f in sorted(os.listdir(sys.argv[2])):
        z.write(os.path.join(sys.argv[2], f), f)' "$1" "$2"
  fi
}

# shellcheck disable=SC2086 # CFLAGS is a word list
have_stb=$(printf '#include <stb/stb_ds.h>\n' | $CC $CFLAGS -E -x c - >/dev/null 2>&1 && echo 1 || echo 0)
# a 32-bit x86 target (OSS-Fuzz's i386) computes with x87 by default, which
# the header refuses: SSE2 arithmetic instead
sse=
printf '#include <float.h>\n#if FLT_EVAL_METHOD == 2\n#error x87\n#endif\n' | $CC $CFLAGS -E -x c - >/dev/null 2>&1 ||
  sse="-msse2 -mfpmath=sse"
skipped=0
for src in fuzz/fuzz_*.c; do
  name=$(basename "$src" .c)
  part=${name#fuzz_}
  if [ "$have_stb" = 0 ] && grep -q '<stb/stb_ds.h>' "$src"; then
    echo "skipped $name: needs stb_ds (apt-get install -y libstb-dev)" >&2
    skipped=$((skipped + 1))
    continue
  fi
  # one step, so that -fsanitize=fuzzer as the engine also instruments
  # shellcheck disable=SC2086 # CFLAGS and the engine are word lists
  $CC $CFLAGS $sse -std=c99 -I. "$src" -o "$OUT/$name" $LIB_FUZZING_ENGINE -lm
  [ -d "fuzz/corpus/$part" ] && zip_dir "$OUT/${name}_seed_corpus.zip" "fuzz/corpus/$part"
  dicts=$(sed -n 's/^ *Dictionaries: //p' "$src" | head -1)
  [ -z "$dicts" ] && [ -f "fuzz/dict/$part.dict" ] && dicts=fuzz/dict/$part.dict
  rm -f "$OUT/$name.dict" "$OUT/$name.options"
  # shellcheck disable=SC2086 # a list of files
  [ -n "$dicts" ] && cat $dicts >"$OUT/$name.dict"
  max_len=$(sed -n 's/^ *Max length: \([0-9]*\).*/\1/p' "$src" | head -1)
  [ -n "$max_len" ] && printf '[libfuzzer]\nmax_len = %s\n' "$max_len" >"$OUT/$name.options"
  echo "built $OUT/$name"
done
[ "$skipped" = 0 ] || exit 1
