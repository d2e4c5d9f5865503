/* Tests of planning with sizes not known in advance: multi-pass planning
   (dnnmem_plan_pass) and symbolic sizes (dnnmem_plan_symbolic_*). Exact
   values on hand-made cases and brute force on small ones (tests/ref.h);
   every plan recounted by ref_plan_recount, at every S of a range for the
   symbolic plans. */
#include <stdlib.h>
#include <string.h>

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "../examples/dnnmem_files.h"
#include "ref.h"
#include "test.h"

/* ---- multi-pass ---------------------------------------------------------- */

/* One pass into offsets (scratch asked for); the library's result code. */
static dnnmem_result plan_pass(const dnnmem_intervals *p, dnnmem_plan_algo algo, int32_t pass, int64_t *offsets,
                               dnnmem_plan_result *res) {
  dnnmem_plan_options opt = ref_plan_options(algo, 0, 0);
  size_t bytes = 0;
  void *scratch;
  dnnmem_result r;
  if ((r = dnnmem_plan_pass_scratch_size(p, &opt, pass, &bytes)) != DNNMEM_OK) return r;
  scratch = malloc(bytes ? bytes : 1);
  r = dnnmem_plan_pass(p, &opt, pass, offsets, res, scratch, bytes);
  free(scratch);
  return r;
}

/* tests/data/lstm_two_pass.csv by hand, greedy by size: pass 1 puts x (4
   bytes, the larger) at 0 and h at 4 (arena 6); y (8 bytes, known at step
   2) meets only h, and the 4 bytes under h are too few: y goes to 6, arena
   14. Planned at once, y goes first (0), x at 0 (they never meet), h above
   both at 8: 10 bytes, the load at step 2, so multi-pass costs 4 bytes. */
static void test_two_pass_by_hand(void) {
  dnnmem_interval r[3];
  dnnmem_intervals p = {r, 3, 0};
  dnnmem_plan_result res;
  dnnmem_plan_options opt;
  int64_t off[3] = {-7, -7, -7}, one[3];
  size_t bytes = 0;
  void *scratch;
  r[0] = ref_plan_record(0, 2, 4), r[0].pass = 1;
  r[1] = ref_plan_record(1, 10, 2), r[1].pass = 1;
  r[2] = ref_plan_record(2, 6, 8), r[2].pass = 2;
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_GREEDY_SIZE, 1, off, &res), DNNMEM_OK);
  CHECK_VALUES(off, 0, 4);
  CHECK_EQ(off[2], -7); /* a later pass: untouched */
  CHECK_EQ(res.arena, 6);
  CHECK_EQ(res.lower_bound, 6);
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_GREEDY_SIZE, 2, off, &res), DNNMEM_OK);
  CHECK_VALUES(off, 0, 4, 6);
  CHECK_EQ(res.arena, 14);
  CHECK_EQ(ref_plan_recount(&p, off), 14);
  memset(&opt, 0, sizeof opt);
  opt.algo = DNNMEM_PLAN_GREEDY_SIZE;
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, &opt, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, one, &res, scratch, bytes), DNNMEM_OK); /* pass ignored */
  CHECK_EQ(res.arena, 10);
  CHECK_EQ(res.lower_bound, 10);
  CHECK_EQ(one[2], 0);
  CHECK_EQ(one[1], 8);
  free(scratch);
}

/* Random records in 1..3 passes, each planned exactly: after pass k the
   arena is the brute-force optimum with the earlier passes where they are,
   earlier offsets never move, later ones are never written, and the plan
   of passes 1..k recounts valid. */
static void test_passes_exact_against_brute_force(void) {
  FOR_TRIALS(rng, 12, trial, 300) {
    dnnmem_interval r[7], sub[7];
    int64_t off[7], prev[7], sub_off[7];
    int32_t n = 1 + (int32_t)dnnmem_rng_below(&rng, 7), passes = 1 + (int32_t)dnnmem_rng_below(&rng, 3), i, k, m;
    dnnmem_intervals p = {r, n, trial % 4 == 0 ? 4 : 0};
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 6);
      r[i] = ref_plan_record(lo, lo + 1 + dnnmem_rng_below(&rng, 5), dnnmem_rng_below(&rng, 9));
      r[i].pass = (int32_t)dnnmem_rng_below(&rng, (uint32_t)passes + 1); /* 0 counts as 1 */
      off[i] = -1;
    }
    for (k = 2; k <= passes; k++) { /* passes in time order: pass k starts no earlier than k - 1 */
      int64_t start = -1;
      for (i = 0; i < n; i++)
        if (r[i].pass == k - 1 && k - 1 >= 2 && (start < 0 || r[i].lower < start)) start = r[i].lower;
      for (i = 0; i < n; i++)
        if (r[i].pass == k && r[i].lower < start) r[i].pass = 1;
    }
    for (k = 1; k <= passes; k++) {
      dnnmem_plan_result res;
      dnnmem_intervals sp;
      int64_t want;
      memcpy(prev, off, sizeof off);
      CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_EXACT, k, off, &res), DNNMEM_OK);
      for (i = m = 0; i < n; i++) {
        int32_t pass = r[i].pass > 1 ? r[i].pass : 1;
        if (pass < k) CHECK_EQ(off[i], prev[i]);
        if (pass > k) CHECK_EQ(off[i], -1);
        if (pass > k) continue;
        sub[m] = r[i];
        if (pass < k) sub[m].flags |= DNNMEM_INTERVAL_FIXED, sub[m].fixed_offset = off[i];
        sub_off[m++] = off[i];
      }
      sp.records = sub, sp.count = m, sp.alignment = p.alignment;
      want = ref_plan_optimum(&sp, NULL);
      CHECK_EQ(ref_plan_recount(&sp, sub_off), want);
      CHECK_EQ(res.arena, want);
      CHECK_EQ(res.optimal, res.arena == res.lower_bound);
    }
  }
}

