/* Fuzz target for pools (dnnmem_plan_pools_*): on small inputs (up to 6
   records, 1 to 3 pools with capacities, costs and alignments, allowed
   lists in any order, fixed records, alignment, gaps) every answer is
   checked by the oracles of tests/ref.h: a plan's recount (allowed pools,
   the plan rules inside each pool, capacities) equals the reported cost
   and dnnmem_plan_pools_check agrees; the lower bound never exceeds the
   brute-force optimum and "infeasible" only when the oracle finds no plan;
   a proven exact answer (no gaps) is the optimum; the checker accepts a
   perturbed plan exactly when the recount does; the same input gives the
   same plan; short scratch gives the error, never an overrun. With mode
   bit 128, ALIAS and REUSE links (mostly valid ones): the code of every
   operation is the rule's (ref_plan_reuse_rule), the oracles tie records
   as the links allow. Without links, a problem without a plan gets a
   conflict set (dnnmem_plan_pools_conflict): the oracle finds no plan for
   it and, when it is called minimal, one for it less any record.
   Max length: 128 */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"
#include "tests/ref.h"

#define MAX_RECORDS 6
#define MAX_POOLS 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  dnnmem_interval r[MAX_RECORDS];
  dnnmem_gap gaps[MAX_RECORDS];
  dnnmem_pool pools[MAX_POOLS];
  dnnmem_intervals iv;
  dnnmem_plan_pools p;
  dnnmem_plan_pools_options opt;
  dnnmem_plan_pools_result res, again;
  int32_t offsets_of[MAX_RECORDS + 1], ids[MAX_RECORDS * MAX_POOLS], pool_of[MAX_RECORDS], pool2[MAX_RECORDS];
  dnnmem_plan_pools_result checked;
  int64_t off[MAX_RECORDS], off2[MAX_RECORDS], arenas[MAX_POOLS], bound = -1, optimum, load = 0;
  int n = (int)(fuzz_u8(&in) % (MAX_RECORDS + 1)), P = 1 + (int)(fuzz_u8(&in) % MAX_POOLS), i, q, k = 0, gapped = 0;
  int linked = 0;
  uint32_t mode = fuzz_u8(&in);
  size_t bytes = 0, bound_bytes = 0, check_bytes = 0;
  unsigned char *scratch;
  dnnmem_result rc, brc;
  iv.records = r, iv.count = n, iv.alignment = (int64_t)1 << (fuzz_u8(&in) % 3);
  for (i = 0; i < n; i++) {
    uint32_t flags = fuzz_u8(&in);
    int64_t lower = fuzz_u8(&in) % 10, length = 1 + fuzz_u8(&in) % 5; /* in this order on every compiler */
    r[i] = ref_plan_record(lower, lower + length, fuzz_u8(&in) % 9);
    load += r[i].size;
    if (flags & 1) r[i].alignment = (int64_t)1 << (fuzz_u8(&in) % 3);
    if ((flags & 6) == 6) r[i].flags |= DNNMEM_INTERVAL_FIXED, r[i].fixed_offset = (int64_t)(fuzz_u8(&in) % 4) * 4;
    if ((flags & 48) == 48 && r[i].upper - r[i].lower >= 3) {
      gaps[i].lower = r[i].lower + 1, gaps[i].upper = r[i].upper - 1;
      gaps[i].window_lower = gaps[i].window_upper = 0;
      r[i].gaps = &gaps[i], r[i].num_gaps = 1;
      gapped = 1;
    }
  }
  for (i = 0; i < n && (mode & 128); i++) { /* links: an alias, or a reuse of a record dying where i begins */
    uint32_t how = fuzz_u8(&in), j = fuzz_u8(&in) % (uint32_t)n, t;
    if (how % 3 == 1) {
      r[i].flags |= DNNMEM_INTERVAL_ALIAS, r[i].alias = (int32_t)j;
    } else if (how % 3 == 2) {
      for (t = 0; t < (uint32_t)n; t++) {
        int32_t c = (int32_t)((j + t) % (uint32_t)n);
        if (r[c].upper == r[i].lower + 1 && r[c].lower < r[i].lower && r[c].size >= r[i].size) break;
      }
      r[i].flags |= DNNMEM_INTERVAL_REUSE;
      r[i].reuse = t < (uint32_t)n ? (int32_t)((j + t) % (uint32_t)n) : (int32_t)j;
    }
    linked |= how % 3 != 0;
  }
  for (q = 0; q < P; q++) {
    memset(&pools[q], 0, sizeof(pools[q]));
    pools[q].capacity = fuzz_u8(&in) % 3 == 0 ? 0 : (int64_t)(fuzz_u8(&in) % (load + 6));
    pools[q].cost = fuzz_u8(&in) % 12;
    pools[q].alignment = fuzz_u8(&in) % 4 == 0 ? 4 : 0;
  }
  memset(&p, 0, sizeof p);
  p.intervals = &iv, p.pools = pools, p.num_pools = P;
  if (mode & 1) { /* lists: each pool with probability 2/3, in a rotated order */
    offsets_of[0] = 0;
    for (i = 0; i < n; i++) {
      uint32_t pick = fuzz_u8(&in), rot = pick % (uint32_t)P;
      for (q = 0; q < P; q++)
        if ((pick >> (2 + q)) % 3) ids[k++] = (int32_t)((q + rot) % (uint32_t)P);
      offsets_of[i + 1] = k;
    }
    p.allowed_offsets = offsets_of, p.allowed_ids = ids;
  }
  memset(&opt, 0, sizeof opt);
  opt.algo = (dnnmem_plan_pools_algo)((mode >> 1) % DNNMEM_PLAN_POOLS_ALGO_COUNT);
  opt.node_limit = (mode & 64) ? 1 + (mode >> 3) % 7 : 0;
  FUZZ_CHECK(dnnmem_plan_pools_solve_scratch_size(&p, &opt, &bytes) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_plan_pools_lower_bound_scratch_size(&p, &bound_bytes) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_plan_pools_check_scratch_size(&p, &check_bytes) == DNNMEM_OK);
  if (bound_bytes > bytes) bytes = bound_bytes;
  if (check_bytes > bytes) bytes = check_bytes;
  scratch = (unsigned char *)malloc(bytes + 1);
  brc = dnnmem_plan_pools_lower_bound(&p, &checked, scratch + 1, bytes);
  bound = checked.lower_bound;
  rc = dnnmem_plan_pools_solve(&p, &opt, pool_of, off, arenas, &res, scratch + 1, bytes);
  if (linked) { /* broken links: the rule's code (a record fitting no pool may be found before a class rule) */
    dnnmem_result record_rule = dnnmem_intervals_check(&iv, NULL), want = record_rule;
    if (want == DNNMEM_OK) want = ref_plan_reuse_rule(&iv);
    if (want != DNNMEM_OK) {
      FUZZ_CHECK(rc == brc && (rc == want || (record_rule == DNNMEM_OK && rc == DNNMEM_ERR_PLAN_POOL_CAPACITY)));
      FUZZ_CHECK(dnnmem_plan_pools_check(&p, pool_of, off, NULL, NULL, scratch, bytes) == want);
      free(scratch);
      return 0;
    }
  }
  if (rc == DNNMEM_ERR_PLAN_POOL_CAPACITY) { /* some record fits none of its pools alone */
    FUZZ_CHECK(brc == rc && ref_pools_optimum(&p) == -1);
    free(scratch);
    return 0;
  }
  FUZZ_CHECK(brc == DNNMEM_OK || brc == DNNMEM_ERR_INFEASIBLE);
  optimum = ref_pools_optimum(&p);
  if (brc == DNNMEM_ERR_INFEASIBLE) FUZZ_CHECK(optimum == -1 && rc == DNNMEM_ERR_INFEASIBLE && res.feasible == 0);
  else FUZZ_CHECK(optimum == -1 || bound <= optimum);
  if (optimum == -1 && !linked) { /* why not: the conflict set, re-solved by the oracle */
    dnnmem_plan_conflict_result cr;
    int32_t conflict[MAX_RECORDS];
    uint8_t member[MAX_RECORDS];
    size_t cb = 0;
    unsigned char *cs;
    dnnmem_plan_pools_options co = opt;
    co.node_limit = 0;
    FUZZ_CHECK(dnnmem_plan_pools_conflict_scratch_size(&p, &co, &cb) == DNNMEM_OK);
    cs = (unsigned char *)malloc(cb + 1);
    FUZZ_CHECK(dnnmem_plan_pools_conflict(&p, &co, conflict, MAX_RECORDS, &cr, cs, cb) == DNNMEM_OK);
    FUZZ_CHECK(cr.feasible != 1);
    if (cr.feasible == 0) {
      memset(member, 0, sizeof member);
      for (i = 0; i < cr.count; i++) member[conflict[i]] = 1;
      FUZZ_CHECK(cr.count >= 1 && ref_pools_optimum_of(&p, member) == -1);
      for (i = 0; i < cr.count && cr.minimal; i++) {
        member[conflict[i]] = 0;
        FUZZ_CHECK(ref_pools_optimum_of(&p, member) >= 0);
        member[conflict[i]] = 1;
      }
    }
    if (!gapped) FUZZ_CHECK(cr.feasible == 0 && cr.minimal == 1); /* exact decisions without limits */
    free(cs);
  }
  if (rc == DNNMEM_ERR_INFEASIBLE) {
    FUZZ_CHECK(res.feasible != 1);
    if (res.feasible == 0) FUZZ_CHECK(optimum == -1);
    if (opt.algo == DNNMEM_PLAN_POOLS_EXACT && opt.node_limit == 0 && !gapped && !linked) FUZZ_CHECK(res.feasible == 0);
  } else {
    int64_t ref_arenas[MAX_POOLS];
    FUZZ_CHECK(rc == DNNMEM_OK && res.feasible == 1);
    FUZZ_CHECK(ref_pools_recount(&p, pool_of, off, ref_arenas) == res.cost);
    for (q = 0; q < P; q++) FUZZ_CHECK(arenas[q] == ref_arenas[q]);
    FUZZ_CHECK(dnnmem_plan_pools_check(&p, pool_of, off, NULL, &checked, scratch, bytes) == DNNMEM_OK);
    FUZZ_CHECK(checked.cost == res.cost);
    FUZZ_CHECK(optimum >= 0 && res.cost >= optimum && res.lower_bound <= optimum && res.lower_bound >= bound);
    FUZZ_CHECK(res.optimal == (res.cost == res.lower_bound));
    if (res.optimal) FUZZ_CHECK(res.cost == optimum);
    if (opt.algo == DNNMEM_PLAN_POOLS_EXACT && opt.node_limit == 0 && !gapped && !linked)
      FUZZ_CHECK(res.stop == DNNMEM_PLAN_STOP_PROVED && res.cost == optimum);
    /* the same input, the same plan */
    FUZZ_CHECK(dnnmem_plan_pools_solve(&p, &opt, pool2, off2, NULL, &again, scratch, bytes) == DNNMEM_OK);
    FUZZ_CHECK(memcmp(&res, &again, sizeof res) == 0);
    for (i = 0; i < n; i++) FUZZ_CHECK(pool_of[i] == pool2[i] && off[i] == off2[i]);
    /* a perturbed plan: the checker agrees with the recount */
    if (n > 0) {
      uint32_t which = fuzz_u8(&in) % (uint32_t)n, how = fuzz_u8(&in);
      if (how & 1) pool_of[which] = (int32_t)((uint32_t)pool_of[which] + 1 + (how >> 1) % (uint32_t)P) % P;
      else off[which] += (int64_t)((how >> 1) % 9) - 4;
      rc = dnnmem_plan_pools_check(&p, pool_of, off, NULL, &checked, scratch, bytes);
      FUZZ_CHECK((rc == DNNMEM_OK) == (ref_pools_recount(&p, pool_of, off, NULL) >= 0));
      if (rc == DNNMEM_OK) FUZZ_CHECK(checked.cost == ref_pools_recount(&p, pool_of, off, NULL));
      else FUZZ_CHECK(checked.error.index >= 0 && checked.error.index < n);
    }
  }
  free(scratch);
  { /* a short buffer is refused, not overrun */
    unsigned char *tight = (unsigned char *)malloc(bytes / 2 + 1);
    FUZZ_CHECK(dnnmem_plan_pools_solve(&p, &opt, pool_of, off, NULL, &res, tight, bytes / 2) ==
               DNNMEM_ERR_SCRATCH_TOO_SMALL);
    FUZZ_CHECK(dnnmem_plan_pools_lower_bound(&p, &checked, tight, bound_bytes / 2) == DNNMEM_ERR_SCRATCH_TOO_SMALL);
    FUZZ_CHECK(checked.error.field == DNNMEM_FIELD_SCRATCH);
    free(tight);
  }
  return 0;
}
