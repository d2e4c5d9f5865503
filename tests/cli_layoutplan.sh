#!/usr/bin/env bash
# tests/cli_layoutplan.sh: the `dnnmem layoutplan` command's contract: a
# hand-computed plan (conversions of an 8x4 tile over PE=4 counted by hand:
# 6 DMA runs and 24 element copies changing unit each way), --out, the
# gpt_mini demo over the MN-Core board, and FILE:LINE errors for every
# malformed candidates file.
. "$(dirname "$0")/cli_lib.sh"

# a chain input -> mm -> add (add is the output; sizes in tiles of 32 x 4 bytes)
cat >"$tmp/tiny.graph.csv" <<'CSV'
id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs
0,x,input,128,0,0,inf,cpu,1,0,
1,y,mm,128,10,10,inf,any,1,0,0
2,z,add,256,5,5,inf,any,1,1,1
CSV
cat >"$tmp/tiny.txt" <<'TXT'
# rows two per PE (A) or round-robin (B)
machine PE=4
cost run=1000 moved=10 local=0 bytes=4
layout A ((4_PE, 2:4), (4:1))
layout B ((2:4, 4_PE), (4:1))
output A
op input A=1
op mm    A=2.5 B=1
op *     A=1 B=1
TXT
# one tile A <-> B: 6 runs x 1000 + 24 moved x 10 = 6240 ns. mm on B (10 us)
# pays x's conversion (1 tile) and add on A y's (1 tile): 27480 ns; all on A
# 30000; add on B instead pays z's 2 tiles to the output: 33720.
"$DNNMEM" layoutplan --json --candidates "$tmp/tiny.txt" --out "$tmp/tiny.out.csv" "$tmp/tiny.graph.csv" >"$tmp/tiny.json" 2>"$tmp/tiny.err"
check "tiny: exit 0" "$?" 0
check "tiny: time" "$(field time "$tmp/tiny.json")" 27480
check "tiny: proven" "$(field optimal "$tmp/tiny.json")" true
check "tiny: lower bound" "$(field lower_bound "$tmp/tiny.json")" 27480
check "tiny: conversions" "$(field conversions "$tmp/tiny.json")" 2
check "tiny: conversion time" "$(field conversion_time "$tmp/tiny.json")" 12480
check "tiny: first candidates (all A)" "$(field first_time "$tmp/tiny.json")" 30000
check "tiny: --out layouts" "$(awk -F, 'NR > 1 { printf "%s ", $NF }' "$tmp/tiny.out.csv")" "A B A "
"$DNNMEM" layoutplan --candidates "$tmp/tiny.txt" "$tmp/tiny.graph.csv" >"$tmp/tiny.txt.out" 2>&1
check "tiny: text names the conversion counts" "$(grep -cE '^ +A +-> B +6.240 us \(6, 24, 0\)' "$tmp/tiny.txt.out")" 1

# the demo: gpt_mini over the MN-Core board
"$DNNMEM" layoutplan --json --candidates "$data/gpt_mini.layouts.txt" "$data/gpt_mini.graph.csv" >"$tmp/gpt.json" 2>"$tmp/gpt.err"
check "gpt_mini: exit 0" "$?" 0
check "gpt_mini: proven optimal" "$(field optimal "$tmp/gpt.json")" true
check "gpt_mini: n" "$(field n "$tmp/gpt.json")" 105
t=$(field time "$tmp/gpt.json")
check "gpt_mini: no worse than each op on its first candidate" "$([ "$t" -le "$(field first_time "$tmp/gpt.json")" ] && echo yes)" yes
check "gpt_mini: op + conversion time" "$(($(field op_time "$tmp/gpt.json") + $(field conversion_time "$tmp/gpt.json")))" "$t"

# malformed candidates files: FILE:LINE and exit 2, nothing on stdout
bad_candidates() { # NAME WANT TEXT
  local f="$tmp/${1// /_}.txt" rc
  printf '%b' "$3" >"$f"
  "$DNNMEM" layoutplan --json --candidates "$f" "$tmp/tiny.graph.csv" >"$tmp/bad.out" 2>"$tmp/bad.err"
  rc=$?
  if [ $rc -eq 2 ] && [ ! -s "$tmp/bad.out" ] && head -1 "$tmp/bad.err" | grep -qE -- "^$f:$2"; then
    ok "$1"
  else
    bad "$1 (exit $rc, want '$2': $(head -1 "$tmp/bad.err"))"
  fi
}
good='machine PE=4\nlayout A ((4_PE, 2:4), (4:1))\n'
bad_candidates "malformed layout" "3: layout 'B': byte 19 of '\\(\\(2:4, 4_PE\\), \\(4:1\\)': syntax error" "${good}layout B ((2:4, 4_PE), (4:1)\nop * A=1 B=1\n"
bad_candidates "layout collision" "3: layout 'B': byte [0-9]+ of .*collide" "${good}layout B ((2:4, 4:1), (4:1))\nop * A=1\n"
bad_candidates "layout off the machine" "2: layout 'A' on machine PE=2" "machine PE=2\nlayout A ((4_PE, 2:4), (4:1))\nop * A=1\n"
bad_candidates "unknown machine level" "3: layout 'B' on machine PE=4" "${good}layout B ((4_MAB, 2:4), (4:1))\nop * A=1\n"
bad_candidates "another shape" "3: layout 'B': its shape differs" "${good}layout B ((4_PE, 2:8), (8:1))\nop * A=1\n"
bad_candidates "unknown layout in op" "3: op 'mm': unknown layout 'C'" "${good}op mm C=1\n"
bad_candidates "bad factor" "3: op cost factor 'x'" "${good}op * A=x\n"
bad_candidates "negative factor" "3: op cost factor '-1'" "${good}op * A=-1\n"
bad_candidates "op without candidates" "3: op 'mm': no candidate layout" "${good}op mm\n"
bad_candidates "op kind twice" "4: op kind '\\*' listed twice" "${good}op * A=1\nop * A=2\n"
bad_candidates "layout twice" "3: layout 'A' defined twice" "${good}layout A ((4_PE, 2:4), (4:1))\nop * A=1\n"
bad_candidates "bad machine" "1: machine 'PE=0'" "machine PE=0\n"
bad_candidates "machine twice" "2: second 'machine' line" "machine PE=4\nmachine PE=4\n"
bad_candidates "bad cost key" "3: cost key 'speed'" "${good}cost speed=1\n"
bad_candidates "bad cost value" "3: run 'inf'" "${good}cost run=inf\n"
bad_candidates "unknown output" "3: output: unknown layout 'Z'" "${good}output Z\n"
bad_candidates "unknown line" "3: unknown line 'tile'" "${good}tile 8,4\n"
bad_candidates "no machine" "1: no 'machine' line" "layout A ((4_PE, 2:4), (4:1))\n"
bad_candidates "no layout" "1: no 'layout' line" "machine PE=4\n"
expect "op kind without candidates names the graph line" 2 "tiny.graph.csv:3: op kind 'mm' has no candidate layouts" \
  sh -c "printf '${good}op input A=1\nop add A=1\n' >'$tmp/nomm.txt'; '$DNNMEM' layoutplan --candidates '$tmp/nomm.txt' '$tmp/tiny.graph.csv'"
expect "missing --candidates" 1 "--candidates F is required" "$DNNMEM" layoutplan "$tmp/tiny.graph.csv"
expect "unreadable candidates" 2 "nothere.txt: cannot open" "$DNNMEM" layoutplan --candidates "$tmp/nothere.txt" "$tmp/tiny.graph.csv"

cli_finish cli_layoutplan
[ "$fail" = 0 ]