static void test_pass_errors(void) {
  dnnmem_interval r[3];
  dnnmem_intervals p = {r, 3, 0};
  dnnmem_plan_result res;
  int64_t off[3] = {0, 0, 0};
  size_t bytes = 0, small = 0;
  void *scratch;
  r[0] = ref_plan_record(0, 4, 8), r[0].pass = 1;
  r[1] = ref_plan_record(5, 9, 8), r[1].pass = 2;
  r[2] = ref_plan_record(2, 6, 8), r[2].pass = 3; /* starts before pass 2 */
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 2, off, &res), DNNMEM_OK);
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 3, off, &res), DNNMEM_ERR_PLAN_PASS_ORDER);
  r[2].lower = 5;
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 3, off, &res), DNNMEM_OK);
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 0, off, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  r[2].pass = -1;
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 1, off, &res), DNNMEM_ERR_NEGATIVE);
  r[2].pass = 3;
  r[2].size = -5; /* a later pass's size is not read */
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 2, off, &res), DNNMEM_OK);
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 3, off, &res), DNNMEM_ERR_NEGATIVE);
  r[2].size = 8;
  r[1] = ref_plan_record(2, 9, 8), r[1].pass = 2; /* meets record 0 */
  off[0] = 0, off[1] = 4; /* given overlapping offsets for passes 1 and 2 */
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 3, off, &res), DNNMEM_ERR_PLAN_FIXED_COLLISION);
  off[1] = 8;
  r[0].flags = DNNMEM_INTERVAL_FIXED, r[0].fixed_offset = 16; /* its own fixed offset is not 0 */
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 2, off, &res), DNNMEM_ERR_PLAN_FIXED_MISMATCH);
  r[0].flags = 0;
  off[0] = 3;
  p.alignment = 2;
  CHECK_EQ(plan_pass(&p, DNNMEM_PLAN_BEST, 2, off, &res), DNNMEM_ERR_PLAN_MISALIGNED);
  p.alignment = 0;
  CHECK_EQ(dnnmem_plan_pass_scratch_size(&p, NULL, 2, &bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_pass_scratch_size(&p, NULL, 1, &small), DNNMEM_OK);
  CHECK(small < bytes); /* pass 1 plans fewer records */
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_plan_pass(&p, NULL, 2, off, &res, scratch, bytes - 16), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_plan_pass(&p, NULL, 2, NULL, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_pass(NULL, NULL, 2, off, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_pass_scratch_size(&p, NULL, 2, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  free(scratch);
}

/* ---- symbolic sizes ------------------------------------------------------ */

/* dnnmem_plan_symbolic_resolve with the arena (may be NULL) alone. */
static dnnmem_result resolve(const dnnmem_plan_symbolic *p, const dnnmem_plan_stacking *st, int64_t s, int64_t *off,
                             int64_t *arena) {
  dnnmem_plan_result res;
  dnnmem_result r = dnnmem_plan_symbolic_resolve(p, st, s, off, arena ? &res : NULL);
  if (arena && r == DNNMEM_OK) *arena = res.arena;
  return r;
}

/* dnnmem_plan_check's arena, -1 when it refuses the plan. */
static int64_t plan_check(const dnnmem_intervals *p, const int64_t *off) {
  size_t bytes = 0;
  int64_t arena = -1;
  dnnmem_plan_result checked;
  void *scratch;
  if (dnnmem_plan_check_scratch_size(p, &bytes) != DNNMEM_OK) return -1;
  scratch = malloc(bytes ? bytes : 1);
  if (dnnmem_plan_check(p, off, &checked, scratch, bytes) == DNNMEM_OK) arena = checked.arena;
  free(scratch);
  return arena;
}

typedef struct symbolic_plan {
  int32_t order[64], below_offsets[65], below_ids[DNNMEM_PLAN_SYMBOLIC_EDGES(64)];
  dnnmem_plan_symbolic_result res;
} symbolic_plan;

static dnnmem_result symbolic_solve(const dnnmem_plan_symbolic *p, dnnmem_plan_algo algo, symbolic_plan *out) {
  dnnmem_plan_options opt = ref_plan_options(algo, 0, 0);
  size_t bytes = 0;
  void *scratch;
  dnnmem_result r;
  size_t n = (size_t)p->intervals->count, edges = (size_t)DNNMEM_PLAN_SYMBOLIC_EDGES(p->intervals->count);
  int32_t *order, *below_offsets, *below_ids; /* exactly the documented sizes: ASan sees their ends */
  if ((r = dnnmem_plan_symbolic_solve_scratch_size(p, &opt, &bytes)) != DNNMEM_OK) return r;
  scratch = malloc(bytes);
  order = (int32_t *)malloc((n ? n : 1) * sizeof(int32_t));
  below_offsets = (int32_t *)malloc((n + 1) * sizeof(int32_t));
  below_ids = (int32_t *)malloc((edges ? edges : 1) * sizeof(int32_t));
  r = dnnmem_plan_symbolic_solve(p, &opt, order, below_offsets, below_ids, (int32_t)edges, &out->res, scratch, bytes);
  if (r == DNNMEM_OK) {
    memcpy(out->order, order, n * sizeof(int32_t));
    memcpy(out->below_offsets, below_offsets, (n + 1) * sizeof(int32_t));
    memcpy(out->below_ids, below_ids, (size_t)out->res.edges * sizeof(int32_t));
  }
  free(scratch), free(order), free(below_offsets), free(below_ids);
  return r;
}

/* Resolves at every S of the range: each plan recounts valid (ref.h and
   dnnmem_plan_check) with the arena the resolver says; returns the worst arena / max load (alignment
   rounding aside, the max load is the lower bound). Records at most 64. */
static double symbolic_every_s(const dnnmem_plan_symbolic *p, const symbolic_plan *sp, int *valid) {
  dnnmem_plan_stacking st = {sp->order, sp->below_offsets, sp->below_ids};
  dnnmem_interval r[64];
  dnnmem_intervals at = {r, p->intervals->count, p->intervals->alignment};
  int64_t off[64], s, arena = -1;
  double worst = 0.0;
  int32_t i;
  *valid = 1;
  for (s = p->s_min; s <= p->s_max; s++) {
    int64_t load;
    if (resolve(p, &st, s, off, &arena) != DNNMEM_OK) return *valid = 0, 0.0;
    for (i = 0; i < at.count; i++) r[i] = p->intervals->records[i], r[i].size = ref_poly(p->coefficients + i * p->terms, p->terms, s);
    if (ref_plan_recount(&at, off) != arena || plan_check(&at, off) != arena) *valid = 0;
    load = ref_plan_max_load(r, at.count);
    if ((load > 0 ? (double)arena / (double)load : 1.0) > worst) worst = load > 0 ? (double)arena / (double)load : 1.0;
  }
  return worst;
}

/* A stacking by hand: c [1,3) of 2S + 1 bytes sits on a [0,2) of 3S and
   b [2,4) of 5 bytes (a and b never meet): c's offset is the higher of
   their tops rounded up to the alignment 4, at every S. */
static void test_resolve_by_hand(void) {
  dnnmem_interval r[3];
  dnnmem_intervals iv = {r, 3, 4};
  int64_t c[6] = {0, 3, 5, 0, 1, 2}, off[3], arena;
  int32_t order[3] = {1, 0, 2}, below_offsets[4] = {0, 0, 0, 2}, below_ids[2] = {0, 1};
  dnnmem_plan_symbolic p;
  dnnmem_plan_stacking st = {order, below_offsets, below_ids};
  dnnmem_interval at[3];
  dnnmem_plan_result named;
  dnnmem_error e;
  r[0] = ref_plan_record(0, 2, 0), r[1] = ref_plan_record(2, 4, 0), r[2] = ref_plan_record(1, 3, 0);
  p.intervals = &iv, p.coefficients = c, p.terms = 2, p.s_min = 0, p.s_max = 100;
  CHECK_EQ(resolve(&p, &st, 1, off, &arena), DNNMEM_OK);
  CHECK_VALUES(off, 0, 0);
  CHECK_EQ(off[2], 8); /* max(3, 5) aligned to 4 */
  CHECK_EQ(arena, 11);
  CHECK_EQ(resolve(&p, &st, 10, off, &arena), DNNMEM_OK);
  CHECK_EQ(off[2], 32); /* max(30, 5) aligned */
  CHECK_EQ(arena, 53);
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 10, at, NULL), DNNMEM_OK);
  CHECK_FIELDS(at, size, 30, 5, 21);
  /* errors */
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 101, off, &named), DNNMEM_ERR_PLAN_SYMBOL_RANGE);
  CHECK(named.arena == 0 && named.error.index == -1 && named.error.field == DNNMEM_FIELD_SYMBOL);
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, -1, at, NULL), DNNMEM_ERR_PLAN_SYMBOL_RANGE);
  order[1] = 1; /* listed twice: its second place named */
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 1, off, &named), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(named.error.index == 1 && named.error.field == DNNMEM_FIELD_STACKING);
  order[1] = 3;
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 1, off, &named), DNNMEM_ERR_ID_RANGE);
  CHECK(named.error.index == 1 && named.error.field == DNNMEM_FIELD_STACKING);
  order[0] = 2, order[1] = 0, order[2] = 1; /* position 2 (b) over itself: not yet resolved */
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 1, off, &named), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(named.error.index == 2 && named.error.field == DNNMEM_FIELD_STACKING);
  order[0] = 1, order[1] = 0, order[2] = 2;
  below_offsets[1] = 1; /* decreasing */
  CHECK_EQ(resolve(&p, &st, 1, off, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  below_offsets[1] = 0;
  below_ids[1] = -1;
  CHECK_EQ(resolve(&p, &st, 1, off, &arena), DNNMEM_ERR_ID_RANGE);
  below_ids[1] = 1;
  c[3] = -1; /* record 1's */
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 1, off, &named), DNNMEM_ERR_NEGATIVE);
  CHECK_EQ(named.error.index, 1);
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 1, at, &e), DNNMEM_ERR_NEGATIVE);
  CHECK(e.index == 1 && e.field == named.error.field);
  c[3] = 0;
  c[1] = INT64_MAX / 50;
  CHECK_EQ(resolve(&p, &st, 100, off, &arena), DNNMEM_ERR_OVERFLOW);
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 100, at, NULL), DNNMEM_ERR_OVERFLOW);
  CHECK_EQ(resolve(&p, &st, 10, off, &arena), DNNMEM_OK); /* fits at 10 */
  c[1] = 3;
  p.terms = 0;
  CHECK_EQ(resolve(&p, &st, 1, off, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  p.terms = 2;
  p.s_max = -1;
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 1, at, NULL), DNNMEM_ERR_PLAN_SYMBOL_RANGE);
  p.s_max = 100;
  r[1].flags = DNNMEM_INTERVAL_FIXED;
  CHECK_EQ(resolve(&p, &st, 1, off, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  r[1].flags = 0;
  iv.alignment = 3;
  CHECK_EQ(resolve(&p, &st, 1, off, &arena), DNNMEM_ERR_ALIGNMENT);
}

/* Symbolic tilings: the best stacking meets the lower bound at every S
   (ref_symbolic_tiling), so a worst ratio of exactly 1 is known; the
   solver reaches it on these, and every plan is valid at every S. */
static void test_symbolic_tilings(void) {
  int32_t exact = 0;
  FOR_TRIALS(rng, 77, trial, 40) {
    dnnmem_interval r[64];
    int64_t c[64 * 3], height[3];
    symbolic_plan sp;
    dnnmem_intervals iv = {r, 0, 0};
    dnnmem_plan_symbolic p;
    double worst;
    int valid;
    height[0] = 64 + dnnmem_rng_below(&rng, 64), height[1] = 16 + dnnmem_rng_below(&rng, 16);
    height[2] = dnnmem_rng_below(&rng, 4);
    iv.count = ref_symbolic_tiling(&rng, r, c, 3, 4 + (int32_t)dnnmem_rng_below(&rng, 28), 24, height);
    p.intervals = &iv, p.coefficients = c, p.terms = 3, p.s_min = 1, p.s_max = 40;
    CHECK_EQ(symbolic_solve(&p, DNNMEM_PLAN_BEST, &sp), DNNMEM_OK);
    CHECK(ref_symbolic_stack_irredundant(r, iv.count, sp.order, sp.below_offsets, sp.below_ids));
    worst = symbolic_every_s(&p, &sp, &valid);
    CHECK(valid);
    CHECK(worst >= 1.0);
    CHECK(sp.res.worst_ratio == worst); /* 40 values: every S is a sample */
    CHECK_EQ(sp.res.samples, 40);
    exact += worst == 1.0;
  }
  CHECK_EQ(exact, 40);
}

/* n random records: lifetimes of 1 to 4 steps starting before `starts`,
   sizes c0 + c1 S + c2 S^2, each coefficient zero in two cases of three,
   else below c0_max, c0_max / 13 (at least 30) and 30 in turn. */
static void random_symbolic(dnnmem_rng *rng, dnnmem_interval *r, int64_t *c, int32_t n, uint32_t starts,
                            uint32_t c0_max) {
  int32_t i, j;
  uint32_t c1_max = c0_max / 13 > 30 ? c0_max / 13 : 30;
  for (i = 0; i < n; i++) {
    int64_t lo = dnnmem_rng_below(rng, starts);
    r[i] = ref_plan_record(lo, lo + 1 + dnnmem_rng_below(rng, 4), 0);
    for (j = 0; j < 3; j++) c[i * 3 + j] = dnnmem_rng_below(rng, 3) ? 0 : dnnmem_rng_below(rng, j == 0 ? c0_max : j == 1 ? c1_max : 30);
  }
}

/* A random symbolic problem and its plan: n records, 2 to 1 + more
   (random_symbolic's, drawn first), for S in [0, s_max] (iv and p point
   into r and c), solved by best into sp, whose stacking must be
   irredundant. */
typedef struct symbolic_case {
  dnnmem_interval r[12];
  int64_t c[12 * 3];
  int32_t n;
  dnnmem_intervals iv;
  dnnmem_plan_symbolic p;
  symbolic_plan sp;
} symbolic_case;

static void solve_random_symbolic(dnnmem_rng *rng, uint32_t more, uint32_t starts, uint32_t c0_max, int64_t s_max,
                                  symbolic_case *k) {
  k->n = 2 + (int32_t)dnnmem_rng_below(rng, more);
  k->iv.records = k->r, k->iv.count = k->n, k->iv.alignment = 0;
  random_symbolic(rng, k->r, k->c, k->n, starts, c0_max);
  k->p.intervals = &k->iv, k->p.coefficients = k->c, k->p.terms = 3, k->p.s_min = 0, k->p.s_max = s_max;
  CHECK_EQ(symbolic_solve(&k->p, DNNMEM_PLAN_BEST, &k->sp), DNNMEM_OK);
  CHECK(ref_symbolic_stack_irredundant(k->r, k->n, k->sp.order, k->sp.below_offsets, k->sp.below_ids));
}

/* Small random instances: never better than the best stacking (brute
   force over orders), and equal to it on every one of these; the reported
   worst ratio recounted. */
static void test_symbolic_brute_force(void) {
  int32_t equal = 0;
  FOR_TRIALS(rng, 5, trial, 200) {
    symbolic_case k;
    double worst, best;
    int valid;
    solve_random_symbolic(&rng, 5, 5, 400, 20, &k);
    worst = symbolic_every_s(&k.p, &k.sp, &valid);
    best = ref_symbolic_best_worst(k.r, k.c, 3, k.n, 0, 20);
    CHECK(valid);
    CHECK(k.sp.res.worst_ratio == worst);
    CHECK(worst >= best);
    equal += worst == best;
  }
  CHECK_EQ(equal, 200);
}

/* Random records whose best reference is often a blend of several S
   (result.reference < 0, about 1 in 100 here): the stacking is valid at
   every S with the worst ratio it reports, and irredundant (an edge b under
   r only when no record meeting both lies between them, tests/ref.h): the
   stacking is built from the winning blend's sizes. */
static void test_symbolic_blends(void) {
  int32_t blends = 0;
  FOR_TRIALS(rng, 5, trial, 1500) {
    symbolic_case k;
    int valid;
    solve_random_symbolic(&rng, 10, 6, 4000, 1000, &k);
    if (k.sp.res.reference >= 0) continue;
    blends++;
    CHECK(symbolic_every_s(&k.p, &k.sp, &valid) >= k.sp.res.worst_ratio);
    CHECK(valid);
  }
  CHECK(blends >= 10);
}

/* The GPT-style records of tests/data (sizes c x S and c x S^2 derived
   from the traced graphs): one stacking meets the lower bound at every
   sequence length from 64 to 2048, checked at every one of them. */
static void test_symbolic_gpt_mini(void) {
  files_intervals iv;
  files_error err;
  dnnmem_plan_symbolic p;
  dnnmem_plan_symbolic_result res;
  dnnmem_plan_stacking st;
  int32_t *order, *below_offsets, *below_ids, i, k, t;
  int64_t *c, *off, s;
  size_t bytes = 0, lb_bytes = 0;
  void *scratch;
  if (files_read_intervals_symbolic("tests/data/gpt_mini.symbolic.csv", 0, NULL, 0, &iv, &err) != 0) {
    files_error_print(stderr, &err);
    CHECK(0);
    return;
  }
  t = iv.terms[0];
  CHECK_EQ(t, 3);
  c = (int64_t *)malloc(sizeof(int64_t) * (size_t)iv.n * (size_t)t);
  for (i = 0; i < iv.n; i++)
    for (k = 0; k < t; k++) c[i * t + k] = iv.coefficients[(size_t)i * FILES_POLY_STRIDE + k];
  p.intervals = &iv.problem, p.coefficients = c, p.terms = t, p.s_min = 64, p.s_max = 2048;
  order = (int32_t *)malloc(sizeof(int32_t) * (size_t)iv.n);
  below_offsets = (int32_t *)malloc(sizeof(int32_t) * ((size_t)iv.n + 1));
  below_ids = (int32_t *)malloc(sizeof(int32_t) * (size_t)DNNMEM_PLAN_SYMBOLIC_EDGES(iv.n));
  off = (int64_t *)malloc(sizeof(int64_t) * (size_t)iv.n);
  CHECK_EQ(dnnmem_plan_symbolic_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(&iv.problem, &lb_bytes), DNNMEM_OK);
  scratch = malloc(bytes > lb_bytes ? bytes : lb_bytes);
  CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, below_ids, 0, &res, scratch, bytes),
           DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK(res.edges > 0);
  CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, below_ids, res.edges, &res, scratch, bytes),
           DNNMEM_OK);
  CHECK(res.worst_ratio == 1.0);
  CHECK(res.edges <= 3 * iv.n);
  st.order = order, st.below_offsets = below_offsets, st.below_ids = below_ids;
  for (s = 64; s <= 2048; s++) {
    int64_t arena = 0, load;
    CHECK_EQ(resolve(&p, &st, s, off, &arena), DNNMEM_OK);
    for (i = 0; i < iv.n; i++) iv.records[i].size = ref_poly(c + i * t, t, s);
    load = ref_plan_max_load(iv.records, iv.n);
    if (arena != load || ref_plan_recount(&iv.problem, off) != arena) {
      CHECK_EQ(arena, load);
      break;
    }
  }
  CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, below_ids, res.edges, &res, scratch, bytes - 16),
           DNNMEM_ERR_SCRATCH_TOO_SMALL);
  free(c), free(order), free(below_offsets), free(below_ids), free(off), free(scratch);
  files_intervals_free(&iv);
}

