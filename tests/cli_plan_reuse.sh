#!/usr/bin/env bash
# Command-line tests of in-place reuse and aliasing in 'dnnmem plan': the
# intervals CSV columns 'reuse' and 'alias' (ids), plan --inplace
# elementwise on graph CSVs, JSON links and reused pairs, --out offsets
# shared by the pairs used, and every bad link named by FILE:LINE.
. "$(dirname "$0")/cli_lib.sh"
D=$DNNMEM
t=$tmp
IV=id,lower,upper,size

# x -> relu (in place) -> sigmoid (in place, smaller); v views sigmoid;
# other lives throughout: 100 + 10 bytes, the reuse-aware bound
printf '%s,reuse,alias\nx,0,2,100,,\nrelu,1,3,100,x,\nsig,2,4,60,relu,\nv,3,5,10,,sig\nother,0,5,10,,\n' "$IV" >"$t/chain.csv"
expect "an in-place chain meets its bound" 0 \
  '"arena": 110, "lower_bound": 110, "optimal": true.*"links": 3, "reused": \[\["relu", "x"\], \["sig", "relu"\]\]' \
  $D plan --json "$t/chain.csv"
expect "exact too" 0 '"arena": 110, .*"optimal": true' $D plan --algo exact --json "$t/chain.csv"
expect "the text counts the links used" 0 'in place: 2 of 2 reuse links used' $D plan "$t/chain.csv"
$D plan --out "$t/chain.out.csv" "$t/chain.csv" >/dev/null
check "--out: the chain and the view share offset 0" \
  "$(awk -F, 'NR>1 && $1!="other" {print $NF}' "$t/chain.out.csv" | sort -u | tr '\n' ' ')" "0 "
check "--out: the other record above" "$(awk -F, '$1=="other" {print $NF}' "$t/chain.out.csv")" "100"
printf '%s\nx,0,2,100\nrelu,1,3,100\nsig,2,4,60\nv,3,5,10\nother,0,5,10\n' "$IV" >"$t/nolinks.csv"
expect "without the links: 210" 0 '"arena": 210' $D plan --json "$t/nolinks.csv"
if $D plan --json "$t/nolinks.csv" | grep -q '"reused"'; then bad "no reused field without links"; else ok "no reused field without links"; fi

# graphs: element-wise ops overwrite their first input where it dies
G=$data/resnet18.graph.csv
base=$($D plan --json "$G" | sed -n 's/.*"arena": \([0-9]*\).*/\1/p')
inpl=$($D plan --json --inplace elementwise "$G" | sed -n 's/.*"arena": \([0-9]*\).*/\1/p')
if [ -n "$base" ] && [ -n "$inpl" ] && [ "$inpl" -lt "$base" ]; then ok "resnet18 in place: $inpl < $base"; else bad "resnet18 in place ($inpl vs $base)"; fi
expect "resnet18 in place meets the reuse-aware bound" 0 '"optimal": true.*"reused": \[\["' $D plan --json --inplace elementwise "$G"
# ONNX Runtime's fused element-wise ops (as examples/onnx_to_graph.py writes
# them): each overwrites its dying input; the 4-byte bias is not its size
printf 'id,op,size,inputs,output\n0,input,100,,0\n1,fastgelu,100,0,0\n2,quickgelu,100,1,0\n3,input,4,,0\n4,biasgelu,100,2 3,0\n5,biasadd,100,4 3,1\n' >"$t/ms.graph.csv"
expect "fastgelu, quickgelu, biasgelu, biasadd in place" 0 \
  '"arena": 104, "lower_bound": 104, "optimal": true.*"links": 4, "reused": \[\["1", "0"\], \["2", "1"\], \["4", "2"\], \["5", "4"\]\]' \
  $D plan --json --inplace elementwise "$t/ms.graph.csv"
expect "--inplace needs a graph" 1 'needs a graph' $D plan --inplace elementwise "$t/chain.csv"
expect "--inplace kinds" 1 "unknown --inplace 'all'" $D plan --inplace all "$G"
expect "share refuses links" 2 "chain.csv:3: share: reuse and alias links" $D share "$t/chain.csv"
expect "capacity below the bound: infeasible, no conflict set with links" 0 '"feasible": false' \
  $D plan --capacity 100 --json "$t/chain.csv"

bad_files plan <<EOF2
unknown reuse id   | csv | plan | 3: reuse: unknown id 'y'                       | $IV,reuse\nx,0,2,100,\nz,1,3,100,y\n
unknown alias id   | csv | plan | 2: alias: unknown id 'q'                       | $IV,alias\nx,0,2,100,q\n
alias of itself    | csv | plan | 2: alias: a record cannot name itself          | $IV,alias\nx,0,2,100,x\n
reuse of a live    | csv | plan | 3: reuse: 'x' \(line 2\) is live until step 4 | $IV,reuse\nx,0,5,100,\nz,1,3,100,x\n
reuse of a later   | csv | plan | 3: reuse: 'x' \(line 2\) begins no earlier    | $IV,reuse\nx,1,2,100,\nz,1,3,100,x\n
reuse too large    | csv | plan | 3: reuse: this record \(200 bytes\) does not fit | $IV,reuse\nx,0,2,100,\nz,1,3,200,x\n
gaps on a link     | csv | plan | 3: reuse: a linked record cannot have gaps     | $IV,reuse,gaps\nx,0,2,100,,0-1\nz,1,3,100,x,\n
alias cycle        | csv | plan | 3: alias: the aliases form a cycle              | $IV,alias\nx,0,2,100,z\nz,1,3,100,x\n
fixed apart        | csv | plan | 3: offset: aliased records fixed at different   | $IV,alias,offset\nx,0,2,100,,0\nz,1,3,100,x,128\n
view keeps it live | csv | plan | 3: reuse: the buffer is still in use after step 1 | $IV,reuse,alias\nx,0,2,100,,\nz,1,3,100,x,\nw,0,4,100,,x\n
links with passes  | csv | plan | 3: reuse: links cannot be combined with passes  | $IV,reuse,pass\nx,0,2,100,,1\nz,1,3,100,x,1\n
EOF2

cli_finish cli_plan_reuse
