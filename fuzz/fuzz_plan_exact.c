/* Fuzz target for exact interval planning: the exact plan is valid (checked
   by dnnmem_plan_check and an independent recount that honours gaps), at
   least every proven lower bound, at most every heuristic's arena; on tiny
   instances without windows it equals a brute-force optimum whenever it
   claims optimality, and the capacity question never answers wrongly.
   Short scratch gives the error. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"

#define MAX_RECORDS 7

/* bytes [lo, hi) record r at offset o occupies at time t; 0 when none */
static int occupied(const dnnmem_interval *r, int64_t t, int64_t o, int64_t *lo, int64_t *hi) {
  int32_t g;
  if (t < r->lower || t >= r->upper) return 0;
  *lo = o, *hi = o + r->size;
  for (g = 0; g < r->num_gaps; g++)
    if (t >= r->gaps[g].lower && t < r->gaps[g].upper)
      *lo = o + r->gaps[g].window_lower, *hi = o + r->gaps[g].window_upper;
  return *lo < *hi;
}

static int collide(const dnnmem_interval *a, int64_t oa, const dnnmem_interval *b, int64_t ob) {
  int64_t t;
  for (t = 0; t < 64; t++) { /* the fuzz's times are small */
    int64_t al, ah, bl, bh;
    if (occupied(a, t, oa, &al, &ah) && occupied(b, t, ob, &bl, &bh) && al < bh && bl < ah) return 1;
  }
  return 0;
}

static int64_t recount(const dnnmem_interval *r, int n, const int64_t *off) {
  int64_t arena = 0;
  int i, j;
  for (i = 0; i < n; i++) {
    if (off[i] + r[i].size > arena) arena = off[i] + r[i].size;
    for (j = 0; j < i; j++)
      if (collide(&r[i], off[i], &r[j], off[j])) return -1;
  }
  return arena;
}

/* Brute force (no windows): every order, each record at the lowest aligned
   offset free of the records placed before it. */
static int64_t best_found;
static void brute(const dnnmem_interval *r, int n, int64_t align, int64_t *off, int *used, int left,
                  int64_t top) {
  int i, j;
  if (top >= best_found) return;
  if (left == 0) {
    best_found = top;
    return;
  }
  for (i = 0; i < n; i++) {
    int64_t x, a = dnnmem_interval_alignment(&r[i], align);
    if (used[i]) continue;
    for (x = 0;; x += a) {
      for (j = 0; j < n; j++)
        if (used[j] && collide(&r[i], x, &r[j], off[j])) break;
      if (j == n) break;
    }
    off[i] = x;
    used[i] = 1;
    brute(r, n, align, off, used, left - 1, top > x + r[i].size ? top : x + r[i].size);
    used[i] = 0;
  }
}

