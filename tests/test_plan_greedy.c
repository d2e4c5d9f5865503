/* Tests of greedy by size (dnnmem_plan_* with algo greedy-size): the
   library's plan equals, offset for offset, the plain O(n^3) rule of
   tests/ref.h (ref_plan_greedy_size) on random instances with ties in
   size and offset, zero sizes, alignments and fixed records, where every
   tie-break shows; every plan is also recounted. */
#include <stdlib.h>
#include <string.h>

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "../examples/dnnmem_files.h"
#include "ref.h"
#include "test.h"

static void test_same_plans_as_the_plain_rule(void) {
  dnnmem_rng rng;
  int32_t trial, bad = 0;
  dnnmem_rng_seed(&rng, 2024);
  for (trial = 0; trial < 3000; trial++) {
    dnnmem_interval r[REF_PLAN_GREEDY_MAX];
    int64_t off[REF_PLAN_GREEDY_MAX], want[REF_PLAN_GREEDY_MAX], arena;
    int32_t n = 1 + (int32_t)dnnmem_rng_below(&rng, trial < 2000 ? 12 : REF_PLAN_GREEDY_MAX), i, j;
    int64_t span = 2 + dnnmem_rng_below(&rng, 30), align = trial % 5 == 0 ? 4 : 0;
    dnnmem_intervals p;
    dnnmem_plan_options opt;
    dnnmem_plan_result res;
    size_t bytes = 0;
    void *scratch;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, (uint32_t)span);
      memset(&r[i], 0, sizeof r[i]);
      r[i].lower = lo;
      r[i].upper = lo + 1 + dnnmem_rng_below(&rng, 8);
      r[i].size = dnnmem_rng_below(&rng, 10) == 0 ? 0 : 1 + dnnmem_rng_below(&rng, trial % 2 ? 4 : 40);
      if (dnnmem_rng_below(&rng, 6) == 0) r[i].alignment = 8;
    }
    for (i = 0; trial % 3 == 0 && i < n; i++) { /* a few fixed records, apart */
      int64_t x = 16 * dnnmem_rng_below(&rng, 4);
      if (dnnmem_rng_below(&rng, 5) != 0) continue;
      for (j = 0; j < n; j++)
        if ((r[j].flags & DNNMEM_INTERVAL_FIXED) && ref_plan_collide(&r[i], x, &r[j], r[j].fixed_offset)) break;
      if (j < n) continue;
      r[i].flags |= DNNMEM_INTERVAL_FIXED;
      r[i].fixed_offset = x;
    }
    p.records = r, p.count = n, p.alignment = align;
    memset(&opt, 0, sizeof opt);
    opt.algo = DNNMEM_PLAN_GREEDY_SIZE;
    CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, &opt, &bytes), DNNMEM_OK);
    scratch = malloc(bytes);
    CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, bytes), DNNMEM_OK);
    free(scratch);
    arena = ref_plan_greedy_size(&p, want);
    for (i = 0; i < n && off[i] == want[i]; i++) continue;
    if (i < n || res.arena != arena || ref_plan_recount(&p, off) != arena) {
      if (bad++ < 5) fprintf(stderr, "trial %d: n=%d record %d at %lld, the rule says %lld\n", trial, n, i,
                             (long long)(i < n ? off[i] : -1), (long long)(i < n ? want[i] : -1));
    }
  }
  CHECK_EQ(bad, 0);
}

int main(void) {
  RUN(test_same_plans_as_the_plain_rule);
  return test_finish("test_plan_greedy");
}
