/* Fuzz target for in-place reuse and aliasing (part 2): records with
   REUSE and ALIAS links as the bytes say (valid links mostly, broken ones
   now and then). The operations' code equals the rule as the oracle states
   it (ref_plan_reuse_rule after dnnmem_intervals_check); every strategy's
   plan is recounted by ref_plan_tied_recount and passes dnnmem_plan_check,
   its arena at least the reuse-aware bound and, on small inputs, at least
   the brute-force optimum with the bound at most; the checker's verdict on
   plans drawn from the input equals the recount's; short scratch is an
   error, never an overrun.
   Max length: 256 */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"
#include "tests/ref.h"

#define MAX_RECORDS 16
#define ORACLE_RECORDS 5 /* ref_plan_tied_optimum at most this, sizes summing below 16 */

/* A failure names its culprit: a record in range (a record rule: the one
   dnnmem_intervals_check names; a link rule: a record with a link or a
   fixed offset), never a stray index. */
static void culprit(const dnnmem_intervals *p, dnnmem_result rc, const dnnmem_error *e, const dnnmem_error *named) {
  if (rc == DNNMEM_OK) {
    FUZZ_CHECK(e->index == -1 && e->other == -1 && e->field == DNNMEM_FIELD_NONE);
    return;
  }
  FUZZ_CHECK(e->index >= -1 && e->index < p->count && e->other >= -1 && e->other < p->count);
  FUZZ_CHECK(dnnmem_field_name(e->field) != NULL);
  if (named->field != DNNMEM_FIELD_NONE) {
    FUZZ_CHECK(e->index == named->index && e->field == named->field);
  } else if (e->index >= 0) {
    FUZZ_CHECK((p->records[e->index].flags & (DNNMEM_INTERVAL_ALIAS | DNNMEM_INTERVAL_REUSE | DNNMEM_INTERVAL_FIXED)) != 0);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  dnnmem_interval r[MAX_RECORDS];
  dnnmem_intervals p;
  int64_t off[MAX_RECORDS], bound = -1, best = -1;
  dnnmem_plan_result checked;
  dnnmem_error named;
  int n = (int)(fuzz_u8(&in) % (MAX_RECORDS + 1)), i, a;
  int64_t total = 0;
  size_t bytes, more;
  unsigned char *scratch;
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  dnnmem_result rc, want;
  p.records = r, p.count = n, p.alignment = (int64_t)1 << (fuzz_u8(&in) % 3);
  for (i = 0; i < n; i++) {
    int64_t lower = fuzz_u8(&in) % 12, bytes_of = fuzz_u8(&in) % 9; /* in this order on every compiler */
    r[i] = ref_plan_record(lower, 0, bytes_of);
    r[i].upper = r[i].lower + 1 + fuzz_u8(&in) % 5;
    total += r[i].size;
  }
  for (i = 0; i < n; i++) { /* links: mostly valid ones, a broken one now and then */
    uint32_t k = fuzz_u8(&in), j, t;
    j = fuzz_u8(&in) % (uint32_t)n;
    if (k % 4 == 1) {
      r[i].flags |= DNNMEM_INTERVAL_ALIAS, r[i].alias = (int32_t)j;
    } else if (k % 4 == 2) {
      for (t = 0; t < (uint32_t)n; t++) { /* the j-th record from j that dies where i begins */
        int32_t c = (int32_t)((j + t) % (uint32_t)n);
        if (r[c].upper == r[i].lower + 1 && r[c].lower < r[i].lower && r[c].size >= r[i].size) break;
      }
      r[i].flags |= DNNMEM_INTERVAL_REUSE;
      r[i].reuse = t < (uint32_t)n ? (int32_t)((j + t) % (uint32_t)n) : (int32_t)j;
    } else if (k == 255) {
      r[i].flags |= DNNMEM_INTERVAL_REUSE, r[i].reuse = (int32_t)j + n; /* out of range */
    }
  }
  memset(&opt, 0, sizeof(opt));
  opt.node_limit = 2000;
  opt.algo = DNNMEM_PLAN_EXACT;
  if (dnnmem_plan_solve_scratch_size(&p, &opt, &bytes) != DNNMEM_OK) abort();
  if (dnnmem_plan_check_scratch_size(&p, &more) != DNNMEM_OK) abort();
  if (more > bytes) bytes = more;
  if (dnnmem_plan_lower_bound_scratch_size(&p, &more) != DNNMEM_OK) abort();
  if (more > bytes) bytes = more;
  scratch = (unsigned char *)malloc(bytes + 1);
  want = dnnmem_intervals_check(&p, &named);
  if (want == DNNMEM_OK) want = ref_plan_reuse_rule(&p);
  rc = dnnmem_plan_lower_bound(&p, &checked, scratch + 1, bytes);
  bound = checked.lower_bound;
  FUZZ_CHECK(rc == want);
  culprit(&p, rc, &checked.error, &named);
  if (want == DNNMEM_OK && n <= ORACLE_RECORDS && total < 16) {
    best = ref_plan_tied_optimum(&p, NULL);
    FUZZ_CHECK(best >= bound);
  }
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    opt.algo = (dnnmem_plan_algo)a;
    rc = dnnmem_plan_solve(&p, &opt, off, &res, scratch + (a & 1), bytes);
    FUZZ_CHECK(rc == want);
    culprit(&p, rc, &res.error, &named);
    if (rc != DNNMEM_OK) continue;
    FUZZ_CHECK(ref_plan_tied_recount(&p, off) == res.arena);
    FUZZ_CHECK(dnnmem_plan_check(&p, off, &checked, scratch, bytes) == DNNMEM_OK && checked.arena == res.arena);
    /* aliases alone: the exact search may prove more than the bound */
    FUZZ_CHECK(res.lower_bound >= bound && res.arena >= res.lower_bound);
    FUZZ_CHECK(res.optimal == (res.arena == res.lower_bound));
    if (best >= 0) FUZZ_CHECK(res.arena >= best && res.lower_bound <= best);
    if (n > 0) fuzz_plan_short_scratch(&p, &opt, off, bytes);
  }
  if (want == DNNMEM_OK && n > 0) /* the checker against the recount on plans from the input */
    for (a = 0; a < 32 && fuzz_more(&in); a++) {
      int64_t recount;
      for (i = 0; i < n; i++) off[i] = (int64_t)(fuzz_u8(&in) % 16) * p.alignment;
      recount = ref_plan_tied_recount(&p, off);
      rc = dnnmem_plan_check(&p, off, &checked, scratch, bytes);
      FUZZ_CHECK((rc == DNNMEM_OK) == (recount >= 0));
      if (rc == DNNMEM_OK) FUZZ_CHECK(checked.arena == recount);
      else FUZZ_CHECK(checked.error.index >= 0 && checked.error.index < n);
    }
  free(scratch);
  return 0;
}
