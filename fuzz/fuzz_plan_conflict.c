/* Fuzz target for conflict sets (dnnmem_plan_conflict): on small inputs
   (up to 7 records, fixed ones, alignment, gaps with and without windows)
   every answer is re-solved by the brute-force oracle of tests/ref.h: a
   feasible answer only when the optimum fits the capacity; a conflict's ids
   ascending and in range, its records alone over the capacity, and for a
   minimal set every set less one record within it; a proven infeasible
   whole problem (dnnmem_plan_solve, exact) always gets a conflict; OUTPUT_TOO_SMALL
   reports the same count; short scratch gives the error, never an overrun;
   bad records get dnnmem_intervals_check's code. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"
#include "tests/ref.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  fuzz_small s;
  dnnmem_intervals p = fuzz_small_problem(&in, &s, 0);
  int64_t off[FUZZ_SMALL_RECORDS], optimum = -1;
  int windows = s.windows, n = p.count, i;
  int32_t ids[FUZZ_SMALL_RECORDS], fewer[FUZZ_SMALL_RECORDS];
  size_t bytes = 0, solve_bytes = 0;
  unsigned char *scratch;
  dnnmem_plan_options opt;
  dnnmem_plan_conflict_result res, again;
  dnnmem_plan_result whole;
  dnnmem_result rc;
  memset(&opt, 0, sizeof(opt));
  opt.node_limit = 20000;
  opt.capacity = 1 + (int64_t)(fuzz_u8(&in) % 24);
  if (fuzz_u8(&in) == 0xEE) opt.capacity = -opt.capacity; /* refused */
  rc = dnnmem_plan_conflict_scratch_size(&p, &opt, &bytes);
  if (opt.capacity < 0) {
    FUZZ_CHECK(rc == DNNMEM_ERR_NEGATIVE);
    return 0;
  }
  if (rc != DNNMEM_OK) return 0;
  opt.algo = DNNMEM_PLAN_EXACT;
  FUZZ_CHECK(dnnmem_plan_solve_scratch_size(&p, &opt, &solve_bytes) == DNNMEM_OK);
  if (solve_bytes > bytes) abort(); /* the conflict's scratch holds a solve's */
  scratch = (unsigned char *)malloc(bytes + 1);
  rc = dnnmem_plan_conflict(&p, &opt, ids, FUZZ_SMALL_RECORDS, &res, scratch + 1, bytes);
  if (dnnmem_intervals_check(&p, NULL) != DNNMEM_OK) {
    FUZZ_CHECK(rc == dnnmem_intervals_check(&p, NULL));
    free(scratch);
    return 0;
  }
  if (rc == DNNMEM_ERR_PLAN_FIXED_COLLISION) {
    FUZZ_CHECK(ref_plan_optimum(&p, NULL) == -1);
    free(scratch);
    return 0;
  }
  FUZZ_CHECK(rc == DNNMEM_OK);
  FUZZ_CHECK(res.feasible >= -1 && res.feasible <= 1 && res.decisions >= 1 && res.nodes >= 0);
  FUZZ_CHECK(dnnmem_plan_solve(&p, &opt, off, &whole, scratch, bytes) == DNNMEM_OK);
  if (!windows || n <= FUZZ_WINDOW_ORACLE_RECORDS) optimum = ref_plan_optimum(&p, NULL);
  if (res.feasible == 1) {
    FUZZ_CHECK(res.count == 0 && whole.feasible == 1);
    if (optimum >= 0) FUZZ_CHECK(optimum <= opt.capacity);
  } else if (res.feasible == -1) {
    FUZZ_CHECK(res.count == 0 && res.minimal == 0 && whole.feasible == -1);
    FUZZ_CHECK(res.stop != DNNMEM_PLAN_STOP_PROVED);
  } else {
    FUZZ_CHECK(res.count >= 1 && res.count <= n);
    FUZZ_CHECK(whole.feasible != 1);
    for (i = 0; i < res.count; i++) FUZZ_CHECK(ids[i] >= 0 && ids[i] < n && (i == 0 || ids[i] > ids[i - 1]));
    FUZZ_CHECK(res.minimal || res.stop != DNNMEM_PLAN_STOP_PROVED);
    if (!windows || res.count <= FUZZ_WINDOW_ORACLE_RECORDS) {
      FUZZ_CHECK(ref_plan_optimum_of(&p, ids, res.count, -1) > opt.capacity);
      if (res.minimal)
        for (i = 0; i < res.count; i++) FUZZ_CHECK(ref_plan_optimum_of(&p, ids, res.count, ids[i]) <= opt.capacity);
    }
  }
  if (whole.feasible == 0) FUZZ_CHECK(res.feasible == 0);
  /* the same input, the same answer; a short output reports the count */
  FUZZ_CHECK(dnnmem_plan_conflict(&p, &opt, fewer, FUZZ_SMALL_RECORDS, &again, scratch, bytes) == DNNMEM_OK);
  FUZZ_CHECK(memcmp(&res, &again, sizeof res) == 0 && memcmp(ids, fewer, (size_t)res.count * sizeof(int32_t)) == 0);
  if (res.count > 0) {
    FUZZ_CHECK(dnnmem_plan_conflict(&p, &opt, fewer, res.count - 1, &again, scratch, bytes) ==
               DNNMEM_ERR_OUTPUT_TOO_SMALL);
    FUZZ_CHECK(again.count == res.count);
  }
  free(scratch);
  if (n > 0) { /* a short buffer is refused, not overrun */
    unsigned char *tight = (unsigned char *)malloc(bytes / 2 + 1);
    FUZZ_CHECK(dnnmem_plan_conflict(&p, &opt, ids, FUZZ_SMALL_RECORDS, &res, tight, bytes / 2) ==
               DNNMEM_ERR_SCRATCH_TOO_SMALL);
    free(tight);
  }
  return 0;
}
