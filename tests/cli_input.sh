#!/usr/bin/env bash
# tests/cli_input.sh: every class of bad input file exits 2 with
# "FILE:LINE: what" and nothing on stdout, for the three formats the tool
# reads (examples/dnnmem_files.h); and what must be accepted (a byte order
# mark, CRLF line ends). One row per class: NAME | EXT | CMD | LINE: what
# (an ERE) | the file's text (printf %b).
. "$(dirname "$0")/cli_lib.sh"
IV=id,lower,upper,size
G=id,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs
X=0,x,input,4,1,1,inf,cpu,0,0,   # a graph's first row: an input
Y=1,y,relu,4,1,1,1,any,0,1,0     # its consumer, a graph output

bad_files <<EOF
# intervals CSV (plan, share and cover read it the same way)
empty file          | csv | plan  | 1: empty file                                   |
binary file         | csv | plan  | 3: binary file \(NUL byte\)                     | $IV\n0,0,2,10\n1,\0,3,4\n
UTF-16 file         | csv | plan  | 1: UTF-16 text                                  | \0377\0376i\0000d\0000,\0000\n\0000
only comments       | csv | plan  | 2: no header row                                | # nothing\n\n
missing column      | csv | plan  | 1: missing column 'upper'                       | id,lower,size\n0,0,10\n
header with a comment | csv | plan | 1: missing column 'size' \(the header reads 'id,lower,upper,size # ids'\) | id,lower,upper,size # ids\n0,0,2,5\n
header with semicolons | csv | share | 1: missing column 'id' \(the header reads 'id;lower;upper;size'\) | id;lower;upper;size\n0;0;2;5\n
header commented out | csv | plan | 2: missing column 'id' \(the header reads '0,0,2,5'\) | #id,lower,upper,size\n0,0,2,5\n
graph header misspelt | csv | remat | 1: not a graph CSV \(no 'inputs' column\) \(the header reads 'id,size,time,Inputs'\) | id,size,time,Inputs\n0,1,1,\n
column twice        | csv | plan  | 1: column 'size' appears twice \(columns 4 and 5\) | $IV,size\n0,0,2,10,20\n
upper and end       | csv | plan  | 1: columns 'upper' and 'end' name one field \(columns 3 and 5\) | $IV,end\n0,0,2,10,1\n
begin and lower     | csv | share | 1: columns 'begin' and 'lower' name one field \(columns 1 and 3\) | begin,id,lower,upper,size\n0,0,0,2,10\n
buffer_id and id    | csv | plan  | 1: columns 'buffer_id' and 'id' name one field \(columns 1 and 5\) | buffer_id,lower,upper,size,id\n0,0,2,10,0\n
place time_ twice   | csv | place --devices cpu,gpu | 1: column 'time_gpu' appears twice \(columns 13 and 14\) | $G,time_cpu,time_gpu,time_gpu\n$X,1,1,1\n
missing size column | csv | share | 1: missing column 'size'                        | id,lower,upper\n0,0,10\n
extra field         | csv | plan  | 2: 5 fields, the header has 4                   | $IV\n0,0,2,10,5\n
not an integer      | csv | plan  | 2: size: 'ten' is not an integer                | $IV\n0,0,2,ten\n
size typo under plan| csv | plan  | 2: size: '5x' is not an integer number of bytes | $IV\n0,0,2,5x\n
size missing a star | csv | plan --symbol S=1..64 | 2: size: '64S' is not an integer number of bytes .*; a polynomial writes '64\*S' | $IV\n0,0,2,64S\n
star, S in a row    | csv | plan  | 3: size: '64S' is not an integer number of bytes .*; a polynomial writes '64\*S' | $IV\n0,0,2,8*S\n1,0,2,64S\n
star, S undeclared  | csv | plan  | 2: size: '64S' is not an integer number of bytes .*powers of 1024\)$ | $IV\n0,0,2,64S\n
size typo, S declared | csv | plan --symbol S=1..64 | 2: size: '5x' is not an integer number of bytes .*powers of 1024\)$ | $IV\n0,0,2,5x\n
hex size, S declared | csv | plan --symbol S=1..64 | 2: size: '0x10' is not an integer number of bytes .*powers of 1024\)$ | $IV\n0,0,2,0x10\n
size S-1            | csv | plan --symbol S=1..64 | 2: size: 'S-1': a negative coefficient at byte 2 | $IV\n0,0,2,S-1\n
size in parentheses | csv | plan --symbol S=1..64 | 2: size: '\(S\)': expected a number or the symbol at byte 1 | $IV\n0,0,2,(S)\n
size comment at end | csv | plan  | 2: size: '10 # ten' is not an integer number   | $IV\n0,0,2,10 # ten\n
not an int64        | csv | plan  | 2: lower: '9+' is not an integer in the int64   | $IV\n0,99999999999999999999,2,1\n
negative size       | csv | plan  | 3: size: negative \(-4\)                        | $IV\n0,0,2,10\n1,1,3,-4\n
negative size share | csv | share | 3: size: negative                               | $IV\n0,0,2,10\n1,1,3,-4\n
upper <= lower      | csv | plan  | 2: upper <= lower                               | $IV\n0,5,5,10\n
upper <= lower cover| csv | cover | 3: upper <= lower                               | $IV\na,0,2,100\nb,3,3,100\n
missing id          | csv | plan  | 2: missing id                                   | $IV\n,0,2,10\n
duplicate id        | csv | plan  | 3: duplicate id '7' \(first on line 2\)         | $IV\n7,0,2,10\n7,1,3,10\n
sizes overflow      | csv | plan  | 3: the sizes \(aligned\) up to this row sum past| $IV\n0,0,2,9223372036854775807\n1,1,3,9223372036854775807\n
aligned overflow    | csv | plan --align 1024 | 3: the sizes \(aligned\)              | $IV\n0,0,2,4611686018427387903\n1,1,3,4611686018427387903\n
alignment           | csv | plan  | 2: alignment 3 is not a power of two            | $IV,alignment\n0,0,2,10,3\n
fixed offsets collide | csv | plan | 3: fixed offset collides with line 2           | $IV,offset\n0,0,4,10,0\n1,1,3,10,5\n
fixed collide exact | csv | plan --algo exact | 4: fixed offset collides with line 2| $IV,offset\n0,0,4,10,0\n1,1,3,10,\n2,2,3,10,5\n
fixed misaligned    | csv | plan  | 2: offset: offset is not a multiple of its alignment | $IV,offset,alignment\n0,0,2,10,3,4\n
fixed negative      | csv | plan  | 2: offset: negative                             | $IV,offset\n0,0,2,10,-8\n
hint negative       | csv | plan  | 2: hint: negative                               | $IV,hint\n0,0,2,10,-8\n
gap malformed       | csv | plan  | 2: gap '2-x': expected L-U                      | $IV,gaps\n0,0,10,100,2-x\n
gap window malformed| csv | plan  | 2: gap '2-5@1': expected L-U                    | $IV,gaps\n0,0,10,100,2-5@1\n
gap outside lifetime| csv | plan  | 3: gap: gap outside its lifetime                | $IV,gaps\n0,0,10,100,2-5\n1,0,10,100,8-12\n
gaps unsorted       | csv | plan  | 2: gap: gap outside its lifetime, unsorted      | $IV,gaps\n0,0,10,100,6-8 2-4\n
inclusive end too large | csv | plan | 2: end too large                             | id,begin,end,size\n0,0,9223372036854775807,1\n
# graph CSV (remat, place; plan, share and cover read lifetimes from it)
graph empty         | csv | remat | 1: empty file                                   |
graph binary        | csv | place | 3: binary file                                  | $G\n$X\n\0\n
graph not a graph   | csv | remat | 1: not a graph CSV                              | $IV\n0,0,2,10\n
graph column twice  | csv | remat | 1: column 'time' appears twice \(columns 5 and 12\) | $G,time\n$X,1\n
graph missing column| csv | place | 1: missing column 'xfer'                        | id,name,op,size,time,cpu_time,acc_time,device,output,inputs\n0,x,input,4,1,1,inf,cpu,0,\n
graph extra field   | csv | remat | 3: 12 fields, the header has 11                 | $G\n$X\n$Y,\n
graph negative size | csv | remat --budget 10 | 3: size: negative                    | $G\n$X\n1,y,relu,-4,1,1,1,any,0,1,0\n
graph bad size      | csv | cover | 3: size: '4x' is not an integer                 | $G\n$X\n1,y,relu,4x,1,1,1,any,0,1,0\n
graph sizes overflow| csv | plan  | 3: the sum of sizes up to this row              | $G\n0,x,input,9223372036854775807,1,1,inf,cpu,0,0,\n1,y,relu,1,1,1,1,any,0,1,0\n
graph times overflow| csv | remat | 3: the sum of times up to this row              | $G\n0,x,input,4,9e15,1,inf,cpu,0,0,\n1,y,relu,4,9e15,1,1,any,0,1,0\n
graph place overflow| csv | place | 2: the sum of cpu_time \+ acc_time \+ 2 xfer    | $G\n0,x,input,4,1,4e15,inf,cpu,3e15,0,\n
graph ids out of order | csv | remat | 3: id 2: expected 1                          | $G\n$X\n2,y,relu,4,1,1,1,any,0,1,0\n
graph duplicate id  | csv | remat | 3: duplicate id 0 \(first on line 2\)           | $G\n$X\n0,y,relu,4,1,1,1,any,0,1,0\n
graph input not earlier | csv | remat --budget 10 | 3: input 5 of value 1 is not an earlier id | $G\n$X\n1,y,relu,4,1,1,1,any,0,1,5\n
graph cycle         | csv | cover | 3: input 2 of value 1 is not an earlier id      | $G\n$X\n1,y,relu,4,1,1,1,any,0,1,2\n2,z,relu,4,1,1,1,any,0,1,1\n
graph self input    | csv | remat | 2: input 0 of value 0                           | $G\n0,x,input,4,1,1,inf,cpu,0,0,0\n
graph inputs malformed | csv | remat | 3: inputs: '0x' is not a list of ids         | $G\n$X\n1,y,relu,4,1,1,1,any,0,1,0x\n
graph negative time | csv | remat | 2: time: negative time                          | $G\n0,x,input,4,-1,1,inf,cpu,0,0,\n
graph time not a number | csv | place | 2: cpu_time: 'fast' is not a finite number  | $G\n0,x,input,4,1,fast,inf,cpu,0,0,\n
graph time too large| csv | remat | 2: time: time 1e300 too large                   | $G\n0,x,input,4,1e300,1,inf,cpu,0,0,\n
graph time overflows the solver | csv | remat --budget 8 | 3: time too large for the solver | $G\n$X\n1,y,relu,4,9e14,1,1,any,0,1,0\n2,z,relu,4,1,1,1,any,0,1,1\n
graph time overflows the curve  | csv | remat | 3: time too large for the solver            | $G\n$X\n1,y,relu,4,9e14,1,1,any,0,1,0\n2,z,relu,4,1,1,1,any,0,1,1\n
graph inf time      | csv | remat | 2: time: 'inf' is not a finite number           | $G\n0,x,input,4,inf,1,inf,cpu,0,0,\n
graph device        | csv | place | 2: device 'gpu': expected cpu, acc or any       | $G\n0,x,input,4,1,1,inf,gpu,0,0,\n
graph output        | csv | remat | 2: output must be 0 or 1                        | $G\n0,x,input,4,1,1,inf,cpu,0,2,\n
cover empty graph   | csv | cover | 2: empty graph                                  | # no rows\n$G\n
place acc without acc time | csv | place | 3: op pinned to a device that cannot run it | $G\n$X\n1,y,matmul,4,5,500,inf,acc,3,1,0\n
place supported nowhere | csv | place | 3: op pinned .*supported nowhere            | $G\n$X\n1,y,matmul,4,5,inf,inf,any,3,1,0\n
place input on acc  | csv | place | 2: graph input pinned to the accelerator        | $G\n0,x,input,4,1,1,1,acc,0,0,\n
# DIMACS max-flow
flow empty file     | max | flow  | 1: empty file                                   |
flow binary file    | max | flow  | 2: binary file                                  | p max 3 1\n\0\n
flow no p line      | max | flow  | 2: no 'p max NODES ARCS' line                   | c only\nc comments\n
flow negative       | max | flow  | 4: negative capacity -5                         | p max 3 2\nn 1 s\nn 3 t\na 1 2 -5\na 2 3 1\n
flow node range     | max | flow  | 5: node 4 outside 1..3                          | p max 3 2\nn 1 s\nn 3 t\na 1 2 5\na 2 4 1\n
flow zero id        | max | flow  | 2: node 0 outside 1..3                          | p max 3 1\nn 0 s\n
flow before p       | max | flow  | 1: 'a' line before the 'p' line                 | a 1 2 3\np max 3 1\n
flow not max        | max | flow  | 2: expected 'p max NODES ARCS'                  | c x\np min 3 1\n
flow second p       | max | flow  | 2: second 'p' line                              | p max 3 1\np max 3 1\n
flow node count     | max | flow  | 1: node count 1 out of range                    | p max 1 0\n
flow garbage        | max | flow  | 3: unknown line type 'x'                        | p max 3 1\nn 1 s\nx\n
flow too many arcs  | max | flow  | 6: more arcs than the 2 declared                | p max 3 2\nn 1 s\nn 3 t\na 1 2 1\na 2 3 1\na 1 3 1\n
flow too few arcs   | max | flow  | 5: the file ends after 2 of the 3 declared arcs | p max 3 3\nn 1 s\nn 3 t\na 1 2 1\na 2 3 1\n
flow no sink        | max | flow  | 3: the file ends without an 'n ID t' line       | p max 3 1\nn 1 s\na 1 3 1\n
flow two sources    | max | flow  | 3: second source                                | p max 3 1\nn 1 s\nn 2 s\nn 3 t\na 1 3 1\n
flow bad n line     | max | flow  | 2: expected 'n ID s' or 'n ID t'                | p max 3 1\nn 1 x\n
flow not integer    | max | flow  | 4: expected 'a FROM TO CAPACITY' \(integers\)   | p max 3 1\nn 1 s\nn 3 t\na 1 3 1.5\n
flow big capacity   | max | flow  | 4: expected 'a FROM TO CAPACITY'                | p max 3 1\nn 1 s\nn 3 t\na 1 3 99999999999999999999\n
flow overflow       | max | flow  | 5: capacities leaving the source sum past       | p max 3 2\nn 1 s\nn 3 t\na 1 2 9223372036854775807\na 1 3 1\n
flow same s and t   | max | flow  | 3: source and sink are the same node \(line 2\) | p max 3 1\nn 1 s\nn 1 t\na 1 3 1\n
EOF

