/* The embedded size target: planning and shared objects alone (heuristics,
   bound, checker, in-place reuse; no exact search, no other part) fit in 26 KB of .text at
   -Os on x86-64.

   Measure (the number is the .text of dnnmem.h's functions in the linked
   program: every function named dnnmem* that survives --gc-sections, with
   what the compiler inlined into it; the C library and main are not
   counted):
       gcc -std=c99 -Os -ffunction-sections -fdata-sections -Wl,--gc-sections \
           -I. tests/size_planner.c -o build/size_planner
       nm --size-sort -S build/size_planner |
           awk '$3 ~ /^[tT]$/ && $4 ~ /^dnnmem/ {s += strtonum("0x" $2)} END {print s}'
   (gawk; with another awk, sum the second column as hexadecimal.) The
   program also runs: it plans, bounds, checks and shares a small problem
   with every strategy and exits 0 when every answer is consistent. */
#define DNNMEM_NO_EXACT
#define DNNMEM_NO_COVER
#define DNNMEM_NO_REMAT
#define DNNMEM_NO_LAYOUT
#define DNNMEM_NO_PLACE
#define DNNMEM_NO_LABEL
#define DNNMEM_NO_FLOW
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

#include <stdlib.h>

#define N 6

int main(void) {
  static const int64_t lifetimes[N][3] = {{0, 2, 4096}, {1, 3, 8192}, {2, 4, 4096},
                                          {3, 5, 8192}, {0, 5, 1024}, {4, 6, 2048}};
  dnnmem_interval records[N] = {{0}};
  dnnmem_intervals problem;
  dnnmem_plan_options plan_options = {DNNMEM_PLAN_BEST, 0, 0, NULL, NULL};
  dnnmem_plan_result plan_result;
  dnnmem_share_options share_options = {DNNMEM_SHARE_BEST};
  dnnmem_share_result share_result;
  dnnmem_plan_algo plan_algo;
  dnnmem_share_algo share_algo;
  int64_t offsets[N], sizes[N], bound = 0, arena = 0;
  int32_t object_of[N], group_of[N], order[N], groups = 0, i, a, failed = 0;
  dnnmem_plan_result checked;
  dnnmem_plan_chains_result chained;
  dnnmem_share_result shared;
  size_t bytes = 0, most = 0;
  void *scratch;
  for (i = 0; i < N; i++) {
    records[i].lower = lifetimes[i][0];
    records[i].upper = lifetimes[i][1];
    records[i].size = lifetimes[i][2];
  }
  problem.records = records;
  problem.count = N;
  problem.alignment = 64;
  failed |= dnnmem_intervals_check(&problem, NULL) != DNNMEM_OK;
  failed |= dnnmem_interval_alignment(&records[0], problem.alignment) != 64;
  /* one buffer large enough for every operation */
  failed |= dnnmem_plan_solve_scratch_size(&problem, &plan_options, &bytes) != DNNMEM_OK;
  most = bytes;
  failed |= dnnmem_plan_lower_bound_scratch_size(&problem, &bytes) != DNNMEM_OK;
  most = bytes > most ? bytes : most;
  failed |= dnnmem_plan_check_scratch_size(&problem, &bytes) != DNNMEM_OK;
  most = bytes > most ? bytes : most;
  failed |= dnnmem_plan_chains_scratch_size(&problem, &bytes) != DNNMEM_OK;
  most = bytes > most ? bytes : most;
  failed |= dnnmem_share_solve_scratch_size(&problem, &share_options, &bytes) != DNNMEM_OK;
  most = bytes > most ? bytes : most;
  failed |= dnnmem_share_lower_bound_scratch_size(&problem, &bytes) != DNNMEM_OK;
  most = bytes > most ? bytes : most;
  failed |= dnnmem_share_check_scratch_size(&problem, &bytes) != DNNMEM_OK;
  most = bytes > most ? bytes : most;
  scratch = malloc(most);
  if (scratch == NULL) return 1;
  failed |= dnnmem_plan_lower_bound(&problem, &checked, scratch, most) != DNNMEM_OK;
  bound = checked.lower_bound;
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    failed |= dnnmem_plan_algo_parse(dnnmem_plan_algo_name((dnnmem_plan_algo)a), &plan_algo) != DNNMEM_OK;
    plan_options.algo = plan_algo;
    failed |= dnnmem_plan_solve(&problem, &plan_options, offsets, &plan_result, scratch, most) != DNNMEM_OK;
    failed |= dnnmem_plan_check(&problem, offsets, &checked, scratch, most) != DNNMEM_OK;
    arena = checked.arena;
    failed |= arena != plan_result.arena || plan_result.lower_bound != bound || arena < bound;
  }
  failed |= dnnmem_plan_chains(&problem, group_of, order, &chained, scratch, most) != DNNMEM_OK || chained.groups != 3;
  failed |= dnnmem_share_lower_bound(&problem, &shared, scratch, most) != DNNMEM_OK;
  bound = shared.lower_bound;
  for (a = 0; a < DNNMEM_SHARE_ALGO_COUNT; a++) {
    failed |= dnnmem_share_algo_parse(dnnmem_share_algo_name((dnnmem_share_algo)a), &share_algo) != DNNMEM_OK;
    share_options.algo = share_algo;
    failed |= dnnmem_share_solve(&problem, &share_options, object_of, sizes, &share_result, scratch, most) !=
              DNNMEM_OK;
    failed |= dnnmem_share_check(&problem, object_of, &shared, scratch, most) != DNNMEM_OK;
    failed |= shared.total != share_result.total || shared.objects != share_result.objects || shared.total < bound;
  }
  free(scratch);
  return failed;
}
