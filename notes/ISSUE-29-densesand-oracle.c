/* the new build's minimum against ref_plan_optimum on ref_plan_random_trial instances (n <= 12), and the
   capacity question one below the optimum must be a NO */
#include "bench.h"
int main(void) {
  int32_t trial, bad = 0, sandy = 0, gap = 0;
  for (trial = 0; trial < 2000; trial++) {
    dnnmem_interval r[64]; dnnmem_intervals p; int64_t off[65], opt; dnnmem_rng rng; size_t bytes = 0; void *scr;
    dnnmem__exact_params pa; dnnmem__exact_outcome out; int32_t i;
    dnnmem_rng_seed(&rng, 77 + (uint64_t)trial);
    ref_plan_random_trial(&rng, trial, r, &p, 0, 64, 0, 0, 0);
    if (p.count > 10) continue;
    opt = ref_plan_optimum(&p, NULL);
    dnnmem__exact_scratch_size(p.count, 0, 0, &bytes); scr = malloc(bytes);
    memset(&pa, 0, sizeof pa);
    dnnmem__exact_solve(r, p.count, p.alignment > 0 ? p.alignment : 1, &pa, off, &out, scr, bytes);
    if (out.arena != opt || ref_plan_recount(&p, off) != opt || !out.optimal) bad++;
    if (opt > 1) { memset(&pa, 0, sizeof pa); pa.capacity = opt - 1;
      dnnmem__exact_solve(r, p.count, p.alignment > 0 ? p.alignment : 1, &pa, off, &out, scr, bytes);
      if (out.feasible != 0) bad++; if (opt > ref_plan_max_load(r, p.count)) gap++; }
    for (i = 0; i < p.count; i++) sandy += r[i].size == 64 && r[i].upper - r[i].lower == 1;
    free(scr);
  }
  printf("bad %d, optimum above the load in %d, short one-unit records %d\n", bad, gap, sandy);
  return bad != 0;
}