# a file that cannot be read: exit 2, named
for cmd in plan share cover remat place flow; do
  expect "$cmd: missing file" 2 "nosuch.csv: cannot open" "$DNNMEM" $cmd "$tmp/nosuch.csv"
done
# a directory given as the file: the reason, not a bare "read error"
mkdir -p "$tmp/adir"
expect "plan: a directory" 2 "adir: read error: Is a directory" "$DNNMEM" plan "$tmp/adir"
# the same inputs with data files of the repository
expect "cover_bad.csv" 2 "cover_bad.csv:3: upper <= lower" "$DNNMEM" cover "$data/cover_bad.csv"
expect "cover_cycle.graph.csv" 2 "cover_cycle.graph.csv:3: input 2" "$DNNMEM" cover "$data/cover_cycle.graph.csv"
expect "cover_empty.graph.csv" 2 "cover_empty.graph.csv:2: empty graph" "$DNNMEM" cover "$data/cover_empty.graph.csv"
expect "place_bad.graph.csv" 2 "place_bad.graph.csv:3: op pinned" "$DNNMEM" place "$data/place_bad.graph.csv"
expect "place: a DIMACS file" 2 "flow_clrs.max:[0-9]+: " "$DNNMEM" place "$data/flow_clrs.max"

# accepted: a UTF-8 byte order mark, CRLF line ends, an underflowing time
printf '\xef\xbb\xbfid,lower,upper,size\r\n0,0,2,5\r\n1,1,3,7\r\n' >"$tmp/bom.csv"
expect "BOM and CRLF (intervals)" 0 '"n": 2, .*"arena": 12' "$DNNMEM" plan --json "$tmp/bom.csv"
printf '\xef\xbb\xbf# g\r\n%s\r\n%s\r\n%s\r\n' "$G" "$X" "$Y" >"$tmp/crlf.graph.csv"
expect "BOM and CRLF (graph)" 0 '"n": 2, .*"arena": 8' "$DNNMEM" plan --json "$tmp/crlf.graph.csv"
expect "CRLF graph: remat" 0 '"n": 2' "$DNNMEM" remat --budget 100 --json "$tmp/crlf.graph.csv"
printf 'p max 2 1\r\nn 1 s\r\nn 2 t\r\na 1 2 7\r\n' >"$tmp/crlf.max"
expect "CRLF (DIMACS)" 0 '"flow": 7' "$DNNMEM" flow --json "$tmp/crlf.max"
printf '# g\n%s\n0,x,input,8,1e-400,0,inf,cpu,1,0,\n' "$G" >"$tmp/tiny.csv"
expect "underflowing time reads as 0" 0 '"n": 1' "$DNNMEM" plan --json "$tmp/tiny.csv"
printf '%s,gaps\n0,0,10,100,2-5 6-8@0:50\n1,3,7,100,\n' "$IV" >"$tmp/gaps.csv"
printf '%s,offset,gaps\n0,0,10,100,0,2-8\n1,3,7,100,0,\n' "$IV" >"$tmp/fixgap.csv"
expect "fixed offsets sharing bytes in a gap do not collide" 0 '"arena": 100' "$DNNMEM" plan --json "$tmp/fixgap.csv"
printf '%s,note,note\n0,0,2,5,a,b\n' "$IV" >"$tmp/note2.csv"
expect "a column never read may repeat" 0 '"arena": 5' "$DNNMEM" plan --json "$tmp/note2.csv"
expect "gaps (idle and windowed)" 0 '"arena": 200, "lower_bound": 200' "$DNNMEM" plan --json "$tmp/gaps.csv"

# stdout that cannot be written (a full disk): exit 2 and said, not exit 0
# with the JSON lost
if [ -w /dev/full ]; then
  "$DNNMEM" plan --json "$tmp/bom.csv" >/dev/full 2>"$tmp/full.err"
  check "stdout full: exit 2" "$?" 2
  check "stdout full: said, with the reason" "$(cat "$tmp/full.err")" "<stdout>: write failed: No space left on device"
  expect "--out full: the reason" 2 "/dev/full: write failed: No space left on device" "$DNNMEM" plan --out /dev/full "$tmp/bom.csv"
fi

cli_finish cli_input
[ "$fail" = 0 ]
