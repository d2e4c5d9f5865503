/* The embedded planner, TensorFlow Lite Micro's greedy planner's
   replacement: the heuristics, the checker and the lower bound alone
   (DNNMEM_ONLY_PLAN, DNNMEM_NO_EXACT, DNNMEM_NO_LINKS: no exact search, no
   in-place or alias links) in at most 20 KB of .text at -Os with
   --gc-sections (run_tests.sh sums its dnnmem functions as for
   tests/size_planner.c). It also runs: every strategy plans the same small
   problem, the plan passes its check, no plan is below the bound, and a
   link is refused with the record and field named. */
#define DNNMEM_ONLY_PLAN
#define DNNMEM_NO_EXACT
#define DNNMEM_NO_LINKS
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

#include <stdlib.h>

#define N 6

int main(void) {
  static const int64_t lifetimes[N][3] = {{0, 2, 4096}, {1, 3, 8192}, {2, 4, 4096},
                                          {3, 5, 8192}, {0, 5, 1024}, {4, 6, 2048}};
  dnnmem_interval records[N] = {{0}};
  dnnmem_intervals problem = {records, N, 64};
  dnnmem_plan_options options = {DNNMEM_PLAN_BEST, 0, 0, NULL, NULL};
  dnnmem_plan_result planned, checked, bound;
  dnnmem_error e;
  int64_t offsets[N];
  size_t bytes = 0, most = 0;
  int32_t i, a, failed = 0;
  void *scratch;
  for (i = 0; i < N; i++) {
    records[i].lower = lifetimes[i][0];
    records[i].upper = lifetimes[i][1];
    records[i].size = lifetimes[i][2];
  }
  failed |= dnnmem_plan_solve_scratch_size(&problem, &options, &most) != DNNMEM_OK;
  failed |= dnnmem_plan_check_scratch_size(&problem, &bytes) != DNNMEM_OK;
  most = bytes > most ? bytes : most;
  failed |= dnnmem_plan_lower_bound_scratch_size(&problem, &bytes) != DNNMEM_OK;
  most = bytes > most ? bytes : most;
  scratch = malloc(most);
  if (scratch == NULL) return 1;
  failed |= dnnmem_plan_lower_bound(&problem, &bound, scratch, most) != DNNMEM_OK;
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    options.algo = (dnnmem_plan_algo)a;
    failed |= dnnmem_plan_solve(&problem, &options, offsets, &planned, scratch, most) != DNNMEM_OK;
    failed |= dnnmem_plan_check(&problem, offsets, &checked, scratch, most) != DNNMEM_OK;
    failed |= checked.arena != planned.arena || planned.arena < bound.lower_bound;
  }
  records[2].flags = DNNMEM_INTERVAL_REUSE, records[2].reuse = 1; /* no links in this build */
  failed |= dnnmem_intervals_check(&problem, &e) != DNNMEM_ERR_INVALID_ARGUMENT || e.index != 2 ||
            e.field != DNNMEM_FIELD_REUSE;
  free(scratch);
  return failed;
}
