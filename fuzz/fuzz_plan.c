/* Fuzz target for interval planning and shared objects: every strategy's
   plan passes dnnmem_plan_check and the recount of tests/ref.h (alignment,
   fixed offsets, gaps), is at least the lower bound and, on small inputs,
   at least the oracle's optimum with the bound at most; shared objects the
   same against their recount and oracle; short scratch gives the error,
   never an overrun. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"
#include "tests/ref.h"

#define MAX_RECORDS 24
#define ORACLE_RECORDS 6 /* ref_plan_optimum and ref_share_optimum below this */

static int fixed_collide(const dnnmem_interval *r, int n) {
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++)
      if ((r[i].flags & r[j].flags & DNNMEM_INTERVAL_FIXED) &&
          ref_plan_collide(&r[i], r[i].fixed_offset, &r[j], r[j].fixed_offset))
        return 1;
  return 0;
}

/* Every share strategy: dnnmem_share_check and the recount agree with the
   result, the total is at least the oracle's optimum and the bound at most. */
static void check_share(const dnnmem_intervals *p, unsigned char *scratch, size_t bytes) {
  int32_t obj[MAX_RECORDS], objects = 0, a;
  int64_t best = p->count <= ORACLE_RECORDS ? ref_share_optimum(p) : -1;
  dnnmem_share_result checked;
  dnnmem_share_options opt;
  dnnmem_share_result res;
  for (a = 0; a < DNNMEM_SHARE_ALGO_COUNT; a++) {
    opt.algo = (dnnmem_share_algo)a;
    FUZZ_CHECK(dnnmem_share_solve(p, &opt, obj, NULL, &res, scratch, bytes) == DNNMEM_OK);
    FUZZ_CHECK(dnnmem_share_check(p, obj, &checked, scratch, bytes) == DNNMEM_OK);
    FUZZ_CHECK(checked.total == res.total && checked.objects == res.objects);
    FUZZ_CHECK(ref_share_recount(p, obj, &objects) == res.total && objects == res.objects);
    FUZZ_CHECK(res.total >= res.lower_bound && res.optimal == (res.total == res.lower_bound));
    if (best >= 0) FUZZ_CHECK(res.total >= best && res.lower_bound <= best);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  dnnmem_interval r[MAX_RECORDS];
  dnnmem_gap gaps[MAX_RECORDS];
  dnnmem_intervals p;
  int64_t off[MAX_RECORDS], best = -1;
  dnnmem_plan_result checked;
  int64_t align = (int64_t)1 << (fuzz_u8(&in) % 4); /* read first: the corpus encoding */
  int n = (int)(fuzz_u8(&in) % (MAX_RECORDS + 1)), i, a, windows = 0;
  size_t bytes, share_bytes, check_bytes;
  unsigned char *scratch;
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  dnnmem_result rc;
  p.records = r, p.count = n, p.alignment = align;
  for (i = 0; i < n; i++) {
    uint32_t flags = fuzz_u8(&in);
    memset(&r[i], 0, sizeof(r[i]));
    r[i].lower = fuzz_u8(&in) % 32;
    r[i].upper = r[i].lower + 1 + fuzz_u8(&in) % 12;
    r[i].size = fuzz_u16(&in) % 300;
    if (flags & 1) r[i].alignment = (int64_t)1 << (fuzz_u8(&in) % 5);
    if ((flags & 6) == 6) {
      r[i].flags |= DNNMEM_INTERVAL_FIXED;
      r[i].fixed_offset = (int64_t)(fuzz_u16(&in) % 512) * 16;
    }
    if ((flags & 24) == 24 && !(r[i].flags & DNNMEM_INTERVAL_FIXED) && r[i].upper - r[i].lower >= 3) {
      gaps[i].lower = r[i].lower + 1;
      gaps[i].upper = r[i].upper - 1;
      gaps[i].window_lower = 0;
      gaps[i].window_upper = (flags & 32) ? r[i].size / 2 : 0;
      windows |= gaps[i].window_upper > 0;
      r[i].gaps = &gaps[i];
      r[i].num_gaps = 1;
    }
    if (flags == 255) r[i].size = -1; /* bad input now and then */
  }
  memset(&opt, 0, sizeof(opt));
  opt.node_limit = 2000; /* bounded exact search: milliseconds per input */
  if (dnnmem_plan_solve_scratch_size(&p, &opt, &bytes) != DNNMEM_OK) return 0;
  if (dnnmem_share_solve_scratch_size(&p, NULL, &share_bytes) != DNNMEM_OK) abort();
  if (dnnmem_plan_check_scratch_size(&p, &check_bytes) != DNNMEM_OK) abort();
  if (share_bytes > bytes) bytes = share_bytes;
  if (check_bytes > bytes) bytes = check_bytes;
  scratch = (unsigned char *)malloc(bytes + 1);
  if (dnnmem_intervals_check(&p, NULL) == DNNMEM_OK && !fixed_collide(r, n) && n <= ORACLE_RECORDS && !windows)
    best = ref_plan_optimum(&p, NULL);
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    opt.algo = (dnnmem_plan_algo)a;
    rc = dnnmem_plan_solve(&p, &opt, off, &res, scratch + (a & 1), bytes);
    if (dnnmem_intervals_check(&p, NULL) != DNNMEM_OK) {
      FUZZ_CHECK(rc == dnnmem_intervals_check(&p, NULL));
      continue;
    }
    if (fixed_collide(r, n)) {
      FUZZ_CHECK(rc == DNNMEM_ERR_PLAN_FIXED_COLLISION);
      continue;
    }
    FUZZ_CHECK(rc == DNNMEM_OK);
    FUZZ_CHECK(ref_plan_recount(&p, off) == res.arena);
    FUZZ_CHECK(dnnmem_plan_check(&p, off, &checked, scratch, bytes) == DNNMEM_OK && checked.arena == res.arena);
    FUZZ_CHECK(res.arena >= res.lower_bound && res.optimal == (res.arena == res.lower_bound));
    if (best >= 0) FUZZ_CHECK(res.arena >= best && res.lower_bound <= best);
    if (n > 0) fuzz_plan_short_scratch(&p, &opt, off, bytes);
  }
  p.alignment = 0; /* shared objects ignore it */
  if (dnnmem_intervals_check(&p, NULL) == DNNMEM_OK) check_share(&p, scratch, bytes);
  free(scratch);
  return 0;
}
