/* Fuzz target for exact interval planning: the exact plan is valid
   (dnnmem_plan_check and the recount of tests/ref.h, gaps and windows
   honoured), at least every proven lower bound and at most every
   heuristic's arena; against the oracle of tests/ref.h it is the optimum
   without windows (claimed optimal) and never below it with windows; the
   capacity question never answers wrongly, also with an undo log forced
   down to one entry; the stop reason agrees with what was proven (proved
   exactly when the answer is; else the node limit or, with gaps,
   incomplete). Short scratch gives the error. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"
#include "tests/ref.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  fuzz_small s;
  dnnmem_intervals p = fuzz_small_problem(&in, &s, 1);
  const dnnmem_interval *r = s.r;
  int64_t off[FUZZ_SMALL_RECORDS], optimum = -1;
  dnnmem_plan_result checked;
  int windows = s.windows, n = p.count, i, a;
  size_t bytes = 0, check_bytes = 0;
  unsigned char *scratch;
  dnnmem_plan_options opt;
  dnnmem_plan_result res, exact;
  dnnmem_result rc;
  memset(&opt, 0, sizeof(opt));
  opt.algo = DNNMEM_PLAN_EXACT;
  opt.node_limit = 5000;
  if (dnnmem_plan_solve_scratch_size(&p, &opt, &bytes) != DNNMEM_OK) return 0;
  if (dnnmem_plan_check_scratch_size(&p, &check_bytes) != DNNMEM_OK) abort();
  if (check_bytes > bytes) bytes = check_bytes;
  scratch = (unsigned char *)malloc(bytes + 1);
  rc = dnnmem_plan_solve(&p, &opt, off, &exact, scratch + 1, bytes);
  if (dnnmem_intervals_check(&p, NULL) != DNNMEM_OK) {
    FUZZ_CHECK(rc == dnnmem_intervals_check(&p, NULL));
    free(scratch);
    return 0;
  }
  if (!windows || n <= FUZZ_WINDOW_ORACLE_RECORDS) optimum = ref_plan_optimum(&p, NULL);
  if (rc == DNNMEM_ERR_PLAN_FIXED_COLLISION) { /* must really collide */
    int j, hit = 0;
    for (i = 0; i < n; i++)
      for (j = 0; j < i; j++)
        hit |= (r[i].flags & r[j].flags & DNNMEM_INTERVAL_FIXED) &&
               ref_plan_collide(&r[i], r[i].fixed_offset, &r[j], r[j].fixed_offset);
    FUZZ_CHECK(hit && (optimum == -1));
    free(scratch);
    return 0;
  }
  FUZZ_CHECK(rc == DNNMEM_OK);
  FUZZ_CHECK(exact.algo == DNNMEM_PLAN_EXACT);
  FUZZ_CHECK(ref_plan_recount(&p, off) == exact.arena);
  FUZZ_CHECK(dnnmem_plan_check(&p, off, &checked, scratch, bytes) == DNNMEM_OK && checked.arena == exact.arena);
  FUZZ_CHECK(exact.arena >= exact.lower_bound && exact.optimal == (exact.arena == exact.lower_bound));
  FUZZ_CHECK((exact.stop == DNNMEM_PLAN_STOP_PROVED) == exact.optimal);
  FUZZ_CHECK(exact.optimal || exact.stop == DNNMEM_PLAN_STOP_NODES ||
             (exact.stop == DNNMEM_PLAN_STOP_INCOMPLETE && p.count > 0));
  FUZZ_CHECK(exact.stop != DNNMEM_PLAN_STOP_NODES || exact.nodes >= opt.node_limit);
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) { /* at most every heuristic, at least every proven bound */
    opt.algo = (dnnmem_plan_algo)a;
    FUZZ_CHECK(dnnmem_plan_solve(&p, &opt, off, &res, scratch, bytes) == DNNMEM_OK);
    FUZZ_CHECK(exact.arena <= res.arena);
    FUZZ_CHECK(exact.lower_bound <= res.arena && res.lower_bound <= exact.arena);
  }
  if (optimum >= 0) {
    FUZZ_CHECK(exact.lower_bound <= optimum && exact.arena >= optimum);
    if (exact.optimal) FUZZ_CHECK(exact.arena == optimum);
    for (a = -2; a <= 1; a++) { /* the capacity question around the optimum */
      opt.algo = DNNMEM_PLAN_EXACT;
      opt.capacity = optimum + a;
      if (opt.capacity < 1) continue;
      FUZZ_CHECK(dnnmem_plan_solve(&p, &opt, off, &res, scratch, bytes) == DNNMEM_OK);
      FUZZ_CHECK(ref_plan_recount(&p, off) == res.arena); /* always a valid plan */
      FUZZ_CHECK(res.feasible != 1 || (opt.capacity >= optimum && res.arena <= opt.capacity));
      FUZZ_CHECK(res.feasible != 0 || opt.capacity < optimum);
      FUZZ_CHECK((res.stop == DNNMEM_PLAN_STOP_PROVED) == (res.feasible != -1));
    }
    opt.capacity = 0;
  }
  if (optimum >= 0 && !windows && n > 0) { /* the search with a log of one entry */
    dnnmem__exact_params ep;
    dnnmem__exact_outcome eo;
    size_t eb = 0;
    int64_t num_gaps = 0;
    int32_t k;
    unsigned char *es;
    for (k = 0; k < n; k++) num_gaps += r[k].num_gaps;
    memset(&ep, 0, sizeof ep);
    ep.log_limit = 1;
    ep.node_limit = 20000;
    FUZZ_CHECK(dnnmem__exact_scratch_size(n, num_gaps, 0, &eb) == DNNMEM_OK);
    es = (unsigned char *)malloc(eb);
    for (a = -1; a <= 0; a++) {
      ep.capacity = optimum + a;
      if (ep.capacity < 1) continue;
      FUZZ_CHECK(dnnmem__exact_solve(r, n, p.alignment, &ep, off, &eo, es, eb) == DNNMEM_OK);
      FUZZ_CHECK(eo.feasible == (a == 0 ? 1 : 0) || eo.stop == DNNMEM_PLAN_STOP_NODES);
      if (eo.feasible == 1) FUZZ_CHECK(ref_plan_recount(&p, off) >= 0 && ref_plan_recount(&p, off) <= optimum);
    }
    free(es);
  }
  if (n > 0) { /* a short buffer is refused, not overrun */
    unsigned char *tight = (unsigned char *)malloc(bytes / 2);
    opt.algo = DNNMEM_PLAN_EXACT;
    FUZZ_CHECK(dnnmem_plan_solve(&p, &opt, off, &res, tight, bytes / 2) == DNNMEM_ERR_SCRATCH_TOO_SMALL);
    free(tight);
  }
  free(scratch);
  return 0;
}