static void test_polynomial_parser(void) {
  int64_t c[FILES_POLY_STRIDE], v = 0, den = 0, at2[2] = {10, 0};
  int32_t terms[2] = {0, 0};
  char sym[2][32] = {"", ""};
  const char *why = NULL;
  size_t at = 0;
  const int32_t M = DNNMEM_PLAN_SYMBOLIC_MAX_TERMS;
  CHECK_EQ(files_poly_parse("4096*S^2+512*S+64", sym, c, terms, &den, &why, &at), 0);
  CHECK_VALUES(terms, 3, 1);
  CHECK_EQ(den, 1);
  CHECK_VALUES(c, 64, 512, 4096);
  CHECK(strcmp(sym[0], "S") == 0 && sym[1][0] == 0);
  CHECK_EQ(files_poly_at(c, terms, at2, &v), 0);
  CHECK_EQ(v, 409600 + 5120 + 64);
  CHECK_EQ(files_poly_parse(" S ^ 3 + 2 * S + S + 7 ", sym, c, terms, &den, &why, &at), 0);
  CHECK_EQ(terms[0], 4);
  CHECK_VALUES(c, 7, 3, 0, 1);
  CHECK_EQ(files_poly_parse("4*S*S", sym, c, terms, &den, &why, &at), 0); /* powers multiply */
  CHECK_EQ(c[2], 4);
  CHECK_EQ(files_poly_parse("4096*S^2+", sym, c, terms, &den, &why, &at), -1);
  CHECK_EQ(at, 10);
  CHECK_EQ(files_poly_parse("4096*S^2-5", sym, c, terms, &den, &why, &at), -1);
  CHECK_EQ(at, 9);
  CHECK(strstr(why, "negative") != NULL);
  CHECK_EQ(files_poly_parse("-3*S", sym, c, terms, &den, &why, &at), -1);
  CHECK_EQ(at, 1);
  CHECK_EQ(files_poly_parse("S^8", sym, c, terms, &den, &why, &at), -1);
  CHECK_EQ(files_poly_parse("S^4*S^4", sym, c, terms, &den, &why, &at), -1);
  CHECK_EQ(files_poly_parse("99999999999999999999*S", sym, c, terms, &den, &why, &at), -1);
  CHECK_EQ(files_poly_parse("", sym, c, terms, &den, &why, &at), -1);
  CHECK_EQ(files_poly_parse("9223372036854775807*S", sym, c, terms, &den, &why, &at), 0);
  CHECK_EQ(files_poly_at(c, terms, at2, &v), -1);
  /* a second symbol: S^i T^j at [j * M + i] */
  CHECK_EQ(files_poly_parse("96*S*T^2+3*T+S+5", sym, c, terms, &den, &why, &at), 0);
  CHECK(strcmp(sym[1], "T") == 0);
  CHECK_VALUES(terms, 2, 3);
  CHECK_EQ(c[2 * M + 1], 96);
  CHECK_EQ(c[1 * M + 0], 3);
  CHECK_EQ(c[0 * M + 1], 1);
  CHECK_EQ(c[0], 5);
  at2[0] = 2, at2[1] = 3;
  CHECK_EQ(files_poly_at(c, terms, at2, &v), 0);
  CHECK_EQ(v, 96 * 2 * 9 + 9 + 2 + 5);
  CHECK_EQ(files_poly_parse("3*U", sym, c, terms, &den, &why, &at), -1); /* the file's symbols are S and T */
  CHECK_EQ(at, 3);
  CHECK(strstr(why, "third") != NULL);
  /* denominators: every coefficient over the least common one */
  CHECK_EQ(files_poly_parse("3*S*T/8+5*T/4+2", sym, c, terms, &den, &why, &at), 0);
  CHECK_EQ(den, 8);
  CHECK_EQ(c[M + 1], 3);
  CHECK_EQ(c[M], 10);
  CHECK_EQ(c[0], 16);
  CHECK_EQ(files_poly_parse("S/0", sym, c, terms, &den, &why, &at), -1);
  CHECK_EQ(files_poly_parse("S/", sym, c, terms, &den, &why, &at), -1);
  CHECK_EQ(files_poly_parse("S/2147483648", sym, c, terms, &den, &why, &at), -1); /* above 2^30 */
}

