/* tests/test_scratch.c: the scratch bytes the planning calls ask for, on
   two fixed instances, pinned (64-bit builds; elsewhere only asked). An
   array one element too long works and every other test passes: only its
   size shows it (mutation testing found such counts unchecked). A change
   that takes more or less memory on purpose re-records the table: the
   test prints what it measured. */
#include <stdio.h>
#include <string.h>

/* the figures are the plain layout's: without the test builds' guard
   headers (which add 16 bytes a block), so this file has its own copy */
#undef DNNMEM_SCRATCH_GUARD
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "test.h"

#define KINDS (DNNMEM_PLAN_ALGO_COUNT + 6)

/* n records, lifetimes and sizes in a fixed pattern (n = 64: 2n is a
   multiple of the time tree's 64-segment leaves, where a rounding shows) */
static void instance(dnnmem_interval *r, int32_t n) {
  int32_t i;
  memset(r, 0, (size_t)n * sizeof *r);
  for (i = 0; i < n; i++) {
    r[i].lower = i;
    r[i].upper = i + 1 + i % 7;
    r[i].size = 64 * (1 + (i * 37) % 11);
  }
}

/* sizes[k]: plan_solve's for algorithm k, then plan_lower_bound,
   plan_check, share_lower_bound, plan_chains, share_solve, flow (n nodes,
   4n arcs) */
static void measure(int32_t n, size_t *sizes) {
  dnnmem_interval *r = (dnnmem_interval *)malloc((size_t)n * sizeof *r);
  dnnmem_intervals p;
  dnnmem_plan_options opt;
  dnnmem_share_options so;
  int32_t k;
  instance(r, n);
  p.records = r, p.count = n, p.alignment = 1;
  for (k = 0; k < KINDS; k++) sizes[k] = 0;
  for (k = 0; k < DNNMEM_PLAN_ALGO_COUNT; k++) {
    memset(&opt, 0, sizeof opt);
    opt.algo = (dnnmem_plan_algo)k;
    CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, &opt, &sizes[k]), DNNMEM_OK);
  }
  memset(&opt, 0, sizeof opt);
  memset(&so, 0, sizeof so);
  CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(&p, &sizes[k]), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_check_scratch_size(&p, &sizes[k + 1]), DNNMEM_OK);
  CHECK_EQ(dnnmem_share_lower_bound_scratch_size(&p, &sizes[k + 2]), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_chains_scratch_size(&p, &sizes[k + 3]), DNNMEM_OK);
  CHECK_EQ(dnnmem_share_solve_scratch_size(&p, &so, &sizes[k + 4]), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_scratch_size(n, 4 * n, &sizes[k + 5]), DNNMEM_OK);
  free(r);
}

static void check_sizes(int32_t n, const size_t *want, int32_t count) {
  size_t got[KINDS];
  int32_t k, same = count == KINDS;
  measure(n, got);
  for (k = 0; k < KINDS; k++) {
    CHECK(got[k] > 0);
    if (same && got[k] != want[k]) same = 0;
  }
  if (sizeof(void *) == 8 && sizeof(size_t) == 8 && !same) {
    fprintf(stderr, "scratch sizes for n = %d differ from the record; measured:\n   ", n);
    for (k = 0; k < KINDS; k++) fprintf(stderr, " %lu,", (unsigned long)got[k]);
    fprintf(stderr, "\n");
    CHECK(same);
  }
}

static void test_scratch_64(void) {
  /* the exact block's nogood store: +53504 = 64 x (64 entries x 12 + 4 nogoods x 16 + 4);
     its twins (issue 29): +256 = 64 x 4; greedy-size's anchor columns (issue 29): +4160 =
     64 x 4 runs x 16 + 2 x 8 list slots x 4; the exact search's seams (issue 29): +4400 =
     64 x 52 (by end, floors, crossing heights) + 1072 (two rows of 64 words, alignment); the
     cell's steps (issue 29): +6304 = 130 sections x 4 lean entries x 8 (old floors, counts and
     flags) + 64 (a safe flag a record) + 65 frames x 32 (where each step wrote); the
     nogood watch's skip, the kept hash terms and the span filter (issue 29): +4880 = 256
     nogoods x 12 (serial, frame) + 64 x 20 (term, its offset, span end by search position) +
     65 frames x 8 (serial) + 8 alignment */
  static const size_t want[] = {656447, 656447, 656447, 656447, 656447, 656447, 656447, 27375,
                                656447, 4111,   9999,   9231,   4383,   30575,  22911};
  check_sizes(64, want, (int32_t)(sizeof want / sizeof want[0]));
}

static void test_scratch_7(void) {
  /* the cell's steps: +784 = 16 x 4 x 8 + 8 flags + 8 frames x 32 + 8 alignment; the
     nogood watch's skip, the kept hash terms and the span filter: +560 = 28 x 12 + 7 x 20 +
     8 x 8 + 20 alignment */
  static const size_t want[] = {68063, 68063, 68063, 68063, 68063, 68063, 68063, 3359,
                                68063, 479,   1231,  1135,  559,   3759,  2575};
  check_sizes(7, want, (int32_t)(sizeof want / sizeof want[0]));
}

/* past 256 records the short exact search's memo table reaches its cap */
static void test_scratch_300(void) {
  /* the cell's steps: +29200 = 602 x 4 x 8 + 304 flags + 301 frames x 32; the nogood
     watch's skip, the kept hash terms and the span filter: +22816 = 1200 x 12 + 300 x 20 +
     301 x 8 + 8 */
  static const size_t want[] = {3186975, 3186975, 3186975, 3186975, 3186975, 3186975, 3186975, 142463,
                                3186975, 19215,   60383,   49999,   20431,   163263,  107167};
  check_sizes(300, want, (int32_t)(sizeof want / sizeof want[0]));
}

int main(void) {
  RUN(test_scratch_64);
  RUN(test_scratch_7);
  RUN(test_scratch_300);
  return test_finish("test_scratch");
}
