#!/usr/bin/env bash
# Command-line tests of planning with sizes not known in advance: the
# intervals CSV's 'pass' column (multi-pass planning) and polynomial sizes
# with --symbol / --at; their bad inputs (exit 2, FILE:LINE:) and misuse
# (exit 1).
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
t=$tmp

L=tests/data/lstm_two_pass.csv
expect "two passes: the arena after each, the one-shot price" 0 \
  '"arena": 14, "lower_bound": 10, "optimal": false, .*"passes": \[\{"pass": 1, "n": 2, "arena": 6\}, \{"pass": 2, "n": 1, "arena": 14\}\], "one_shot_arena": 10, "one_shot_lower_bound": 10' \
  $D plan --algo greedy-size --json $L
expect "two passes, exact per pass" 0 '"passes": \[\{"pass": 1, "n": 2, "arena": 6\}' $D plan --algo exact --json $L
expect "--out keeps earlier passes' offsets" 0 '' $D plan --algo greedy-size --out "$t/p.csv" $L
check "--out rows" "$(tail -3 "$t/p.csv" | tr '\n' ' ')" "x,0,2,4,1,0 h,1,10,2,1,4 y,2,6,8,2,6 "
expect "text output names the price" 0 'multi-pass costs 4 bytes more' $D plan --algo greedy-size $L

G=tests/data/gpt_mini.symbolic.csv
expect "--symbol: one plan meets the bound at every S" 0 \
  '"symbol": "S", "s_min": 64, "s_max": 2048, "worst_ratio": 1, "worst_at": [0-9]+, "arena_min": 1114112, "lower_bound_min": 1114112, "arena_max": 138412032, "lower_bound_max": 138412032' \
  $D plan --symbol S=64..2048 --json $G
expect "--at resolves one S" 0 '"at": 100, "arena": 1740800, "lower_bound": 1740800, "optimal": true' \
  $D plan --symbol S=64..2048 --at S=100 --json $G
expect "--at with --out" 0 '' $D plan --symbol S=64..2048 --at S=100 --out "$t/at.csv" $G
check "--out at S=100 header" "$(sed -n 1p "$t/at.csv")" "id,lower,upper,size,offset"
check "--out at S=100: an offset per row" "$(tail -n +2 "$t/at.csv" | cut -d, -f5 | grep -c '^[0-9][0-9]*$')" "105"
expect "--out without --at writes the stacking" 0 '' $D plan --symbol S=64..2048 --out "$t/st.csv" $G
check "stacking header" "$(sed -n 1p "$t/st.csv")" "id,lower,upper,size,rank,below"
check "stacking ranks are a permutation" "$(tail -n +2 "$t/st.csv" | cut -d, -f5 | sort -n | uniq | wc -l | tr -d ' ')" "105"
expect "--svg at S" 0 '' $D plan --symbol S=64..2048 --at S=64 --svg "$t/s.svg" $G
if grep -q '<svg' "$t/s.svg"; then ok "svg at S"; else bad "svg at S"; fi
printf 'id,lower,upper,size\na,0,2,10\nb,1,3,4*S+2\n' >"$t/small.csv"
expect "constants and polynomials together" 0 '"at": 3, "arena": 24, "lower_bound": 24' \
  $D plan --symbol S=0..10 --at S=3 --json "$t/small.csv"
expect "text output" 0 'one plan for S in 0..10' $D plan --symbol S=0..10 "$t/small.csv"

expect "--at without --symbol" 1 'needs --symbol' $D plan --at S=3 "$t/small.csv"
expect "--at outside the range" 1 'outside --symbol' $D plan --symbol S=0..10 --at S=11 "$t/small.csv"
expect "--at with another symbol" 1 'the symbol is S' $D plan --symbol S=0..10 --at T=3 "$t/small.csv"
expect "--symbol HI < LO" 1 'HI < LO' $D plan --symbol S=9..3 "$t/small.csv"
expect "--symbol malformed" 1 'expected S=LO..HI' $D plan --symbol S=3 "$t/small.csv"
expect "--symbol with --capacity" 1 'cannot be combined' $D plan --symbol S=0..10 --capacity 100 "$t/small.csv"