static int64_t brute_force(const dnnmem_interval *r, int n, int64_t align) {
  int64_t off[MAX_RECORDS], top = 0;
  int used[MAX_RECORDS], i, left = 0;
  for (i = 0; i < n; i++) {
    used[i] = (r[i].flags & DNNMEM_INTERVAL_FIXED) != 0;
    off[i] = r[i].fixed_offset;
    if (used[i] && off[i] + r[i].size > top) top = off[i] + r[i].size;
    left += !used[i];
  }
  best_found = INT64_MAX;
  brute(r, n, align, off, used, left, top);
  return best_found;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  dnnmem_interval r[MAX_RECORDS];
  dnnmem_gap gaps[MAX_RECORDS];
  int64_t off[MAX_RECORDS], align = (int64_t)1 << (fuzz_u8(&in) % 3), checked = 0, optimum = -1;
  int n = (int)(fuzz_u8(&in) % (MAX_RECORDS + 1)), i, a, windows = 0;
  int32_t pair[2];
  size_t bytes = 0, check_bytes = 0;
  unsigned char *scratch;
  dnnmem_plan_options opt;
  dnnmem_plan_result res, exact;
  dnnmem_result rc;
  for (i = 0; i < n; i++) {
    uint32_t flags = fuzz_u8(&in);
    memset(&r[i], 0, sizeof(r[i]));
    r[i].lower = fuzz_u8(&in) % 12;
    r[i].upper = r[i].lower + 1 + fuzz_u8(&in) % 6;
    r[i].size = 1 + fuzz_u8(&in) % 6;
    if (flags & 1) r[i].alignment = (int64_t)1 << (fuzz_u8(&in) % 3);
    if ((flags & 6) == 6) {
      r[i].flags |= DNNMEM_INTERVAL_FIXED;
      r[i].fixed_offset = (int64_t)(fuzz_u8(&in) % 8) * 4;
    }
    if (flags & 8) {
      r[i].flags |= DNNMEM_INTERVAL_HINT;
      r[i].hint = fuzz_u8(&in) % 16;
    }
    if ((flags & 48) && r[i].upper - r[i].lower >= 3) {
      gaps[i].lower = r[i].lower + 1;
      gaps[i].upper = r[i].upper - 1;
      gaps[i].window_lower = gaps[i].window_upper = 0;
      if ((flags & 48) == 48 && r[i].size >= 2) {
        gaps[i].window_lower = 1;
        gaps[i].window_upper = r[i].size;
        windows = 1;
      }
      r[i].gaps = &gaps[i];
      r[i].num_gaps = 1;
    }
    if (flags == 255) r[i].size = -3; /* bad input now and then */
  }
  memset(&opt, 0, sizeof(opt));
  opt.alignment = align;
  opt.algo = DNNMEM_PLAN_EXACT;
  opt.node_limit = 5000;
  if (dnnmem_plan_scratch_size(r, n, &opt, &bytes) != DNNMEM_OK) return 0;
  if (dnnmem_plan_check_scratch_size(r, n, &check_bytes) != DNNMEM_OK) abort();
  if (check_bytes > bytes) bytes = check_bytes;
  scratch = (unsigned char *)malloc(bytes + 1);
  rc = dnnmem_plan(r, n, &opt, off, &exact, scratch + 1, bytes);
  if (dnnmem_intervals_check(r, n, align) != DNNMEM_OK) {
    FUZZ_CHECK(rc != DNNMEM_OK);
    free(scratch);
    return 0;
  }
  if (rc == DNNMEM_ERR_PLAN_FIXED_COLLISION) { /* must really collide */
    int j, hit = 0;
    for (i = 0; i < n; i++)
      for (j = 0; j < i; j++)
        if ((r[i].flags & r[j].flags & DNNMEM_INTERVAL_FIXED) &&
            collide(&r[i], r[i].fixed_offset, &r[j], r[j].fixed_offset))
          hit = 1;
    FUZZ_CHECK(hit);
    free(scratch);
    return 0;
  }
  FUZZ_CHECK(rc == DNNMEM_OK);
  FUZZ_CHECK(exact.algo == DNNMEM_PLAN_EXACT);
  FUZZ_CHECK(recount(r, n, off) == exact.arena);
  FUZZ_CHECK(dnnmem_plan_check(r, n, align, off, &checked, pair, scratch, bytes) == DNNMEM_OK);
  FUZZ_CHECK(checked == exact.arena);
  FUZZ_CHECK(exact.arena >= exact.lower_bound);
  FUZZ_CHECK(exact.optimal == (exact.arena == exact.lower_bound));
  /* at most every heuristic, at least every proven bound */
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    opt.algo = (dnnmem_plan_algo)a;
    FUZZ_CHECK(dnnmem_plan(r, n, &opt, off, &res, scratch, bytes) == DNNMEM_OK);
    FUZZ_CHECK(exact.arena <= res.arena);
    FUZZ_CHECK(exact.lower_bound <= res.arena && res.lower_bound <= exact.arena);
  }
  if (!windows && n > 0) {
    optimum = brute_force(r, n, align);
    FUZZ_CHECK(exact.lower_bound <= optimum);
    FUZZ_CHECK(exact.arena >= optimum);
    if (exact.optimal) FUZZ_CHECK(exact.arena == optimum);
    /* the capacity question around the optimum */
    for (a = -2; a <= 1; a++) {
      int64_t cap = optimum + a;
      if (cap < 1) continue;
      opt.algo = DNNMEM_PLAN_EXACT;
      opt.capacity = cap;
      FUZZ_CHECK(dnnmem_plan(r, n, &opt, off, &res, scratch, bytes) == DNNMEM_OK);
      FUZZ_CHECK(res.feasible != 1 || (cap >= optimum && recount(r, n, off) == res.arena &&
                                       res.arena <= cap));
      FUZZ_CHECK(res.feasible != 0 || cap < optimum);
      FUZZ_CHECK(res.feasible != -1 || opt.node_limit > 0); /* unknown only under a budget */
      FUZZ_CHECK(recount(r, n, off) == res.arena); /* always a valid plan */
    }
    opt.capacity = 0;
  }
  if (n > 0) { /* a short buffer is refused, not overrun */
    unsigned char *tight = (unsigned char *)malloc(bytes / 2);
    opt.algo = DNNMEM_PLAN_EXACT;
    FUZZ_CHECK(dnnmem_plan(r, n, &opt, off, &res, tight, bytes / 2) == DNNMEM_ERR_SCRATCH_TOO_SMALL);
    free(tight);
  }
  free(scratch);
  return 0;
}
