# tests/cli_lib.sh: sourced by every tests/cli_*.sh. The tool under test is
# $DNNMEM (default build/dnnmem); scripts print "ok ..."/"FAIL ..." lines and
# end with cli_finish NAME, which prints "NAME: N passed, M failed".
set -u
DNNMEM=${DNNMEM:-build/dnnmem}
here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
data=$here/data
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# check NAME GOT WANT
check() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1 (got '$2', want '$3')"; fi; }
# field NAME FILE: the value of the last "NAME": scalar in a JSON line
field() { sed -n "s/.*\"$1\": \([^,}]*\).*/\1/p" "$2"; }
# expect NAME CODE PATTERN CMD...: the exit code, and PATTERN (ERE) in stdout+stderr
expect() {
  local name=$1 code=$2 pat=$3 rc
  shift 3
  "$@" >"$tmp/expect.out" 2>&1
  rc=$?
  if [ $rc -eq "$code" ] && grep -qE -- "$pat" "$tmp/expect.out"; then
    ok "$name"
  else
    bad "$name (exit $rc)"
    sed 's/^/  /' "$tmp/expect.out" | head -5
  fi
}
cli_finish() { echo "$1: $pass passed, $fail failed"; }
# need_python NAME "IMPORTS" PACKAGE: PY, a python3 that imports IMPORTS
# (python3, else /usr/bin/python3); without one, says what to install
# (Debian PACKAGE), finishes NAME (0 checks) and exits 0.
need_python() {
  local p
  PY=
  for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c "import $2" 2>/dev/null; then PY=$p; return; fi
  done
  echo "skipped: no python3 with $2 (apt-get install $3)"
  cli_finish "$1"
  exit 0
}
# bad_file NAME EXT "CMD [OPTIONS]" WANT TEXT: writes TEXT (printf %b) to
# $tmp/NAME.EXT and runs "$DNNMEM CMD [OPTIONS] --json FILE": exit 2, nothing
# on stdout, and stderr starts with "FILE:WANT" (WANT an ERE such as
# "3: negative size"), so every bad input names its file and line.
bad_file() {
  local f="$tmp/${1// /_}.$2" rc
  printf '%b' "$5" >"$f"
  # shellcheck disable=SC2086
  "$DNNMEM" $3 --json "$f" >"$tmp/bad.out" 2>"$tmp/bad.err"
  rc=$?
  if [ $rc -eq 2 ] && [ ! -s "$tmp/bad.out" ] && head -1 "$tmp/bad.err" | grep -qE -- "^$f:$4"; then
    ok "$1"
  else
    bad "$1 (exit $rc, want '$4': $(head -1 "$tmp/bad.err"))"
  fi
}
# bad_files: bad_file for each line "NAME | EXT | CMD | WANT | TEXT" of stdin
# ('#' lines and blank lines skipped).
bad_files() {
  local name ext cmd want text
  while IFS='|' read -r name ext cmd want text; do
    case $name in '' | '#'*) continue ;; esac
    bad_file "$(trim "$name")" "$(trim "$ext")" "$cmd" "$(trim "$want")" "${text# }"
  done
}
trim() { local s=${1#"${1%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
