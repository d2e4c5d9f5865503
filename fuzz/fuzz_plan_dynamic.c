/* Fuzz target for planning with sizes not known in advance. Multi-pass:
   pass after pass, every plan of passes 1..k recounts valid (tests/ref.h
   and dnnmem_plan_check), earlier offsets never move, later ones are never
   written, the pass-order rule is the only refusal of valid records.
   Symbolic sizes: the stacking's plan at every S of a short range recounts
   valid (both ways) with the arena the resolver reports, the worst ratio
   is recounted, and on tiny inputs it is no better than the best stacking
   (brute force). Short scratch gives the error, never an overrun. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"
#include "tests/ref.h"

#define MAX_RECORDS 20
#define TERMS 3

/* Whether pass numbers are in time order (ref: the first step of each pass
   >= 2 never decreases with the pass number). */
static int passes_in_order(const dnnmem_interval *r, int n, int up_to) {
  int k, i;
  int64_t prev = INT64_MIN;
  for (k = 2; k <= up_to; k++) {
    int64_t start = INT64_MAX;
    for (i = 0; i < n; i++)
      if (r[i].pass == k && r[i].lower < start) start = r[i].lower;
    if (start == INT64_MAX) continue;
    if (start < prev) return 0;
    prev = start;
  }
  return 1;
}

/* dnnmem_plan_check's arena, -1 when it refuses the plan. */
static int64_t plan_check(const dnnmem_intervals *p, const int64_t *off) {
  size_t bytes = 0;
  int64_t arena = -1;
  dnnmem_plan_result checked;
  unsigned char *scratch;
  FUZZ_CHECK(dnnmem_plan_check_scratch_size(p, &bytes) == DNNMEM_OK);
  scratch = (unsigned char *)malloc(bytes + 1);
  if (dnnmem_plan_check(p, off, &checked, scratch, bytes) == DNNMEM_OK) arena = checked.arena;
  free(scratch);
  return arena;
}

static void fuzz_passes(const dnnmem_interval *r, int n, int64_t align, int algo, int passes) {
  dnnmem_intervals p = {r, n, align};
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  int64_t off[MAX_RECORDS], prev[MAX_RECORDS];
  int k, i;
  memset(&opt, 0, sizeof opt);
  opt.algo = (dnnmem_plan_algo)algo;
  opt.node_limit = 2000;
  for (i = 0; i < n; i++) off[i] = -1;
  for (k = 1; k <= passes; k++) {
    size_t bytes = 0;
    unsigned char *scratch;
    dnnmem_result rc;
    dnnmem_interval sub[MAX_RECORDS];
    int64_t sub_off[MAX_RECORDS];
    dnnmem_intervals sp;
    int m = 0;
    FUZZ_CHECK(dnnmem_plan_pass_scratch_size(&p, &opt, k, &bytes) == DNNMEM_OK);
    scratch = (unsigned char *)malloc(bytes + 1);
    if (bytes >= 16) FUZZ_CHECK(dnnmem_plan_pass(&p, &opt, k, off, &res, scratch, bytes - 16) ==
                                DNNMEM_ERR_SCRATCH_TOO_SMALL);
    memcpy(prev, off, sizeof off);
    rc = dnnmem_plan_pass(&p, &opt, k, off, &res, scratch, bytes);
    free(scratch);
    if (!passes_in_order(r, n, k)) {
      FUZZ_CHECK(rc == DNNMEM_ERR_PLAN_PASS_ORDER);
      return;
    }
    FUZZ_CHECK(rc == DNNMEM_OK);
    for (i = 0; i < n; i++) {
      int pass = r[i].pass > 1 ? r[i].pass : 1;
      if (pass != k) FUZZ_CHECK(off[i] == prev[i]);
      if (pass > k) continue;
      sub[m] = r[i];
      sub_off[m++] = off[i];
    }
    sp.records = sub, sp.count = m, sp.alignment = align;
    FUZZ_CHECK(ref_plan_recount(&sp, sub_off) == res.arena);
    FUZZ_CHECK(plan_check(&sp, sub_off) == res.arena);
    FUZZ_CHECK(res.arena >= res.lower_bound);
  }
}