/* Sizes over denominators: the reader's unit (the least that makes every
   coefficient an integer) and the coefficients in it, checked against the
   sizes by hand at multiples of the unit. */
static void test_polynomial_units(void) {
  static const char text[] = "id,lower,upper,size\na,0,2,3*H*W/8\nb,1,3,W^2/16+8\nc,2,4,5*H\n";
  char *buf = (char *)malloc(sizeof(text)); /* the reader takes the text over */
  files_intervals iv;
  files_error err;
  int64_t v[2], h, w;
  memcpy(buf, text, sizeof(text));
  CHECK_EQ(files_intervals_parse_symbolic("units.csv", buf, sizeof(text) - 1, 0, NULL, 0, &iv, &err), 0);
  CHECK_EQ(iv.units[0], 4); /* 3 (4H)(4W)/8 = 6HW, (4W)^2/16 = W^2: 4 is the least */
  CHECK_EQ(iv.units[1], 4);
  for (h = 4; h <= 64; h += 4)
    for (w = 4; w <= 64; w += 20) {
      v[0] = h / 4, v[1] = w / 4;
      CHECK_EQ(files_intervals_at(&iv, v, &err), 0);
      CHECK_EQ(iv.records[0].size, 3 * h * w / 8);
      CHECK_EQ(iv.records[1].size, w * w / 16 + 8);
      CHECK_EQ(iv.records[2].size, 5 * h);
    }
  files_intervals_free(&iv);
  {
    static const char bad[] = "id,lower,upper,size\na,0,2,3*H*W/8\nb,1,3,W/2+1/2\n";
    char *b2 = (char *)malloc(sizeof(bad));
    memcpy(b2, bad, sizeof(bad));
    CHECK_EQ(files_intervals_parse_symbolic("bad.csv", b2, sizeof(bad) - 1, 0, NULL, 0, &iv, &err), -1);
    CHECK_EQ(err.line, 3);
    CHECK(strstr(err.message, "constant term") != NULL);
  }
}

