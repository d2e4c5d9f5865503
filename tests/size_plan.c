/* The embedded sizes: dnnmem.h's .text at -Os with --gc-sections on x86-64
   (run_tests.sh sums the size of every function named dnnmem* that
   survives, with what the compiler inlined into it; the C library and main
   are not counted) in two configurations of this one program:
     build/size_plan      the embedded planner, TensorFlow Lite Micro's
                          greedy planner's replacement: the heuristics, the
                          checker and the lower bound (DNNMEM_ONLY_PLAN,
                          DNNMEM_NO_EXACT, DNNMEM_NO_LINKS): at most 20 KB;
     build/size_planner   (-DSIZE_PLANNER) planning and shared objects with
                          in-place reuse and alias links, chains, no exact
                          search and no other part: at most 31 KB.
   Measure:
       gcc -std=c99 -Os -ffunction-sections -fdata-sections -Wl,--gc-sections \
           -I. tests/size_plan.c -o build/size_plan
       nm -S build/size_plan | awk '$3 ~ /^[tT]$/ && $4 ~ /^dnnmem/ {print $2}' |
           (s=0; while read -r h; do s=$((s + 0x$h)); done; echo $s)
   The program also runs: every strategy plans the same small problem, the
   plan passes its check and no plan is below the bound; the planner refuses
   a link with the record and field named; the planner's build also shares
   objects with every strategy and groups the records into chains. */
#define DNNMEM_NO_EXACT
#ifdef SIZE_PLANNER
#define DNNMEM_NO_FLOW /* and with it every part that needs it */
#define DNNMEM_NO_LAYOUT
#else
#define DNNMEM_ONLY_PLAN
#define DNNMEM_NO_LINKS
#endif
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

#include <stdlib.h>

#define N 6

static size_t most_of(size_t most, dnnmem_result r, size_t bytes, int32_t *failed) {
  *failed |= r != DNNMEM_OK;
  return bytes > most ? bytes : most;
}

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
#ifdef SIZE_PLANNER
  records[2].flags = DNNMEM_INTERVAL_REUSE, records[2].reuse = 1; /* 2 may overwrite 1 in place */
#endif
  failed |= dnnmem_intervals_check(&problem, &e) != DNNMEM_OK;
  failed |= dnnmem_interval_alignment(&records[0], problem.alignment) != 64;
  most = most_of(most, dnnmem_plan_solve_scratch_size(&problem, &options, &bytes), bytes, &failed);
  most = most_of(most, dnnmem_plan_check_scratch_size(&problem, &bytes), bytes, &failed);
  most = most_of(most, dnnmem_plan_lower_bound_scratch_size(&problem, &bytes), bytes, &failed);
#ifdef SIZE_PLANNER
  most = most_of(most, dnnmem_plan_chains_scratch_size(&problem, &bytes), bytes, &failed);
  most = most_of(most, dnnmem_share_solve_scratch_size(&problem, NULL, &bytes), bytes, &failed);
  most = most_of(most, dnnmem_share_lower_bound_scratch_size(&problem, &bytes), bytes, &failed);
  most = most_of(most, dnnmem_share_check_scratch_size(&problem, &bytes), bytes, &failed);
#endif
  scratch = malloc(most);
  if (scratch == NULL) return 1;
  failed |= dnnmem_plan_lower_bound(&problem, &bound, scratch, most) != DNNMEM_OK;
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    options.algo = (dnnmem_plan_algo)a;
    failed |= dnnmem_plan_solve(&problem, &options, offsets, &planned, scratch, most) != DNNMEM_OK;
    failed |= dnnmem_plan_check(&problem, offsets, &checked, scratch, most) != DNNMEM_OK;
    failed |= checked.arena != planned.arena || planned.arena < bound.lower_bound ||
              planned.lower_bound != bound.lower_bound;
  }
#ifdef SIZE_PLANNER
  {
    int32_t object_of[N], group_of[N], order[N];
    int64_t sizes[N];
    dnnmem_plan_chains_result chained;
    dnnmem_share_options share_options = {DNNMEM_SHARE_BEST};
    dnnmem_share_result shared, share_checked, share_bound;
    dnnmem_share_algo share_algo;
    dnnmem_plan_algo algo;
    records[2].flags = 0; /* shared objects: no links */
    failed |= dnnmem_plan_algo_parse(dnnmem_plan_algo_name(DNNMEM_PLAN_BESTFIT), &algo) != DNNMEM_OK ||
              algo != DNNMEM_PLAN_BESTFIT;
    failed |= dnnmem_plan_chains(&problem, group_of, order, &chained, scratch, most) != DNNMEM_OK ||
              chained.groups != 3;
    failed |= dnnmem_share_lower_bound(&problem, &share_bound, scratch, most) != DNNMEM_OK;
    for (a = 0; a < DNNMEM_SHARE_ALGO_COUNT; a++) {
      failed |= dnnmem_share_algo_parse(dnnmem_share_algo_name((dnnmem_share_algo)a), &share_algo) != DNNMEM_OK;
      share_options.algo = share_algo;
      failed |= dnnmem_share_solve(&problem, &share_options, object_of, sizes, &shared, scratch, most) != DNNMEM_OK;
      failed |= dnnmem_share_check(&problem, object_of, &share_checked, scratch, most) != DNNMEM_OK;
      failed |= share_checked.total != shared.total || share_checked.objects != shared.objects ||
                shared.total < share_bound.lower_bound;
    }
  }
#else
  records[2].flags = DNNMEM_INTERVAL_REUSE, records[2].reuse = 1; /* no links in this build */
  failed |= dnnmem_intervals_check(&problem, &e) != DNNMEM_ERR_INVALID_ARGUMENT || e.index != 2 ||
            e.field != DNNMEM_FIELD_REUSE;
#endif
  free(scratch);
  return failed;
}