bad_files <<'BAD'
polynomial in share | csv | share | 3: size: '4\*S' is not an integer | id,lower,upper,size\na,0,2,10\nb,1,3,4*S\n
polynomial without --symbol | csv | plan | 3: size: '4\*S' is not an integer \(a polynomial in S: plan it with --symbol S=LO..HI\) | id,lower,upper,size\na,0,2,10\nb,1,3,4*S\n
polynomial that does not parse | csv | plan --symbol S=1..4 | 2: size: '4\*S\^2\+': expected a term at byte 7 | id,lower,upper,size\nb,1,3,4*S^2+\n
negative coefficient | csv | plan --symbol S=1..4 | 2: size: '4\*S-1': a negative coefficient at byte 4 | id,lower,upper,size\nb,1,3,4*S-1\n
two symbols, one --symbol | csv | plan --symbol S=1..4 | 2: sizes are polynomials in S and T: give --symbol for both | id,lower,upper,size\na,0,2,S\nb,1,3,2*T\n
three symbols | csv | plan --symbol S=1..4 --symbol T=1..4 | 3: size: '2\*S\*U': a third symbol \(at most two per file\) at byte 5 | id,lower,upper,size\na,0,2,S*T\nb,1,3,2*S*U\n
symbol other than --symbol | csv | plan --symbol T=1..4 | 2: sizes are polynomials in S, not in --symbol T | id,lower,upper,size\nb,1,3,2*S\n
polynomial past int64 at HI | csv | plan --symbol S=1..4000000000 | 2: size: past the int64 range at S = 4000000000 | id,lower,upper,size\nb,1,3,9000000000*S^2\n
polynomial with a fixed offset | csv | plan --symbol S=1..4 | 2: a polynomial size cannot have a fixed offset or gaps | id,lower,upper,size,offset\nb,1,3,2*S,0\n
fixed record under --symbol | csv | plan --symbol S=1..4 | 2: --symbol plans no fixed offsets or gaps | id,lower,upper,size,offset\nb,1,3,2,0\n
pass column under --symbol | csv | plan --symbol S=1..4 | 1: a pass column cannot be combined with --symbol | id,lower,upper,size,pass\nb,1,3,2*S,1\n
pass 0 | csv | plan | 3: pass: 0 is not a pass number | id,lower,upper,size,pass\na,0,2,4,1\nb,1,3,2,0\n
pass not an integer | csv | plan | 2: pass: 'two' is not an integer | id,lower,upper,size,pass\na,0,2,4,two\n
passes out of order | csv | plan | 4: pass 3 starts at step 2, before an earlier pass | id,lower,upper,size,pass\na,0,9,4,1\nb,5,9,2,2\nc,2,6,2,3\n
BAD

# two symbols over a box short enough that the grid is every point: the
# reported worst ratio is the largest --at arena / lower bound over all 36
# points (one stacking: --at resolves the same one), reached where it says
printf 'id,lower,upper,size\nr0,2,5,9*W\nr1,4,7,6*H\nr2,4,5,4\nr3,0,3,2*W\nr4,3,4,H\nr5,5,7,20\n' >"$tmp/box.csv"
$D plan --json --symbol H=1..6 --symbol W=1..6 "$tmp/box.csv" >"$tmp/box.json"
worst=0 at=
for h in 1 2 3 4 5 6; do
  for w in 1 2 3 4 5 6; do
    $D plan --json --symbol H=1..6 --symbol W=1..6 --at H=$h --at W=$w "$tmp/box.csv" >"$tmp/at.json"
    r=$(awk -v a="$(field arena "$tmp/at.json")" -v b="$(field lower_bound "$tmp/at.json")" 'BEGIN { printf "%.5f", a / b }')
    if awk -v r="$r" -v m="$worst" 'BEGIN { exit !(r > m) }'; then worst=$r at="$h $w"; fi
  done
done
check "box: samples = every point" "$(field samples "$tmp/box.json")" 36
check "box: worst ratio = the largest over every --at" "$(awk -v r="$(field worst_ratio "$tmp/box.json")" 'BEGIN { printf "%.5f", r }')" "$worst"
check "box: worst_at, worst_at2" "$(field worst_at "$tmp/box.json") $(field worst_at2 "$tmp/box.json")" "$at"
check "box: above 1 here (the oracle is not vacuous)" "$(awk -v r="$worst" 'BEGIN { print (r > 1.05) }')" 1
expect "box: --at needs both symbols" 1 "one value per symbol" $D plan --symbol H=1..6 --symbol W=1..6 --at H=2 "$tmp/box.csv"
expect "box: --at outside" 1 "outside --symbol" $D plan --symbol H=1..6 --symbol W=1..6 --at H=2 --at W=7 "$tmp/box.csv"
expect "box: a symbol the file does not have" 2 "sizes are polynomials in W, not in --symbol H or X" \
  $D plan --symbol H=1..6 --symbol X=1..6 "$tmp/box.csv"
expect "three --symbol" 1 "at most two symbols" $D plan --symbol H=1..6 --symbol W=1..6 --symbol X=1..2 "$tmp/box.csv"

cli_finish cli_plan_dynamic