/* Every argument rule of the symbolic functions and of dnnmem_plan_pass. */
static void test_symbolic_arguments(void) {
  dnnmem_interval r[2], at[2];
  dnnmem_gap gap = {1, 2, 0, 0};
  dnnmem_intervals iv = {r, 2, 0};
  int64_t c[4] = {1, 2, 3, 4}, off[2] = {0, 0}, arena = -1;
  int32_t order[2] = {0, 1}, below_offsets[3] = {0, 0, 1}, below_ids[8] = {0};
  dnnmem_plan_symbolic p, bad;
  dnnmem_plan_stacking st = {order, below_offsets, below_ids}, bst;
  dnnmem_plan_symbolic_result res;
  dnnmem_plan_options opt;
  symbolic_plan sp;
  size_t bytes = 0;
  static char scratch[1 << 20];
  r[0] = ref_plan_record(0, 2, 0), r[1] = ref_plan_record(1, 3, 0);
  p.intervals = &iv, p.coefficients = c, p.terms = 2, p.s_min = 0, p.s_max = 5000;
  /* problem rules, through every entry point */
  CHECK_EQ(dnnmem_plan_symbolic_records(NULL, 1, at, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  bad = p, bad.intervals = NULL;
  CHECK_EQ(dnnmem_plan_symbolic_solve_scratch_size(&bad, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  bad = p, bad.coefficients = NULL;
  CHECK_EQ(resolve(&bad, &st, 1, off, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  bad = p, bad.terms = DNNMEM_PLAN_SYMBOLIC_MAX_TERMS + 1;
  CHECK_EQ(dnnmem_plan_symbolic_records(&bad, 1, at, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  bad = p, bad.s_min = -1;
  CHECK_EQ(dnnmem_plan_symbolic_records(&bad, 1, at, NULL), DNNMEM_ERR_NEGATIVE);
  iv.count = -1;
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 1, at, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  iv.count = 2, iv.records = NULL;
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 1, at, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  iv.records = r;
  r[1].gaps = &gap, r[1].num_gaps = 1;
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 1, at, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  r[1].gaps = NULL, r[1].num_gaps = 0;
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 1, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  c[2] = 1, c[3] = INT64_MAX - 2; /* record 1: 1 + (2^63 - 3) S, past int64 at S = 2 by the addition */
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 1, at, NULL), DNNMEM_ERR_OVERFLOW); /* the sum of sizes */
  c[2] = 3, c[3] = 4;
  /* the resolver's stacking rules */
  CHECK_EQ(resolve(&p, NULL, 1, off, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  bst = st, bst.below_offsets = NULL;
  CHECK_EQ(resolve(&p, &bst, 1, off, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  bst = st, bst.order = NULL;
  CHECK_EQ(resolve(&p, &bst, 1, off, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(resolve(&p, &st, 1, NULL, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  bst = st, bst.below_ids = NULL;
  CHECK_EQ(resolve(&p, &bst, 1, off, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  below_offsets[0] = 1;
  CHECK_EQ(resolve(&p, &st, 1, off, &arena), DNNMEM_ERR_INVALID_ARGUMENT);
  below_offsets[0] = 0;
  r[1].alignment = 3;
  CHECK_EQ(resolve(&p, &st, 1, off, &arena), DNNMEM_ERR_ALIGNMENT);
  r[1].alignment = 0;
  CHECK_EQ(resolve(&p, &st, 2, off, NULL), DNNMEM_OK); /* the arena may be NULL */
  CHECK_EQ(off[0], 0);
  CHECK_EQ(off[1], 5); /* on record 0, 1 + 2 S = 5 bytes at S = 2 */
  /* the solver's argument rules */
  CHECK_EQ(dnnmem_plan_symbolic_solve_scratch_size(&p, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  memset(&opt, 0, sizeof opt);
  opt.node_limit = -1;
  CHECK_EQ(dnnmem_plan_symbolic_solve(&p, &opt, order, below_offsets, below_ids, 8, &res, scratch, sizeof scratch),
           DNNMEM_ERR_NEGATIVE);
  opt.node_limit = 0, opt.algo = DNNMEM_PLAN_ALGO_COUNT;
  CHECK_EQ(dnnmem_plan_symbolic_solve(&p, &opt, order, below_offsets, below_ids, 8, &res, scratch, sizeof scratch),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, NULL, below_offsets, below_ids, 8, &res, scratch, sizeof scratch),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, below_ids, -1, &res, scratch, sizeof scratch),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, NULL, 8, &res, scratch, sizeof scratch),
           DNNMEM_ERR_INVALID_ARGUMENT);
  /* a long range from 0 (samples 0, 1, then geometric), result NULL */
  CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, below_ids, 8, NULL, scratch, sizeof scratch),
           DNNMEM_OK);
  CHECK_EQ(symbolic_solve(&p, DNNMEM_PLAN_BEST, &sp), DNNMEM_OK);
  CHECK(sp.res.samples > 32 && sp.res.samples <= DNNMEM_PLAN_SYMBOLIC_SAMPLES); /* rounding merges a few */
  CHECK_EQ(sp.res.arena_min, 1 + 3); /* at S = 0 the constants: 1 and 3, meeting at step 1 */
  CHECK_EQ(sp.res.lower_bound_max, 1 + 2 * 5000 + 3 + 4 * 5000);
  /* dnnmem_plan_pass's own rules */
  r[0].pass = 1, r[1].pass = 2;
  CHECK_EQ(dnnmem_plan_pass_scratch_size(&iv, NULL, 1, &bytes), DNNMEM_OK);
  iv.count = -1;
  CHECK_EQ(dnnmem_plan_pass_scratch_size(&iv, NULL, 1, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  iv.count = 2;
  r[0].num_gaps = -1;
  CHECK_EQ(dnnmem_plan_pass_scratch_size(&iv, NULL, 1, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  r[0].num_gaps = 0;
}

/* More faults of a resolve, each with its code, index and field: a size
   below s_min, a negative alignment of the problem or of a record, a
   stacking naming a record below 0 or a record below past the count; the
   records past s_max. */
static void test_resolve_edges(void) {
  dnnmem_interval r[3], at[3];
  dnnmem_intervals iv = {r, 3, 4};
  int64_t c[6] = {0, 3, 5, 0, 1, 2}, off[3];
  int32_t order[3] = {1, 0, 2}, below_offsets[4] = {0, 0, 0, 2}, below_ids[2] = {0, 1};
  dnnmem_plan_symbolic p;
  dnnmem_plan_stacking st = {order, below_offsets, below_ids};
  dnnmem_plan_result named;
  r[0] = ref_plan_record(0, 2, 0), r[1] = ref_plan_record(2, 4, 0), r[2] = ref_plan_record(1, 3, 0);
  p.intervals = &iv, p.coefficients = c, p.terms = 2, p.s_min = 1, p.s_max = 100;
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 1, off, &named), DNNMEM_OK);
  CHECK_EQ(named.arena, 11); /* test_resolve_by_hand's */
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 0, off, &named), DNNMEM_ERR_PLAN_SYMBOL_RANGE);
  CHECK(named.error.index == -1 && named.error.field == DNNMEM_FIELD_SYMBOL);
  CHECK_EQ(dnnmem_plan_symbolic_records(&p, 101, at, NULL), DNNMEM_ERR_PLAN_SYMBOL_RANGE);
  iv.alignment = -4;
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 1, off, &named), DNNMEM_ERR_ALIGNMENT);
  CHECK(named.error.index == -1 && named.error.field == DNNMEM_FIELD_ALIGNMENT);
  iv.alignment = 4, r[0].alignment = -8;
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 1, off, &named), DNNMEM_ERR_ALIGNMENT);
  CHECK(named.error.index == 0 && named.error.field == DNNMEM_FIELD_ALIGNMENT);
  r[0].alignment = 0, order[1] = -1;
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 1, off, &named), DNNMEM_ERR_ID_RANGE);
  CHECK(named.error.index == 1 && named.error.field == DNNMEM_FIELD_STACKING);
  order[1] = 0, below_ids[0] = 3;
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&p, &st, 1, off, &named), DNNMEM_ERR_ID_RANGE);
  CHECK(named.error.index == 2 && named.error.field == DNNMEM_FIELD_STACKING);
  { /* the solve's outputs: offsets of the stacking, a capacity >= 0, ids when it is > 0 */
    dnnmem_plan_symbolic_result sr;
    size_t bytes = 0;
    void *mem;
    CHECK_EQ(dnnmem_plan_symbolic_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
    mem = malloc(bytes);
    CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, NULL, below_ids, 2, &sr, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(sr.error.field, DNNMEM_FIELD_OUTPUT);
    CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, below_ids, -1, &sr, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, NULL, 2, &sr, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(sr.error.field, DNNMEM_FIELD_OUTPUT);
    CHECK_EQ(dnnmem_plan_symbolic_solve(&p, NULL, order, below_offsets, below_ids, 2, &sr, mem, bytes), DNNMEM_OK);
    free(mem);
  }
}

/* A range of one S = 0: the plan is S = 0's own (reference 0), the same
   stacking as the constant sizes c0 asked at S = 1 (reference 1): every
   output equal, records empty at 0 included. */
static void test_symbolic_at_zero(void) {
  int32_t same = 0;
  FOR_TRIALS(rng, 5, k, 60) {
    dnnmem_interval r[8];
    int64_t c[16], c0[8];
    dnnmem_intervals iv = {r, 0, 0};
    dnnmem_plan_symbolic zero, one;
    symbolic_plan a, b;
    int32_t n = 3 + (int32_t)dnnmem_rng_below(&rng, 5), i;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 6);
      r[i] = ref_plan_record(lo, lo + 1 + dnnmem_rng_below(&rng, 4), 0);
      c0[i] = c[2 * i] = dnnmem_rng_below(&rng, 3) ? dnnmem_rng_below(&rng, 50) : 0;
      c[2 * i + 1] = dnnmem_rng_below(&rng, 8);
    }
    iv.count = n;
    zero.intervals = &iv, zero.coefficients = c, zero.terms = 2, zero.s_min = zero.s_max = 0;
    one.intervals = &iv, one.coefficients = c0, one.terms = 1, one.s_min = one.s_max = 1;
    CHECK_EQ(symbolic_solve(&zero, DNNMEM_PLAN_BEST, &a), DNNMEM_OK);
    CHECK_EQ(symbolic_solve(&one, DNNMEM_PLAN_BEST, &b), DNNMEM_OK);
    CHECK_EQ(a.res.reference, 0);
    CHECK_EQ(b.res.reference, 1);
    CHECK_EQ(a.res.edges, b.res.edges);
    CHECK(a.res.arena_min == b.res.arena_min && a.res.arena_max == b.res.arena_max);
    CHECK(a.res.lower_bound_min == b.res.lower_bound_min && a.res.samples == 1 && b.res.samples == 1);
    CHECK(memcmp(a.order, b.order, (size_t)n * sizeof(int32_t)) == 0);
    CHECK(memcmp(a.below_offsets, b.below_offsets, (size_t)(n + 1) * sizeof(int32_t)) == 0);
    if (a.res.edges == b.res.edges)
      same += memcmp(a.below_ids, b.below_ids, (size_t)a.res.edges * sizeof(int32_t)) == 0;
  }
  CHECK_EQ(same, 60);
}

/* Every field of a symbolic result recounted on random problems over 64
   values of S, every one a sample: [0, 63], and [40, 103] in every other
   trial (a short range away from 0). The worst ratio and the first S
   reaching it (dnnmem_plan_lower_bound's bound at each S), the arenas and
   bounds at both ends, the samples, the edges, a reference among the
   eight spread over the samples (the highest S, then 9 lower each time,
   the lowest positive one last) or a blend, and a cleared error. */
static void test_symbolic_result_fields(void) {
  FOR_TRIALS(rng, 31, trial, 150) {
    symbolic_case k;
    dnnmem_plan_stacking st;
    dnnmem_interval at[12];
    dnnmem_intervals iv = {at, 0, 0};
    dnnmem_plan_result bound;
    int64_t off[12], s, arena = -1, worst_at = -1, ends[4] = {-1, -1, -1, -1}, lo = trial % 2 ? 40 : 0;
    double worst = 0.0;
    int32_t i, known = 0;
    size_t bytes = 0;
    void *scratch;
    k.n = 2 + (int32_t)dnnmem_rng_below(&rng, 11);
    k.iv.records = k.r, k.iv.count = k.n, k.iv.alignment = 0;
    random_symbolic(&rng, k.r, k.c, k.n, 6, 4000);
    k.p.intervals = &k.iv, k.p.coefficients = k.c, k.p.terms = 3, k.p.s_min = lo, k.p.s_max = lo + 63;
    CHECK_EQ(symbolic_solve(&k.p, DNNMEM_PLAN_BEST, &k.sp), DNNMEM_OK);
    st.order = k.sp.order, st.below_offsets = k.sp.below_offsets, st.below_ids = k.sp.below_ids;
    iv.count = k.n;
    CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(&k.iv, &bytes), DNNMEM_OK);
    scratch = malloc(bytes ? bytes : 1);
    for (s = lo; s <= lo + 63; s++) {
      double ratio;
      CHECK_EQ(resolve(&k.p, &st, s, off, &arena), DNNMEM_OK);
      for (i = 0; i < k.n; i++) at[i] = k.r[i], at[i].size = ref_poly(k.c + 3 * i, 3, s);
      memset(&bound, 0, sizeof bound);
      CHECK_EQ(dnnmem_plan_lower_bound(&iv, &bound, scratch, bytes), DNNMEM_OK);
      CHECK_EQ(bound.lower_bound, ref_plan_max_load(at, k.n)); /* no alignment: the max load */
      ratio = bound.lower_bound > 0 ? (double)arena / (double)bound.lower_bound : 1.0;
      if (ratio > worst) worst = ratio, worst_at = s;
      if (s == lo) ends[0] = arena, ends[1] = bound.lower_bound;
      if (s == lo + 63) ends[2] = arena, ends[3] = bound.lower_bound;
    }
    free(scratch);
    CHECK(k.sp.res.worst_ratio == worst);
    CHECK_EQ(k.sp.res.worst_at, worst_at);
    CHECK_EQ(k.sp.res.arena_min, ends[0]);
    CHECK_EQ(k.sp.res.lower_bound_min, ends[1]);
    CHECK_EQ(k.sp.res.arena_max, ends[2]);
    CHECK_EQ(k.sp.res.lower_bound_max, ends[3]);
    CHECK_EQ(k.sp.res.samples, 64);
    CHECK_EQ(k.sp.res.edges, k.sp.below_offsets[k.n]);
    for (i = 0; i < 7; i++) known += k.sp.res.reference == lo + 63 - 9 * i;
    known += k.sp.res.reference == (lo > 0 ? lo : 1);
    CHECK(known == 1 || (k.sp.res.reference <= -1 && k.sp.res.reference >= -3));
    CHECK(k.sp.res.error.index == -1 && k.sp.res.error.field == DNNMEM_FIELD_NONE && k.sp.res.error.other == -1);
  }
}

int main(void) {
  RUN(test_two_pass_by_hand);
  RUN(test_passes_exact_against_brute_force);
  RUN(test_pass_errors);
  RUN(test_resolve_by_hand);
  RUN(test_symbolic_tilings);
  RUN(test_symbolic_brute_force);
  RUN(test_symbolic_blends);
  RUN(test_symbolic_gpt_mini);
  RUN(test_polynomial_parser);
  RUN(test_polynomial_units);
  RUN(test_symbolic_arguments);
  RUN(test_resolve_edges);
  RUN(test_symbolic_at_zero);
  RUN(test_symbolic_result_fields);
  return test_finish("test_plan_dynamic");
}
