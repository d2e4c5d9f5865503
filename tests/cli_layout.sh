#!/usr/bin/env bash
# tests/cli_layout.sh: the `dnnmem layout` command's contract (JSON fields,
# the document's worked examples, exit codes). The binary is $DNNMEM.
. "$(dirname "$0")/cli_lib.sh"
# the top-level "units" object (after the locations array)
units() { sed -n 's/.*\], "at": \[[^]]*\], "units": {\([^}]*\)}.*/\1/p' "$1"; }

run() { "$DNNMEM" layout "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }

# worked examples of the issue
check "blocks exit 0" "$(run '((4_PE, 3:8), (8:1))' --at 7,5 --json)" 0
check "blocks canonical" "$(sed -n 's/.*"canonical": "\([^"]*\)".*/\1/p' "$tmp/out")" '((4_PE, 3:8), (8:1))'
check "blocks size" "$(field size "$tmp/out")" 96
check "blocks units" "$(units "$tmp/out")" '"PE": 2'
check "blocks address" "$(field address "$tmp/out")" 13
check "blocks padding" "$(field padding "$tmp/out")" false
check "blocks one line" "$(wc -l <"$tmp/out")" 1
grep -q '"locations": \[{"at": \[7, 5\], "units": {"PE": 2}, "address": 13, "padding": false}\]' "$tmp/out" \
  && ok "blocks locations" || bad "blocks locations"

run '((3:8, 4_PE), (8:1))' --at 7,5 --json >/dev/null
check "interleaved units" "$(units "$tmp/out")" '"PE": 3'
check "interleaved address" "$(field address "$tmp/out")" 13

run '((2_PE:2, 6:4), (2_PE:1, 4:1))' --at 7,5 --json >/dev/null
check "2x2 units" "$(units "$tmp/out")" '"PE": 3'
check "2x2 address" "$(field address "$tmp/out")" 5

run '(10,7)/((3:7, 4_PE), (7:1))' --at 9,6 --json >/dev/null
check "padlayout size" "$(field size "$tmp/out")" 70
check "padlayout padded_size" "$(field padded_size "$tmp/out")" 84
check "padlayout units" "$(units "$tmp/out")" '"PE": 1'
check "padlayout address" "$(field address "$tmp/out")" 20
run '(10,7)/((3:7, 4_PE), (7:1))' --at 10,0 --json >/dev/null
check "padded position units" "$(units "$tmp/out")" '"PE": 2'
check "padded position address" "$(field address "$tmp/out")" 14
check "padded position padding" "$(field padding "$tmp/out")" true

# broadcast: every machine level appears in units, "all" when broadcast
run '((12:8), (8:1); B@[PE])' --machine 'L2B=16,L1B=8,MAB=16,PE=4' --at 7,5 --json >/dev/null
check "broadcast exit" "$(cat "$tmp/err")" ""
check "broadcast units" "$(units "$tmp/out")" '"L2B": "all", "L1B": "all", "MAB": "all", "PE": "all"'
check "broadcast address" "$(field address "$tmp/out")" 61
check "broadcast replicas" "$(field replicas "$tmp/out")" 8192
run '((4_PE, 3:8), (8:1))' --machine 'L2B=16,L1B=8,MAB=16,PE=4' --at 7,5 --json >/dev/null
check "machine levels in units" "$(units "$tmp/out")" '"L2B": "all", "L1B": "all", "MAB": "all", "PE": 2'
run '((12:8), (8:1); B@[2_L2B:2])' --at 7,5 --json >/dev/null
check "counted broadcast lists copies" "$(units "$tmp/out")" '"L2B": [0, 2]'
run '((12:8), (8:1); B@[PE])' --json >/dev/null
check "replicas unknown without machine" "$(field replicas "$tmp/out")" null

# several --at: locations array, no top-level at
run '((12:2), (4_PE, 2:1))' --at 0,0 --at 11,7 --json >/dev/null
grep -q '"locations": \[{"at": \[0, 0\], "units": {"PE": 0}, "address": 0, "padding": false}, {"at": \[11, 7\], "units": {"PE": 3}, "address": 23, "padding": false}\]}' "$tmp/out" \
  && ok "two locations" || bad "two locations"

# --dump: every position
run '((2_PE, 2:4), (4:1))' --dump --json >/dev/null
check "dump entries" "$(grep -o '"at": ' "$tmp/out" | wc -l)" 16
check "dump text lines" "$("$DNNMEM" layout '((2_PE, 2:4), (4:1))' --dump | grep -c ' -> ')" 16

# canonical form round-trips through the tool
c=$("$DNNMEM" layout ' ( (4_PE,3) , (8) ; B@[ 2_W ] )' --json | sed -n 's/.*"canonical": "\([^"]*\)".*/\1/p')
check "canonical" "$c" '((4_PE, 3:8), (8:1); B@[2_W])'
c2=$("$DNNMEM" layout "$c" --json | sed -n 's/.*"canonical": "\([^"]*\)".*/\1/p')
check "canonical round trip" "$c2" "$c"

# bad layouts: exit 2 with the byte position
check "unbalanced exit 2" "$(run '((4_PE, 3:8), (8:1)')" 2
grep -q '^layout:1: byte 19: syntax error' "$tmp/err" && ok "unbalanced position" || bad "unbalanced position: $(head -1 "$tmp/err")"
check "zero extent exit 2" "$(run '((4_PE, 0:8), (8:1))')" 2
grep -q 'byte 8: layout extent' "$tmp/err" && ok "zero extent position" || bad "zero extent position"
check "stride collision exit 2" "$(run '((2_PE:2, 6:4), (2_PE:2, 4:1))')" 2
check "missing strides exit 2" "$(run '((2_PE, 6:4), (2_PE, 4:1))')" 2
check "padded smaller exit 2" "$(run '(13,7)/((3:7, 4_PE), (7:1))')" 2
check "overflow exit 2" "$(run '((99999999999999999999:1))')" 2
check "unknown level exit 2" "$(run '((4_XY, 3:8), (8:1))' --machine 'PE=4')" 2
grep -q 'byte 2: level not in the machine' "$tmp/err" && ok "unknown level position" || bad "unknown level position"
check "machine too small exit 2" "$(run '((8_PE, 3:8), (8:1))' --machine 'PE=4')" 2
check "bad machine exit 2" "$(run '((4_PE, 3:8), (8:1))' --machine 'PE=')" 2
grep -q '^machine:1: byte 3' "$tmp/err" && ok "bad machine position" || bad "bad machine position"
check "index out of range exit 2" "$(run '((4_PE, 3:8), (8:1))' --at 12,0)" 2
grep -q "^--at:1: '12,0': index 12 of axis 0 is outside 0..11" "$tmp/err" && ok "index out of range message" || bad "index out of range message: $(head -1 "$tmp/err")"
check "wrong rank exit 2" "$(run '((4_PE, 3:8), (8:1))' --at 1,2,3)" 2

# usage errors: exit 1
check "--at without value exit 1" "$(run '((8:1))' --at)" 1

cli_finish cli_layout
[ "$fail" = 0 ]
