/* Fuzz target for interval planning and shared objects: every strategy's
   plan passes the checker and an independent recount, is at least the lower
   bound, keeps alignment and fixed offsets; shared objects are valid; short
   scratch gives the error, never an overrun. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"

#define MAX_RECORDS 24

/* Brute-force recount ignoring gaps: the arena, or -1 if two records that
   are live together share a byte. */
static int64_t recount(const dnnmem_interval *r, int n, const int64_t *off) {
  int64_t arena = 0;
  int i, j;
  for (i = 0; i < n; i++) {
    if (off[i] + r[i].size > arena) arena = off[i] + r[i].size;
    for (j = 0; j < i; j++)
      if (r[i].lower < r[j].upper && r[j].lower < r[i].upper && r[i].size && r[j].size &&
          off[i] < off[j] + r[j].size && off[j] < off[i] + r[i].size)
        return -1;
  }
  return arena;
}

static int fixed_collide(const dnnmem_interval *r, int n) {
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++)
      if ((r[i].flags & r[j].flags & DNNMEM_INTERVAL_FIXED) && r[i].lower < r[j].upper &&
          r[j].lower < r[i].upper && r[i].size && r[j].size &&
          r[i].fixed_offset < r[j].fixed_offset + r[j].size && r[j].fixed_offset < r[i].fixed_offset + r[i].size)
        return 1;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  dnnmem_interval r[MAX_RECORDS];
  dnnmem_gap gaps[MAX_RECORDS];
  int64_t off[MAX_RECORDS], align = (int64_t)1 << (fuzz_u8(&in) % 4), bound = 0;
  int32_t obj[MAX_RECORDS], pair[2];
  int n = (int)(fuzz_u8(&in) % (MAX_RECORDS + 1)), i, a;
  size_t bytes, share_bytes, check_bytes;
  unsigned char *scratch;
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  dnnmem_share_result sres;
  dnnmem_result rc;
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
      r[i].gaps = &gaps[i];
      r[i].num_gaps = 1;
    }
    if (flags == 255) r[i].size = -1; /* bad input now and then */
  }
  memset(&opt, 0, sizeof(opt));
  opt.alignment = align;
  opt.node_limit = 2000; /* bounded exact search: milliseconds per input */
  if (dnnmem_plan_scratch_size(r, n, &opt, &bytes) != DNNMEM_OK) return 0;
  if (dnnmem_share_scratch_size(n, &share_bytes) != DNNMEM_OK) abort();
  if (dnnmem_plan_check_scratch_size(r, n, &check_bytes) != DNNMEM_OK) abort();
  if (share_bytes > bytes) bytes = share_bytes;
  if (check_bytes > bytes) bytes = check_bytes;
  scratch = (unsigned char *)malloc(bytes + 1);
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    opt.algo = (dnnmem_plan_algo)a;
    rc = dnnmem_plan(r, n, &opt, off, &res, scratch + (a & 1), bytes);
    if (dnnmem_intervals_check(r, n, align) != DNNMEM_OK) {
      FUZZ_CHECK(rc != DNNMEM_OK);
      continue;
    }
    if (fixed_collide(r, n)) {
      FUZZ_CHECK(rc == DNNMEM_ERR_PLAN_FIXED_COLLISION);
      continue;
    }
    FUZZ_CHECK(rc == DNNMEM_OK);
    /* heuristics ignore gaps, so their plans pass a gap-blind recount; exact
       may use idle bytes, which the checker below judges */
    if (opt.algo != DNNMEM_PLAN_EXACT) FUZZ_CHECK(recount(r, n, off) == res.arena);
    FUZZ_CHECK(res.arena >= res.lower_bound);
    FUZZ_CHECK(res.optimal == (res.arena == res.lower_bound));
    for (i = 0; i < n; i++) {
      FUZZ_CHECK(off[i] >= 0 && off[i] % dnnmem_interval_alignment(&r[i], align) == 0);
      if (r[i].flags & DNNMEM_INTERVAL_FIXED) FUZZ_CHECK(off[i] == r[i].fixed_offset);
    }
    FUZZ_CHECK(dnnmem_plan_check(r, n, align, off, &bound, pair, scratch, bytes) == DNNMEM_OK);
    FUZZ_CHECK(bound == res.arena);
    if (n > 0) { /* a short buffer is refused, not overrun */
      unsigned char *tight = (unsigned char *)malloc(bytes / 2);
      FUZZ_CHECK(dnnmem_plan(r, n, &opt, off, &res, tight, bytes / 2) == DNNMEM_ERR_SCRATCH_TOO_SMALL);
      free(tight);
    }
  }
  if (dnnmem_intervals_check(r, n, 0) == DNNMEM_OK) {
    for (a = 0; a < DNNMEM_SHARE_ALGO_COUNT; a++) {
      int64_t total = 0;
      int32_t objects = 0;
      FUZZ_CHECK(dnnmem_share(r, n, (dnnmem_share_algo)a, obj, NULL, &sres, scratch, bytes) == DNNMEM_OK);
      FUZZ_CHECK(dnnmem_share_check(r, n, obj, &total, &objects, scratch, bytes) == DNNMEM_OK);
      FUZZ_CHECK(total == sres.total && objects == sres.objects);
      FUZZ_CHECK(sres.total >= sres.lower_bound);
      for (i = 0; i < n; i++) {
        int j;
        for (j = 0; j < i; j++)
          FUZZ_CHECK(obj[i] != obj[j] || r[i].upper <= r[j].lower || r[j].upper <= r[i].lower);
      }
    }
  }
  free(scratch);
  return 0;
}