static void fuzz_symbolic(dnnmem_interval *r, const int64_t *c, int n, int64_t align, int64_t lo, int64_t hi) {
  dnnmem_intervals iv = {r, n, align};
  dnnmem_plan_symbolic p;
  dnnmem_plan_symbolic_result res;
  dnnmem_plan_stacking st;
  int32_t order[MAX_RECORDS], below_offsets[MAX_RECORDS + 1], below_ids[DNNMEM_PLAN_SYMBOLIC_EDGES(MAX_RECORDS)];
  int64_t off[MAX_RECORDS], s;
  double worst = 0.0;
  size_t bytes = 0;
  unsigned char *scratch;
  dnnmem_result rc;
  int i, unaligned = align <= 1; /* then the lower bound is the max load */
  for (i = 0; i < n; i++) unaligned &= r[i].alignment <= 1;
  p.intervals = &iv, p.coefficients = c, p.terms = TERMS, p.s_min = lo, p.s_max = hi;
  FUZZ_CHECK(dnnmem_plan_symbolic_solve_scratch_size(&p, NULL, &bytes) == DNNMEM_OK);
  scratch = (unsigned char *)malloc(bytes + 1);
  if (bytes >= 16)
    FUZZ_CHECK(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, below_ids,
                                          (int32_t)DNNMEM_PLAN_SYMBOLIC_EDGES(n), &res, scratch,
                                          bytes - 16) == DNNMEM_ERR_SCRATCH_TOO_SMALL);
  rc = dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, below_ids, (int32_t)DNNMEM_PLAN_SYMBOLIC_EDGES(n),
                                  &res, scratch, bytes);
  free(scratch);
  FUZZ_CHECK(rc == DNNMEM_OK);
  FUZZ_CHECK(res.edges <= 3 * n + 6);
  st.order = order, st.below_offsets = below_offsets, st.below_ids = below_ids;
  for (s = lo; s <= hi; s++) {
    int64_t arena, load;
    dnnmem_plan_result resolved;
    FUZZ_CHECK(dnnmem_plan_symbolic_resolve(&p, &st, s, off, &resolved) == DNNMEM_OK);
    arena = resolved.arena;
    for (i = 0; i < n; i++) r[i].size = ref_poly(c + i * TERMS, TERMS, s);
    FUZZ_CHECK(ref_plan_recount(&iv, off) == arena);
    FUZZ_CHECK(plan_check(&iv, off) == arena);
    load = ref_plan_max_load(r, n);
    FUZZ_CHECK(arena >= load);
    if (unaligned && (load > 0 ? (double)arena / (double)load : 1.0) > worst)
      worst = load > 0 ? (double)arena / (double)load : 1.0;
    if (s == lo) FUZZ_CHECK(arena == res.arena_min);
    if (s == hi) FUZZ_CHECK(arena == res.arena_max);
  }
  if (unaligned) { /* the ratio recounts */
    FUZZ_CHECK(res.worst_ratio == worst);
    if (n <= 5) FUZZ_CHECK(worst >= ref_symbolic_best_worst(r, c, TERMS, n, lo, hi));
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  dnnmem_interval r[MAX_RECORDS];
  int64_t c[MAX_RECORDS * TERMS];
  int64_t align = (int64_t)1 << (fuzz_u8(&in) % 3);
  int n = (int)(fuzz_u8(&in) % (MAX_RECORDS + 1)), passes = 1 + (int)(fuzz_u8(&in) % 3), i, j;
  int algo = (int)(fuzz_u8(&in) % DNNMEM_PLAN_ALGO_COUNT);
  int64_t lo = fuzz_u8(&in) % 8, hi = lo + fuzz_u8(&in) % 24;
  for (i = 0; i < n; i++) {
    int64_t l = fuzz_u8(&in) % 16;
    memset(&r[i], 0, sizeof r[i]);
    r[i].lower = l;
    r[i].upper = l + 1 + fuzz_u8(&in) % 8;
    r[i].size = fuzz_u8(&in) % 40;
    r[i].pass = (int32_t)(fuzz_u8(&in) % (uint32_t)(passes + 1));
    if (fuzz_u8(&in) % 8 == 0) r[i].alignment = 4;
    for (j = 0; j < TERMS; j++) c[i * TERMS + j] = fuzz_u8(&in) % 4 == 0 ? fuzz_u8(&in) % (j == 0 ? 64 : 8) : 0;
  }
  if (algo == DNNMEM_PLAN_EXACT && n > 12) algo = DNNMEM_PLAN_BEST;
  fuzz_passes(r, n, align, algo, passes);
  fuzz_symbolic(r, c, n, align, lo, hi);
  return 0;
}
