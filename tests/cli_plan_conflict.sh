#!/usr/bin/env bash
# Command-line tests of 'dnnmem plan --capacity' when no plan fits: JSON
# conflict (the id column's values) and conflict_minimal, the text naming
# the records, exit 0 (an answer, not bad input); no conflict when the
# capacity fits or is not proven infeasible.
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
t=$tmp

C=tests/data/minimalloc_C.1048576.csv
expect "minimalloc C one byte below its optimum: a minimal conflict" 0 \
  '"feasible": false, .*"conflict": \["[0-9]+"(, "[0-9]+")*\], "conflict_minimal": true, "conflict_decisions": [0-9]+, "conflict_time_ms"' \
  $D plan --capacity 1039359 --json $C
expect "minimalloc C at its optimum: no conflict" 0 '"feasible": true, "nodes"' $D plan --capacity 1039360 --json $C
if $D plan --capacity 1039360 --json $C | grep -q conflict; then bad "no conflict field when it fits"; else ok "no conflict field when it fits"; fi

# ids 10..15: three records meet at step 2 with 12 bytes over a capacity of 10
printf 'id,lower,upper,size\n10,10,20,6\n11,0,4,4\n12,7,9,3\n13,1,5,4\n14,2,6,4\n15,5,7,6\n' >"$t/three.csv"
expect "the id column's values, ascending, proven minimal" 0 \
  '"conflict": \["11", "13", "14"\], "conflict_minimal": true' $D plan --capacity 10 --json "$t/three.csv"
expect "the text names the records" 0 'conflict: 3 records that alone cannot fit 10 bytes \(minimal, .*\): 11 13 14$' \
  $D plan --capacity 10 "$t/three.csv"
expect "exact answers the same" 0 '"conflict": \["11", "13", "14"\]' $D plan --algo exact --capacity 10 --json "$t/three.csv"
expect "a fitting capacity: no conflict" 0 '"feasible": true' $D plan --capacity 12 --json "$t/three.csv"

# a fixed record at offset 1 splits 3 bytes: a 2-byte record meeting it cannot
# fit (the load is 3): the exact search proves it, the conflict names both
printf 'id,lower,upper,size,offset\n7,6,9,3,\n8,0,4,1,1\n9,4,6,1,\n5,1,3,2,\n' >"$t/split.csv"
expect "a conflict beyond the load, proven by the exact search" 0 \
  '"feasible": false, .*"conflict": \["8", "5"\], "conflict_minimal": true' \
  $D plan --algo exact --capacity 3 --json "$t/split.csv"
expect "capacity 0 is a usage error" 1 'capacity' $D plan --capacity 0 --json "$t/three.csv"

cli_finish cli_plan_conflict
