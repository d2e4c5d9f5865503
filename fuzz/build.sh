#!/usr/bin/env bash
# Builds every fuzz target the way OSS-Fuzz and ClusterFuzzLite do:
#   CC=clang CFLAGS="-fsanitize=address,undefined -O1 -g" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out bash fuzz/build.sh
# For each fuzz/fuzz_X.c: $OUT/fuzz_X, its seed corpus
# $OUT/fuzz_X_seed_corpus.zip (fuzz/corpus/X) and, where one exists, its
# dictionary $OUT/fuzz_X.dict (fuzz/dict/X.dict). The targets need only the
# header and a C compiler (stb_ds is for the tool and tests, not the
# targets). Run from anywhere; paths are relative to the repository.
set -eu
cd "$(dirname "$0")/.."
: "${CC:=clang}" "${CFLAGS:=}" "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}" "${OUT:=build/oss-fuzz}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
for src in fuzz/fuzz_*.c; do
  name=$(basename "$src" .c)
  part=${name#fuzz_}
  # one step, so that -fsanitize=fuzzer as the engine also instruments
  # shellcheck disable=SC2086 # CFLAGS and the engine are word lists
  $CC $CFLAGS -std=c99 -I. "$src" -o "$OUT/$name" $LIB_FUZZING_ENGINE -lm
  if [ -d "fuzz/corpus/$part" ]; then
    rm -f "$OUT/${name}_seed_corpus.zip"
    if command -v zip >/dev/null; then
      (cd "fuzz/corpus/$part" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
    else
      python3 -c 'import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for f in sorted(os.listdir(sys.argv[2])):
        z.write(os.path.join(sys.argv[2], f), f)' "$OUT/${name}_seed_corpus.zip" "fuzz/corpus/$part"
    fi
  fi
  [ -f "fuzz/dict/$part.dict" ] && cp "fuzz/dict/$part.dict" "$OUT/$name.dict"
  echo "built $OUT/$name"
done
