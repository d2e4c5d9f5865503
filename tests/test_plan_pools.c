/* Tests of pools (part 2, dnnmem_plan_pools_*): several memories with
   capacities and costs per byte. Hand-made two-pool cases with known
   optima (the records that must leave SRAM at a peak; small records
   beating USMP's large-first greedy; a pool a record may not use; pool
   alignment; a fixed record); the lower bound's chain of disjoint steps;
   random small instances against the brute-force oracle of tests/ref.h
   (every assignment, every pool packed by brute force): exact answers
   equal the optimum, heuristics are valid and never below it, the bound
   never above it, infeasibility only when proven; the checker catching a
   pool over capacity, a record in a forbidden pool, an overlap, a pool
   index out of range; errors, short scratch, limits and determinism; links
   (in place and views) across pools; conflict sets over pools re-solved by
   the oracle. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"
#include "test.h"

#define rec ref_plan_record

/* dnnmem_plan_pools_solve with options, scratch as asked for (at an odd
   address: any alignment is accepted). */
static dnnmem_result pools_solve(const dnnmem_plan_pools *p, const dnnmem_plan_pools_options *o, int32_t *pool_of,
                                 int64_t *offsets, int64_t *arenas, dnnmem_plan_pools_result *res) {
  dnnmem_result rc;
  TEST_ASK_PASS(rc, dnnmem_plan_pools_solve_scratch_size(p, o, &test_bytes),
                dnnmem_plan_pools_solve(p, o, pool_of, offsets, arenas, res, test_mem + 1, test_bytes));
  return rc;
}

static dnnmem_result pools_bound(const dnnmem_plan_pools *p, int64_t *bound) {
  dnnmem_plan_pools_result res;
  dnnmem_result rc;
  TEST_ASK_PASS(rc, dnnmem_plan_pools_lower_bound_scratch_size(p, &test_bytes),
                dnnmem_plan_pools_lower_bound(p, &res, test_mem + 3, test_bytes));
  if (rc != DNNMEM_OK) return rc;
  *bound = res.lower_bound;
  return rc;
}

static dnnmem_result pools_check(const dnnmem_plan_pools *p, const int32_t *pool_of, const int64_t *offsets,
                                 int64_t *cost, int64_t *arenas, int32_t *conflict) {
  dnnmem_plan_pools_result res;
  dnnmem_result rc;
  res.cost = 0, res.error.index = res.error.other = -1;
  TEST_ASK_PASS(rc, dnnmem_plan_pools_check_scratch_size(p, &test_bytes),
                dnnmem_plan_pools_check(p, pool_of, offsets, arenas, &res, test_mem + 5, test_bytes));
  if (cost) *cost = res.cost;
  if (conflict) conflict[0] = res.error.index, conflict[1] = res.error.other;
  return rc;
}

static dnnmem_plan_pools_options algo(dnnmem_plan_pools_algo a) {
  dnnmem_plan_pools_options o;
  memset(&o, 0, sizeof o);
  o.algo = a;
  return o;
}

static dnnmem_pool pool(int64_t capacity, int64_t cost) {
  dnnmem_pool q;
  memset(&q, 0, sizeof q);
  q.capacity = capacity;
  q.cost = cost;
  return q;
}

/* The problem of the records iv in num_pools pools (no masks: every
   record may use every pool). */
static void pools_problem(dnnmem_plan_pools *p, dnnmem_intervals *iv, dnnmem_pool *pools, int32_t num_pools) {
  memset(p, 0, sizeof *p);
  p->intervals = iv, p->pools = pools, p->num_pools = num_pools;
}

/* Three records of 100 bytes in a row, each meeting the next, under one of
   50 for the whole time: 250 bytes live at steps 1 and 2, SRAM holds 150.
   100 bytes must leave SRAM at both peaks; the middle record leaves for
   both: 100 x 10 + 250 x 1 = 1250, which the bound proves. */
static void test_peak_leaves(void) {
  dnnmem_interval r[4];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 4, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  int32_t pool_of[4], a;
  int64_t off[4], arenas[2], bound = 0, cost = 0;
  r[0] = rec(0, 2, 100), r[1] = rec(1, 3, 100), r[2] = rec(2, 4, 100), r[3] = rec(0, 4, 50);
  pools[0] = pool(150, 1), pools[1] = pool(0, 10);
  pools_problem(&p, &iv, pools, 2);
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_OK);
  CHECK_EQ(bound, 1250);
  CHECK_EQ(ref_pools_optimum(&p), 1250);
  for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
    dnnmem_plan_pools_options o = algo((dnnmem_plan_pools_algo)a);
    CHECK_EQ(pools_solve(&p, &o, pool_of, off, arenas, &res), DNNMEM_OK);
    CHECK_EQ(res.cost, 1250);
    CHECK_EQ(res.lower_bound, 1250);
    CHECK(res.optimal && res.feasible == 1 && res.stop == DNNMEM_PLAN_STOP_PROVED);
    CHECK_EQ(pool_of[1], 1);
    CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), 1250);
    CHECK_EQ(pools_check(&p, pool_of, off, &cost, arenas, NULL), DNNMEM_OK);
    CHECK_EQ(cost, 1250);
    CHECK_VALUES(arenas, 150, 100);
  }
}

/* Equal costs, then the smaller arenas: a [2,4) and c [2,3), 5 bytes
   each, cannot share an SRAM of 8; either leaving costs 18. With a in
   DRAM, c, b [3,5) of 2 and d [0,2) of 1 follow each other in SRAM (arena
   5, DRAM 5: 10 in all); with c in DRAM, a and b meet (7 + 5 = 12).
   USMP's greedy sends c (a, as large, came first); every other algorithm
   finds the plan of least cost first or later and keeps the one with the
   smaller arenas, as documented (cost, then arenas). */
static void test_equal_cost_smaller_arenas(void) {
  dnnmem_interval r[4];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 4, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  int32_t pool_of[4], a;
  int64_t off[4], arenas[2];
  r[0] = rec(2, 4, 5), r[1] = rec(3, 5, 2), r[2] = rec(2, 3, 5), r[3] = rec(0, 2, 1);
  pools[0] = pool(8, 1), pools[1] = pool(0, 2);
  pools_problem(&p, &iv, pools, 2);
  CHECK_EQ(ref_pools_optimum(&p), 18);
  for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
    dnnmem_plan_pools_options o = algo((dnnmem_plan_pools_algo)a);
    int greedy = a == DNNMEM_PLAN_POOLS_GREEDY;
    CHECK_EQ(pools_solve(&p, &o, pool_of, off, arenas, &res), DNNMEM_OK);
    CHECK_EQ(res.cost, 18);
    CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), 18);
    CHECK_EQ(pool_of[0], greedy ? 0 : 1);
    CHECK_EQ(pool_of[2], greedy ? 1 : 0);
    CHECK_VALUES(arenas, greedy ? 7 : 5, 5);
  }
}

/* USMP's greedy puts the largest record in SRAM first; two smaller ones
   that follow each other are worth more there: 100 x 1 + 120 x 10 = 1300
   against 120 x 1 + 100 x 10 = 1120, the optimum (and the bound). */
static void test_small_beat_large(void) {
  dnnmem_interval r[3];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 3, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  dnnmem_plan_pools_options o = algo(DNNMEM_PLAN_POOLS_GREEDY);
  int32_t pool_of[3];
  int64_t off[3], bound = 0;
  r[0] = rec(0, 10, 100), r[1] = rec(0, 5, 60), r[2] = rec(5, 10, 60);
  pools[0] = pool(100, 1), pools[1] = pool(0, 10);
  pools_problem(&p, &iv, pools, 2);
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK_EQ(res.cost, 1300);
  CHECK_EQ(res.algo, DNNMEM_PLAN_POOLS_GREEDY);
  CHECK(!res.optimal && res.stop == DNNMEM_PLAN_STOP_NONE);
  CHECK_EQ(pool_of[0], 0);
  CHECK_EQ(ref_pools_optimum(&p), 1120);
  /* the bound splits the large record differently at its two peaks:
     220 + 60 x 9 = 760; the exact search proves 1120 */
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_OK);
  CHECK_EQ(bound, 760);
  o = algo(DNNMEM_PLAN_POOLS_BEST);
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK_EQ(res.cost, 1120);
  CHECK_EQ(res.lower_bound, 1120);
  CHECK(res.optimal && res.stop == DNNMEM_PLAN_STOP_PROVED);
  CHECK_VALUES(pool_of, 1, 0, 0);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), 1120);
}

/* SRAM one byte short of the records' best arena (4, their load: sizes 2
   and 1 staggered), DRAM at cost 3: some records must leave SRAM, and the
   exact search must find and prove the oracle's optimum over both pools,
   with the bound below it. */
static void test_sram_one_byte_short(void) {
  dnnmem_interval r[5];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 5, 0}, all;
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  dnnmem_plan_pools_options o = algo(DNNMEM_PLAN_POOLS_EXACT);
  int32_t pool_of[5];
  int64_t off[5], bound = 0, opt;
  r[0] = rec(0, 2, 2), r[1] = rec(0, 1, 2), r[2] = rec(1, 3, 1), r[3] = rec(1, 4, 1), r[4] = rec(2, 4, 2);
  all = iv;
  CHECK_EQ(ref_plan_max_load(r, 5), 4);
  pools[0] = pool(ref_plan_optimum(&all, NULL) - 1, 1), pools[1] = pool(0, 3);
  pools_problem(&p, &iv, pools, 2);
  opt = ref_pools_optimum(&p);
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_OK);
  CHECK(bound <= opt);
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK_EQ(res.cost, opt);
  CHECK(res.stop == DNNMEM_PLAN_STOP_PROVED && res.optimal);
  CHECK_EQ(res.lower_bound, opt);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), opt);
}

/* Allowed lists: the large record may only use DRAM (preference: DRAM),
   the others prefer SRAM; a record allowed only in a pool it cannot fit
   is refused; the forbidden pool and an over-full pool are caught by the
   checker. */
static void test_allowed_and_checker(void) {
  dnnmem_interval r[3];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 3, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  int32_t offsets_of[4] = {0, 1, 3, 5}, ids[5] = {1, 0, 1, 0, 1}, pool_of[3], bad[2];
  int64_t off[3], cost = 0, bound = 0;
  r[0] = rec(0, 4, 64), r[1] = rec(0, 2, 32), r[2] = rec(2, 4, 32);
  pools[0] = pool(64, 1), pools[1] = pool(0, 8);
  pools_problem(&p, &iv, pools, 2);
  p.allowed_offsets = offsets_of, p.allowed_ids = ids;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK_VALUES(pool_of, 1, 0, 0);
  CHECK_EQ(res.cost, 64 * 8 + 64);
  CHECK_EQ(ref_pools_optimum(&p), 64 * 8 + 64);
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_OK);
  CHECK_EQ(bound, 64 * 8 + 64);
  /* lists that are no CSR: offsets falling at record 1, not starting at 0,
     one id and no ids array (each refused, naming the record or -1) */
  offsets_of[2] = 0;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(res.error.index == 1 && res.error.field == DNNMEM_FIELD_POOL);
  offsets_of[2] = 3, offsets_of[0] = 1;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(res.error.index == 0 && res.error.field == DNNMEM_FIELD_POOL);
  {
    int32_t one[4] = {0, 0, 0, 1};
    p.allowed_offsets = one, p.allowed_ids = NULL;
    CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK(res.error.index == -1 && res.error.field == DNNMEM_FIELD_POOL);
  }
  offsets_of[0] = 0, p.allowed_offsets = offsets_of, p.allowed_ids = ids;
  /* the checker: record 0 in SRAM is forbidden */
  pool_of[0] = 0;
  CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, bad), DNNMEM_ERR_PLAN_POOL_FORBIDDEN);
  CHECK_EQ(bad[0], 0);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), -1);
  /* without lists: SRAM over capacity (record 0 at 0, record 1 above it) */
  p.allowed_offsets = NULL, p.allowed_ids = NULL;
  off[0] = 0, off[1] = 64, off[2] = 0, pool_of[2] = 1;
  pool_of[1] = 0;
  CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, bad), DNNMEM_ERR_PLAN_POOL_OVER_CAPACITY);
  CHECK_EQ(bad[0], 1);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), -1);
  /* an overlap inside a pool names both records */
  off[1] = 32;
  CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, bad), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK((bad[0] == 0 && bad[1] == 1) || (bad[0] == 1 && bad[1] == 0));
  /* a pool index out of range */
  pool_of[2] = 2;
  CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, bad), DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(bad[0], 2);
  /* a record that may only go to SRAM and does not fit it */
  ids[0] = 0;
  p.allowed_offsets = offsets_of, p.allowed_ids = ids;
  r[0].size = 65;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_PLAN_POOL_CAPACITY);
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_ERR_PLAN_POOL_CAPACITY);
  /* a record with no pool at all */
  offsets_of[1] = 0, offsets_of[2] = 2, offsets_of[3] = 4;
  ids[0] = 0, ids[1] = 1, ids[2] = 0, ids[3] = 1;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_PLAN_POOL_CAPACITY);
}

/* Every pool bounded and one step holding more than all of them: proven
   infeasible by the bound; a pool's alignment rounds its offsets. */
static void test_infeasible_and_alignment(void) {
  dnnmem_interval r[4];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 3, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  int32_t pool_of[4], i;
  int64_t off[4], arenas[2], bound;
  r[0] = rec(0, 3, 40), r[1] = rec(1, 2, 40), r[2] = rec(1, 3, 40);
  pools[0] = pool(64, 1), pools[1] = pool(48, 2);
  pools_problem(&p, &iv, pools, 2);
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_ERR_INFEASIBLE);
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_INFEASIBLE);
  CHECK_EQ(res.feasible, 0);
  CHECK_EQ(ref_pools_optimum(&p), -1);
  /* with a link the tied planner's bound proves it: each record fits a
     pool alone, but 120 bytes are live at step 1 and the pools hold 112 */
  r[3] = rec(2, 4, 40), r[3].flags = DNNMEM_INTERVAL_REUSE, r[3].reuse = 0;
  iv.count = 4;
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_ERR_INFEASIBLE);
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_INFEASIBLE);
  CHECK(res.feasible == 0 && res.stop == DNNMEM_PLAN_STOP_PROVED);
  CHECK_EQ(ref_pools_optimum(&p), -1);
  iv.count = 3;
  pools[1].capacity = 0;
  pools[0].alignment = 64;
  pools[0].capacity = 128;
  r[1].size = 8;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, arenas, &res), DNNMEM_OK);
  for (i = 0; i < 3; i++)
    if (pool_of[i] == 0) CHECK_EQ(off[i] % 64, 0);
  CHECK_EQ(res.cost, ref_pools_optimum(&p));
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), res.cost);
  CHECK_EQ(res.cost, 96); /* 64-byte slots: two records in SRAM, the small one out */
}

/* A fixed record keeps its offset in whichever pool it goes to; its place
   taken in SRAM sends the other record to DRAM. */
static void test_fixed(void) {
  dnnmem_interval r[2];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 2, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  int32_t pool_of[2], a;
  int64_t off[2];
  r[0] = rec(0, 2, 32), r[1] = rec(0, 2, 48);
  r[0].flags = DNNMEM_INTERVAL_FIXED, r[0].fixed_offset = 16;
  pools[0] = pool(64, 1), pools[1] = pool(0, 4);
  pools_problem(&p, &iv, pools, 2);
  for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
    dnnmem_plan_pools_options o = algo((dnnmem_plan_pools_algo)a);
    CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_OK);
    CHECK_EQ(off[0], 16);
    CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), res.cost);
    CHECK(res.cost >= ref_pools_optimum(&p));
  }
  CHECK_EQ(res.cost, ref_pools_optimum(&p));
  CHECK_EQ(res.cost, 48 + 32 * 4);
}

/* The bound's chain: two disjoint peaks each force 100 bytes out (extra
   900 each), so the bound is 1800 above the all-SRAM cost, not 900. */
static void test_bound_chain(void) {
  dnnmem_interval r[4];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 4, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  int32_t pool_of[4];
  int64_t off[4], bound = 0;
  r[0] = rec(0, 2, 100), r[1] = rec(0, 2, 100), r[2] = rec(2, 4, 100), r[3] = rec(2, 4, 100);
  pools[0] = pool(100, 1), pools[1] = pool(0, 10);
  pools_problem(&p, &iv, pools, 2);
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_OK);
  CHECK_EQ(bound, 400 + 1800);
  CHECK_EQ(ref_pools_optimum(&p), 2200);
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK_EQ(res.cost, 2200);
  CHECK(res.optimal);
}

/* Random small instances against the oracle. */
static void test_random_oracle(void) {
  int32_t exact_proved = 0, infeasible = 0;
  FOR_TRIALS(rng, 13, trial, 400) {
    dnnmem_interval r[6];
    dnnmem_pool pools[3];
    dnnmem_intervals iv;
    dnnmem_plan_pools p;
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 5), P = 2 + (int32_t)dnnmem_rng_below(&rng, 2), i, q, a;
    int32_t offsets_of[7], ids[18], pool_of[6], k = 0;
    int64_t off[6], bound = -1, opt, load;
    dnnmem_result brc;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 6);
      r[i] = rec(lo, lo + 1 + dnnmem_rng_below(&rng, 4), 1 + dnnmem_rng_below(&rng, 8));
      if (dnnmem_rng_below(&rng, 8) == 0) r[i].alignment = 2;
      if (dnnmem_rng_below(&rng, 12) == 0) r[i].flags = DNNMEM_INTERVAL_FIXED, r[i].fixed_offset = 2 * dnnmem_rng_below(&rng, 3);
    }
    iv.records = r, iv.count = n, iv.alignment = 0;
    load = ref_plan_max_load(r, n);
    for (q = 0; q < P; q++) {
      pools[q] = pool(q == P - 1 && dnnmem_rng_below(&rng, 3) ? 0 : 1 + (int64_t)dnnmem_rng_below(&rng, (uint32_t)load + 4),
                      1 + dnnmem_rng_below(&rng, 10));
      pools[q].alignment = dnnmem_rng_below(&rng, 6) == 0 ? 4 : 0;
    }
    pools_problem(&p, &iv, pools, P);
    if (dnnmem_rng_below(&rng, 2)) { /* random lists, preference shuffled */
      offsets_of[0] = 0;
      for (i = 0; i < n; i++) {
        int32_t start = k;
        for (q = 0; q < P; q++)
          if (dnnmem_rng_below(&rng, 3)) ids[k++] = q;
        if (k == start) ids[k++] = (int32_t)dnnmem_rng_below(&rng, (uint32_t)P);
        if (k - start == 2 && dnnmem_rng_below(&rng, 2)) { int32_t t = ids[start]; ids[start] = ids[start + 1], ids[start + 1] = t; }
        offsets_of[i + 1] = k;
      }
      p.allowed_offsets = offsets_of, p.allowed_ids = ids;
    }
    brc = pools_bound(&p, &bound);
    if (brc == DNNMEM_ERR_PLAN_POOL_CAPACITY) continue;
    opt = ref_pools_optimum(&p);
    if (brc == DNNMEM_ERR_INFEASIBLE) CHECK_EQ(opt, -1);
    else CHECK(brc == DNNMEM_OK && (opt < 0 || bound <= opt));
    if (getenv("POOLS_DEBUG") && brc == DNNMEM_OK && opt >= 0 && bound > opt) {
      fprintf(stderr, "trial %d bound %lld opt %lld\n", (int)trial, (long long)bound, (long long)opt);
      for (i = 0; i < n; i++) fprintf(stderr, " r[%d, %d) %d a%d f%d@%d\n", (int)r[i].lower, (int)r[i].upper, (int)r[i].size, (int)r[i].alignment, r[i].flags, (int)r[i].fixed_offset);
      for (q = 0; q < P; q++) fprintf(stderr, " pool cap %d cost %d a%d\n", (int)pools[q].capacity, (int)pools[q].cost, (int)pools[q].alignment);
      if (p.allowed_offsets) for (i = 0; i < n; i++) { fprintf(stderr, " allowed %d:", (int)i); for (k = offsets_of[i]; k < offsets_of[i+1]; k++) fprintf(stderr, " %d", (int)ids[k]); fprintf(stderr, "\n"); }
    }
    for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
      dnnmem_plan_pools_options o = algo((dnnmem_plan_pools_algo)a);
      dnnmem_plan_pools_result res;
      int64_t arenas[3], ref_arenas[3], cost = -2;
      dnnmem_result rc = pools_solve(&p, &o, pool_of, off, arenas, &res);
      if (rc == DNNMEM_ERR_INFEASIBLE) {
        CHECK(res.feasible != 1);
        if (res.feasible == 0) CHECK_EQ(opt, -1);
        if (a == DNNMEM_PLAN_POOLS_EXACT) {
          CHECK_EQ(opt, -1);
          infeasible++;
        }
        continue;
      }
      CHECK_EQ(rc, DNNMEM_OK);
      if (rc != DNNMEM_OK) continue;
      CHECK_EQ(ref_pools_recount(&p, pool_of, off, ref_arenas), res.cost);
      for (q = 0; q < P; q++) CHECK_EQ(arenas[q], ref_arenas[q]);
      CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, NULL), DNNMEM_OK);
      CHECK_EQ(cost, res.cost);
      CHECK(opt >= 0 && res.cost >= opt && res.lower_bound <= opt && res.lower_bound >= bound);
      if (res.optimal || res.stop == DNNMEM_PLAN_STOP_PROVED) CHECK_EQ(res.cost, opt);
      if (a == DNNMEM_PLAN_POOLS_EXACT) {
        CHECK_EQ(res.stop, DNNMEM_PLAN_STOP_PROVED);
        CHECK_EQ(res.cost, opt);
        exact_proved++;
      }
    }
  }
  CHECK(exact_proved > 150);
  CHECK(infeasible > 5);
}

/* In-place reuse and aliasing across pools. An in-place chain of three
   100-byte records (each overwrites the one dying where it begins) fits a
   100-byte SRAM only with both ties: cost 300, which the links-aware bound
   proves (without reuse, 200 bytes live at step 1 send one to DRAM). A
   view must share its base's pool: with the view barred from SRAM, the
   class goes to DRAM. A tie needs a pool both ends may use. */
static void test_links(void) {
  dnnmem_interval r[3];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 3, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  int32_t offsets_of[4] = {0, 2, 4, 5}, ids[5] = {0, 1, 0, 1, 1}, pool_of[3], bad[2], a;
  int64_t off[3], cost = 0, bound = 0;
  r[0] = rec(0, 2, 100), r[1] = rec(1, 3, 100), r[2] = rec(2, 4, 100);
  r[1].flags = r[2].flags = DNNMEM_INTERVAL_REUSE;
  r[1].reuse = 0, r[2].reuse = 1;
  pools[0] = pool(100, 1), pools[1] = pool(0, 10);
  pools_problem(&p, &iv, pools, 2);
  CHECK_EQ(ref_pools_optimum(&p), 300);
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_OK);
  CHECK_EQ(bound, 300);
  for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
    dnnmem_plan_pools_options o = algo((dnnmem_plan_pools_algo)a);
    CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_OK);
    CHECK_EQ(res.cost, 300);
    CHECK(res.optimal && res.stop == DNNMEM_PLAN_STOP_PROVED);
    CHECK_EQ(res.reused, 2);
    CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), 300);
    CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, NULL), DNNMEM_OK);
  }
  /* the checker: a reuse across pools is no tie, an undeclared overlap is */
  pool_of[0] = 0, pool_of[1] = 1, pool_of[2] = 0, off[0] = off[1] = off[2] = 0;
  CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, bad), DNNMEM_OK);
  CHECK_EQ(cost, 100 + 1000 + 100);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), 1200);
  r[2].flags = 0;
  pool_of[1] = 0;
  CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, bad), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK(bad[0] == 1 && bad[1] == 2);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), -1);
  /* a tie needs a common pool: record 1 may only use DRAM, so record 0
     (SRAM or DRAM) and record 2 cannot both tie to it in SRAM */
  r[2].flags = DNNMEM_INTERVAL_REUSE;
  offsets_of[1] = 2, offsets_of[2] = 3, offsets_of[3] = 5;
  ids[0] = 0, ids[1] = 1, ids[2] = 1, ids[3] = 0, ids[4] = 1;
  p.allowed_offsets = offsets_of, p.allowed_ids = ids;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK_EQ(res.cost, ref_pools_optimum(&p));
  CHECK_EQ(res.cost, 100 + 1000 + 100);
  CHECK(res.optimal);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), res.cost);
  /* a view and its base: one pool, one offset */
  iv.count = 2;
  p.allowed_offsets = NULL, p.allowed_ids = NULL;
  r[0] = rec(0, 3, 100), r[1] = rec(1, 4, 100);
  r[1].flags = DNNMEM_INTERVAL_ALIAS, r[1].alias = 0;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK(pool_of[0] == 0 && pool_of[1] == 0 && off[0] == 0 && off[1] == 0);
  CHECK_EQ(res.cost, 200);
  CHECK(res.optimal);
  pool_of[1] = 1;
  CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, bad), DNNMEM_ERR_PLAN_ALIAS_OFFSET);
  CHECK(bad[0] == 0 && bad[1] == 1);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), -1);
  offsets_of[1] = 2, offsets_of[2] = 3, ids[0] = 0, ids[1] = 1, ids[2] = 1;
  p.allowed_offsets = offsets_of, p.allowed_ids = ids;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK(pool_of[0] == 1 && pool_of[1] == 1);
  CHECK_EQ(res.cost, 2000);
  CHECK_EQ(ref_pools_optimum(&p), 2000);
  CHECK(res.optimal);
  /* no common pool at all: the class cannot be planned */
  ids[0] = 1, ids[1] = 0, offsets_of[1] = 1, offsets_of[2] = 2;
  CHECK_EQ(ref_pools_optimum(&p), -1);
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_PLAN_POOL_CAPACITY);
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_ERR_PLAN_POOL_CAPACITY);
  /* the link rules hold across pools too */
  p.allowed_offsets = NULL, p.allowed_ids = NULL;
  r[1].alias = 1;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_CYCLE);
  r[1] = rec(1, 4, 100), r[1].flags = DNNMEM_INTERVAL_REUSE, r[1].reuse = 0; /* 0 still live after step 1 */
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_PLAN_REUSE);
  CHECK_EQ(pools_bound(&p, &bound), DNNMEM_ERR_PLAN_REUSE);
  CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, bad), DNNMEM_ERR_PLAN_REUSE);
}

/* Random small linked instances over two or three pools against the
   brute-force oracle (every assignment with each class in one pool, each
   pool by the tied brute force): every plan valid by recount and by the
   checker with the recount's cost, never below the optimum; the bound
   never above it; "optimal" only when it is. */
static void test_links_random(void) {
  int32_t solved = 0, at_optimum = 0, proved = 0, rule_errors = 0;
  long long reused = 0, costs = 0, moves = 0; /* ties taken, costs, improving moves: deterministic, recorded */
  FOR_TRIALS(rng, 29, trial, 300) {
    dnnmem_interval r[6];
    dnnmem_pool pools[3];
    dnnmem_intervals iv;
    dnnmem_plan_pools p;
    dnnmem_plan_pools_result res;
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 5), P = 2 + (int32_t)dnnmem_rng_below(&rng, 2), i, q, a, k = 0;
    int32_t offsets_of[7], ids[18], pool_of[6];
    int64_t off[6], bound = -1, opt, load;
    dnnmem_result rule, brc;
    ref_plan_random_tied(&rng, r, n, 6, 8);
    iv.records = r, iv.count = n, iv.alignment = 0;
    load = ref_plan_max_load(r, n);
    for (q = 0; q < P; q++)
      pools[q] = pool(q == P - 1 ? 0 : 1 + (int64_t)dnnmem_rng_below(&rng, (uint32_t)load + 2), 1 + 4 * q);
    pools_problem(&p, &iv, pools, P);
    if (dnnmem_rng_below(&rng, 2)) {
      offsets_of[0] = 0;
      for (i = 0; i < n; i++) {
        int32_t start = k;
        for (q = 0; q < P; q++)
          if (dnnmem_rng_below(&rng, 4)) ids[k++] = q;
        if (k == start) ids[k++] = P - 1;
        offsets_of[i + 1] = k;
      }
      p.allowed_offsets = offsets_of, p.allowed_ids = ids;
    }
    rule = ref_plan_reuse_rule(&iv);
    brc = pools_bound(&p, &bound);
    if (rule != DNNMEM_OK) { /* or a record too large for every pool it may use */
      CHECK(brc == rule || brc == DNNMEM_ERR_PLAN_POOL_CAPACITY);
      CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), brc);
      rule_errors++;
      continue;
    }
    opt = ref_pools_optimum(&p);
    if (brc == DNNMEM_ERR_PLAN_POOL_CAPACITY) { /* a class with no common pool */
      CHECK_EQ(opt, -1);
      continue;
    }
    CHECK(brc == DNNMEM_OK || brc == DNNMEM_ERR_INFEASIBLE);
    if (brc == DNNMEM_ERR_INFEASIBLE) CHECK_EQ(opt, -1);
    if (brc == DNNMEM_OK && opt >= 0) CHECK(bound <= opt);
    if (getenv("POOLS_DEBUG") && brc == DNNMEM_OK && opt >= 0 && bound > opt) {
      fprintf(stderr, "trial %d bound %lld opt %lld\n", (int)trial, (long long)bound, (long long)opt);
      for (i = 0; i < n; i++) fprintf(stderr, " r%d [%d, %d) %d f%d alias %d reuse %d\n", (int)i, (int)r[i].lower, (int)r[i].upper, (int)r[i].size, r[i].flags, r[i].alias, r[i].reuse);
      for (q = 0; q < P; q++) fprintf(stderr, " pool cap %d cost %d\n", (int)pools[q].capacity, (int)pools[q].cost);
      if (p.allowed_offsets) for (i = 0; i < n; i++) { fprintf(stderr, " allowed %d:", (int)i); for (k = offsets_of[i]; k < offsets_of[i+1]; k++) fprintf(stderr, " %d", (int)ids[k]); fprintf(stderr, "\n"); }
    }
    for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
      dnnmem_plan_pools_options o = algo((dnnmem_plan_pools_algo)a);
      int64_t cost = -2;
      dnnmem_result rc = pools_solve(&p, &o, pool_of, off, NULL, &res);
      if (rc == DNNMEM_ERR_INFEASIBLE) {
        if (res.feasible == 0) CHECK_EQ(opt, -1);
        continue;
      }
      CHECK_EQ(rc, DNNMEM_OK);
      if (rc != DNNMEM_OK) continue;
      solved++;
      CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), res.cost);
      CHECK_EQ(pools_check(&p, pool_of, off, &cost, NULL, NULL), DNNMEM_OK);
      CHECK_EQ(cost, res.cost);
      CHECK(opt >= 0 && res.cost >= opt && res.lower_bound <= opt);
      if (res.optimal || res.stop == DNNMEM_PLAN_STOP_PROVED) {
        CHECK_EQ(res.cost, opt);
        proved++;
      }
      at_optimum += res.cost == opt;
      reused += res.reused, costs += res.cost, moves += res.moves;
    }
  }
  printf("pools with links: %lld ties used, costs %lld, moves %lld\n", reused, costs, moves);
  CHECK_EQ(moves, 12);
  CHECK_EQ(reused, 139);
  CHECK_EQ(costs, 58564);
  if (getenv("POOLS_DEBUG"))
    fprintf(stderr, "links: %d solved, %d at the optimum, %d proved, %d rule errors\n", (int)solved, (int)at_optimum,
            (int)proved, (int)rule_errors);
  CHECK(solved > 300);
  CHECK(at_optimum * 20 > solved * 17); /* 894 of 979: the tie sets are some of the choices */
  CHECK(rule_errors > 10);
}

/* Why not, over pools: three 100-byte records live together where the two
   pools hold 250 bytes are the conflict, minimal (any two fit: one in each
   pool); records elsewhere in time stay out. Random small instances: every
   conflict set is re-solved by the oracle (no plan) and, when minimal,
   every set less one record has a plan; feasible problems answer so. */
static void test_conflict(void) {
  dnnmem_interval r[5];
  dnnmem_pool pools[3];
  dnnmem_intervals iv = {r, 5, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_conflict_result cr;
  int32_t conflict[6], found = 0, minimal = 0;
  size_t bytes = 0;
  unsigned char *mem;
  r[0] = rec(0, 2, 40), r[1] = rec(1, 3, 100), r[2] = rec(1, 4, 100), r[3] = rec(2, 5, 100), r[4] = rec(4, 6, 150);
  pools[0] = pool(150, 1), pools[1] = pool(100, 10);
  pools_problem(&p, &iv, pools, 2);
  CHECK_EQ(ref_pools_optimum(&p), -1);
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes + 1);
  CHECK_EQ(dnnmem_plan_pools_conflict(&p, NULL, conflict, 6, &cr, mem + 1, bytes), DNNMEM_OK);
  CHECK(cr.feasible == 0 && cr.minimal == 1 && cr.count == 3);
  CHECK(conflict[0] == 1 && conflict[1] == 2 && conflict[2] == 3);
  CHECK_EQ(dnnmem_plan_pools_conflict(&p, NULL, conflict, 2, &cr, mem + 1, bytes), DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(cr.count, 3);
  CHECK_EQ(dnnmem_plan_pools_conflict(&p, NULL, conflict, 6, &cr, mem + 1, bytes - 1), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  free(mem);
  FOR_TRIALS(rng, 31, trial, 300) {
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 4), P = 1 + (int32_t)dnnmem_rng_below(&rng, 3), i, j, q, k = 0;
    int32_t offsets_of[7], ids[18];
    uint8_t member[6];
    int64_t opt, load;
    dnnmem_result rc;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 5);
      r[i] = rec(lo, lo + 1 + dnnmem_rng_below(&rng, 4), 1 + dnnmem_rng_below(&rng, 8));
    }
    iv.count = n;
    load = ref_plan_max_load(r, n);
    for (q = 0; q < P; q++) pools[q] = pool(1 + (int64_t)dnnmem_rng_below(&rng, (uint32_t)load + 2), 1 + q);
    pools_problem(&p, &iv, pools, P);
    if (dnnmem_rng_below(&rng, 2)) {
      offsets_of[0] = 0;
      for (i = 0; i < n; i++) {
        for (q = 0; q < P; q++)
          if (dnnmem_rng_below(&rng, 3)) ids[k++] = q;
        offsets_of[i + 1] = k;
      }
      p.allowed_offsets = offsets_of, p.allowed_ids = ids;
    }
    CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
    mem = (unsigned char *)malloc(bytes);
    rc = dnnmem_plan_pools_conflict(&p, NULL, conflict, 6, &cr, mem, bytes);
    free(mem);
    if (rc == DNNMEM_ERR_PLAN_POOL_CAPACITY) continue; /* a record fits none of its pools */
    CHECK_EQ(rc, DNNMEM_OK);
    opt = ref_pools_optimum(&p);
    if (opt >= 0) {
      CHECK(cr.feasible == 1 && cr.count == 0);
      continue;
    }
    CHECK(cr.feasible == 0 && cr.count >= 1);
    if (cr.feasible != 0) continue;
    found++;
    memset(member, 0, sizeof member);
    for (i = 0; i < cr.count; i++) member[conflict[i]] = 1;
    CHECK_EQ(ref_pools_optimum_of(&p, member), -1);
    if (!cr.minimal) continue;
    minimal++;
    for (j = 0; j < cr.count; j++) {
      member[conflict[j]] = 0;
      CHECK(ref_pools_optimum_of(&p, member) >= 0);
      member[conflict[j]] = 1;
    }
  }
  CHECK(found > 30);
  CHECK(minimal == found); /* unlimited exact decisions, no gaps: every set proven minimal */
}

/* Arguments, scratch, names, limits, determinism. */
static void test_arguments(void) {
  dnnmem_interval r[3];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 3, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res, res2;
  dnnmem_plan_pools_options o;
  dnnmem_plan_pools_algo al;
  int32_t pool_of[3], pool_of2[3], i, offsets_of[4] = {0, 1, 2, 3}, ids[3] = {0, 2, 1};
  int64_t off[3], off2[3];
  size_t bytes = 0;
  unsigned char *mem;
  r[0] = rec(0, 2, 100), r[1] = rec(1, 3, 100), r[2] = rec(2, 4, 100);
  pools[0] = pool(150, 1), pools[1] = pool(0, 10);
  pools_problem(&p, &iv, pools, 2);
  CHECK_EQ(dnnmem_plan_pools_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes + 1); /* at 1 mod 16 (malloc's 16): all padding used */
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, pool_of, off, NULL, &res, mem + 1, bytes - 1), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, pool_of, off, NULL, &res, NULL, 0), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, pool_of, off, NULL, &res, mem, bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, pool_of2, off2, NULL, &res2, mem, bytes), DNNMEM_OK);
  for (i = 0; i < 3; i++) CHECK(pool_of[i] == pool_of2[i] && off[i] == off2[i]);
  CHECK_EQ(res.cost, res2.cost);
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, NULL, off, NULL, &res, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  free(mem);
  CHECK_EQ(dnnmem_plan_pools_lower_bound_scratch_size(&p, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes + 1);
  CHECK_EQ(dnnmem_plan_pools_lower_bound(&p, &res, mem + 1, bytes - 1), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  free(mem);
  CHECK_EQ(dnnmem_plan_pools_check_scratch_size(&p, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes + 1);
  CHECK_EQ(dnnmem_plan_pools_check(&p, pool_of, off, NULL, NULL, mem + 1, bytes - 1), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  free(mem);
  /* bad problems */
  o = algo(DNNMEM_PLAN_POOLS_ALGO_COUNT);
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  o = algo(DNNMEM_PLAN_POOLS_BEST), o.node_limit = -1;
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_ERR_NEGATIVE);
  p.num_pools = 0;
  CHECK_EQ(dnnmem_plan_pools_solve_scratch_size(&p, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  p.num_pools = 2;
  pools[1].cost = -1;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_NEGATIVE);
  pools[1].cost = 10, pools[1].alignment = 3;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_ALIGNMENT);
  pools[1].alignment = 0, pools[1].cost = INT64_MAX / 200;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_OVERFLOW);
  pools[1].cost = 10;
  p.allowed_offsets = offsets_of, p.allowed_ids = ids;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_ID_RANGE);
  ids[1] = 0, offsets_of[2] = 3, ids[2] = 0;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT); /* pool 0 twice */
  offsets_of[1] = 2, offsets_of[2] = 1;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT); /* decreasing */
  p.allowed_offsets = NULL, p.allowed_ids = NULL;
  /* names */
  for (i = 0; i < DNNMEM_PLAN_POOLS_ALGO_COUNT; i++) {
    CHECK(dnnmem_plan_pools_algo_name((dnnmem_plan_pools_algo)i) != NULL);
    CHECK_EQ(dnnmem_plan_pools_algo_parse(dnnmem_plan_pools_algo_name((dnnmem_plan_pools_algo)i), &al), DNNMEM_OK);
    CHECK_EQ(al, i);
  }
  CHECK(dnnmem_plan_pools_algo_name(DNNMEM_PLAN_POOLS_ALGO_COUNT) == NULL);
  CHECK_EQ(dnnmem_plan_pools_algo_parse("usmp", &al), DNNMEM_ERR_PARSE);
  /* empty */
  iv.count = 0;
  CHECK_EQ(pools_solve(&p, NULL, NULL, NULL, NULL, &res), DNNMEM_OK);
  CHECK_EQ(res.cost, 0);
  CHECK(res.optimal);
}

/* A node limit stops the exact search with its reason; the answer stays
   valid. A limit on the packing questions (pack_node_limit) leaves the
   proven optimum as it is. */
static void test_limits(void) {
  dnnmem_interval r[12];
  dnnmem_pool pools[3];
  dnnmem_intervals iv = {r, 12, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res, ref;
  dnnmem_plan_pools_options o = algo(DNNMEM_PLAN_POOLS_EXACT);
  int32_t pool_of[12];
  int64_t off[12];
  FOR_TRIALS(rng, 5, i, 12) {
    int64_t lo = dnnmem_rng_below(&rng, 10);
    r[i] = rec(lo, lo + 1 + dnnmem_rng_below(&rng, 6), 10 + dnnmem_rng_below(&rng, 90));
  }
  pools[0] = pool(120, 1), pools[1] = pool(150, 3), pools[2] = pool(0, 9);
  pools_problem(&p, &iv, pools, 3);
  o.node_limit = 3;
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_OK);
  if (!res.optimal) CHECK_EQ(res.stop, DNNMEM_PLAN_STOP_NODES);
  CHECK(res.nodes <= 3);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), res.cost);
  o.node_limit = 0;
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &ref), DNNMEM_OK);
  CHECK_EQ(ref.stop, DNNMEM_PLAN_STOP_PROVED);
  CHECK(ref.optimal);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), ref.cost);
  /* packing questions of at most 1000 nodes (these small ones need fewer):
     the same proven optimum */
  o.pack_node_limit = 1000;
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK(res.optimal && res.stop == DNNMEM_PLAN_STOP_PROVED);
  CHECK_EQ(res.cost, ref.cost);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), ref.cost);
}

/* The entry points' argument checks, each with its code, and a NULL
   result (optional for solve and conflict): the same answer as with one,
   feasible or not, linked or not. */
static void test_argument_edges(void) {
  dnnmem_interval r[5];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 3, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  dnnmem_plan_pools_options o = algo(DNNMEM_PLAN_POOLS_BEST);
  dnnmem_plan_conflict_result cr;
  int32_t pool_of[5], conflict[5], offsets_of[4] = {0, 1, 2, 3}, ids[3] = {0, 1, 2}, i;
  int64_t off[5];
  size_t bytes = 0;
  unsigned char *mem;
  r[0] = rec(0, 2, 100), r[1] = rec(1, 3, 100), r[2] = rec(2, 4, 100);
  pools[0] = pool(150, 1), pools[1] = pool(0, 10);
  pools_problem(&p, &iv, pools, 2);
  /* scratch sizes */
  CHECK_EQ(dnnmem_plan_pools_solve_scratch_size(&p, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_pools_solve_scratch_size(NULL, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(NULL, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  o.pack_node_limit = -1;
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, &o, &bytes), DNNMEM_ERR_NEGATIVE);
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_ERR_NEGATIVE);
  CHECK_EQ(res.error.field, DNNMEM_FIELD_LIMIT);
  o.pack_node_limit = 0, o.algo = (dnnmem_plan_pools_algo)-1;
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(res.error.field, DNNMEM_FIELD_ALGO);
  iv.count = -1;
  CHECK_EQ(dnnmem_plan_pools_solve_scratch_size(&p, NULL, &bytes), DNNMEM_ERR_NEGATIVE);
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, NULL, &bytes), DNNMEM_ERR_NEGATIVE);
  iv.count = 3;
  p.allowed_offsets = offsets_of, p.allowed_ids = ids;
  offsets_of[3] = -1; /* no sizing for a negative total */
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  offsets_of[3] = 3, ids[1] = -1, ids[2] = 1; /* record 1's pool id below range */
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_ID_RANGE);
  CHECK(res.error.index == 1 && res.error.field == DNNMEM_FIELD_POOL);
  p.allowed_offsets = NULL, p.allowed_ids = NULL;
  /* the problem's and pools' faults, each with its field */
  CHECK_EQ(pools_solve(NULL, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  p.intervals = NULL;
  CHECK_EQ(dnnmem_plan_pools_lower_bound(&p, &res, NULL, 0), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(res.error.field, DNNMEM_FIELD_PROBLEM);
  p.intervals = &iv, p.pools = NULL;
  CHECK_EQ(dnnmem_plan_pools_lower_bound(&p, &res, NULL, 0), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(res.error.field, DNNMEM_FIELD_POOL);
  p.pools = pools, p.num_pools = 0;
  CHECK_EQ(dnnmem_plan_pools_lower_bound(&p, &res, NULL, 0), DNNMEM_ERR_INVALID_ARGUMENT);
  p.num_pools = 2, pools[1].capacity = -1;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_NEGATIVE);
  CHECK(res.error.index == -1 && res.error.other == 1 && res.error.field == DNNMEM_FIELD_CAPACITY);
  pools[1].capacity = 0, pools[1].alignment = -4;
  CHECK_EQ(pools_solve(&p, NULL, pool_of, off, NULL, &res), DNNMEM_ERR_NEGATIVE);
  CHECK(res.error.other == 1 && res.error.field == DNNMEM_FIELD_ALIGNMENT);
  pools[1].alignment = 0;
  CHECK_EQ(dnnmem_plan_pools_lower_bound(&p, NULL, NULL, 0), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_pools_lower_bound(NULL, &res, NULL, 0), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(res.error.field, DNNMEM_FIELD_PROBLEM);
  p.num_pools = 0;
  CHECK_EQ(dnnmem_plan_pools_lower_bound_scratch_size(&p, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  p.num_pools = 2, p.intervals = NULL;
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_pools_check_scratch_size(&p, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  p.intervals = &iv, o.node_limit = -1;
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, &o, &bytes), DNNMEM_ERR_NEGATIVE);
  o.node_limit = 0;
  CHECK(dnnmem_plan_pools_algo_name((dnnmem_plan_pools_algo)-1) == NULL);
  /* outputs: the checker needs both arrays, pool ids in range */
  for (i = 0; i < 3; i++) pool_of[i] = 1, off[i] = 100 * i;
  CHECK_EQ(pools_check(&p, pool_of, NULL, NULL, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(pools_check(&p, NULL, off, NULL, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  pool_of[2] = -1;
  CHECK_EQ(pools_check(&p, pool_of, off, NULL, NULL, NULL), DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(pools_solve(&p, NULL, pool_of, NULL, NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(res.error.field, DNNMEM_FIELD_OUTPUT);
  /* no result: the same plan (100 in SRAM at each peak: 100 + 1000 + 100) */
  CHECK_EQ(dnnmem_plan_pools_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes);
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, pool_of, off, NULL, NULL, mem, bytes), DNNMEM_OK);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), 1200);
  free(mem);
  /* an in-place chain (test_links): 300 in SRAM, without a result too */
  r[1].flags = r[2].flags = DNNMEM_INTERVAL_REUSE, r[1].reuse = 0, r[2].reuse = 1;
  pools[0].capacity = 100;
  CHECK_EQ(dnnmem_plan_pools_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes);
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, pool_of, off, NULL, NULL, mem, bytes), DNNMEM_OK);
  CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), 300);
  /* ... and with no room (one 100-byte pool; record 1 no longer reuses
     record 0, so 200 bytes are live at step 1): infeasible, no result */
  r[1] = rec(1, 3, 100), r[2].reuse = 1;
  p.num_pools = 1;
  CHECK_EQ(ref_pools_optimum(&p), -1);
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, pool_of, off, NULL, NULL, mem, bytes), DNNMEM_ERR_INFEASIBLE);
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, pool_of, off, NULL, &res, mem, bytes), DNNMEM_ERR_INFEASIBLE);
  CHECK_EQ(res.feasible, 0);
  free(mem);
  /* the conflict of test_conflict, without a result; links refused */
  iv.count = 5, p.num_pools = 2;
  r[0] = rec(0, 2, 40), r[1] = rec(1, 3, 100), r[2] = rec(1, 4, 100), r[3] = rec(2, 5, 100), r[4] = rec(4, 6, 150);
  pools[0] = pool(150, 1), pools[1] = pool(100, 10);
  CHECK_EQ(dnnmem_plan_pools_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes);
  CHECK_EQ(dnnmem_plan_pools_solve(&p, NULL, pool_of, off, NULL, NULL, mem, bytes), DNNMEM_ERR_INFEASIBLE);
  free(mem);
  CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes);
  CHECK_EQ(dnnmem_plan_pools_conflict(&p, NULL, conflict, 5, NULL, mem, bytes), DNNMEM_OK);
  CHECK(conflict[0] == 1 && conflict[1] == 2 && conflict[2] == 3);
  r[4].flags = DNNMEM_INTERVAL_REUSE, r[4].reuse = 3, r[4].size = 100;
  CHECK_EQ(dnnmem_plan_pools_conflict(&p, NULL, conflict, 5, &cr, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(cr.error.field, DNNMEM_FIELD_PROBLEM);
  free(mem);
}

/* options.stop, polled by the improver before each pass and move: told
   to stop at any of its first five polls (the two greedies' improvers),
   best returns the second greedy's plan, 1120 (test_small_beat_large),
   unproven (the bound is 760), with stop "time" (no search ran because it
   was told to stop: not "none"); at the sixth, the exact search proves
   it. Every plan recounted. */
static int pools_stop_after(void *user) { return --*(int *)user < 0; }
static void test_stop(void) {
  dnnmem_interval r[3];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 3, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  dnnmem_plan_pools_options o = algo(DNNMEM_PLAN_POOLS_BEST);
  int32_t pool_of[3], polls;
  int64_t off[3];
  r[0] = rec(0, 10, 100), r[1] = rec(0, 5, 60), r[2] = rec(5, 10, 60);
  pools[0] = pool(100, 1), pools[1] = pool(0, 10);
  pools_problem(&p, &iv, pools, 2);
  o.stop = pools_stop_after;
  for (polls = 0; polls < 6; polls++) {
    int left = polls;
    o.stop_user = &left;
    CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_OK);
    CHECK_EQ(res.cost, 1120);
    CHECK_EQ(res.moves, 0);
    CHECK_EQ(res.algo, DNNMEM_PLAN_POOLS_IMPROVE);
    CHECK_EQ(res.stop, polls < 5 ? DNNMEM_PLAN_STOP_TIME : DNNMEM_PLAN_STOP_PROVED);
    CHECK_EQ(res.lower_bound, polls < 5 ? 760 : 1120);
    CHECK_EQ(ref_pools_recount(&p, pool_of, off, NULL), 1120);
  }
}

/* Uniform costs: every plan costs c x the sum of sizes, so c = 0 (free
   pools) and c = 3 must return exactly c = 1's plan (pools, offsets,
   arenas: the smallest arenas among equal costs) and prove it (cost ==
   lower_bound: stop proved, optimal), for every algo. A zero best cost is
   a cost like any other: no algo may treat it as "no plan yet". */
static void test_uniform_costs(void) {
  int32_t differ = 0;
  FOR_TRIALS(rng, 77, trial, 60) {
    dnnmem_interval r[10];
    dnnmem_pool pools[3];
    dnnmem_intervals iv;
    dnnmem_plan_pools p;
    int32_t n = 4 + (int32_t)dnnmem_rng_below(&rng, 7), P = 2 + (int32_t)dnnmem_rng_below(&rng, 2), i, q, a, c;
    int64_t load, sum = 0;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 8);
      r[i] = rec(lo, lo + 1 + dnnmem_rng_below(&rng, 5), 1 + dnnmem_rng_below(&rng, 30));
      sum += r[i].size;
    }
    iv.records = r, iv.count = n, iv.alignment = 0;
    load = ref_plan_max_load(r, n);
    for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
      dnnmem_plan_pools_options o = algo((dnnmem_plan_pools_algo)a);
      dnnmem_plan_pools_result want, res;
      int32_t pool_want[10], pool_of[10];
      int64_t off_want[10], off[10], ar_want[3], ar[3];
      for (c = 1; c >= 0; c = c == 1 ? 3 : c == 3 ? 0 : -1) {
        dnnmem_plan_pools_result *rs = c == 1 ? &want : &res;
        for (q = 0; q < P; q++) pools[q] = pool(q == P - 1 ? 0 : load / 2 + 1 + (int64_t)q, c);
        pools_problem(&p, &iv, pools, P);
        CHECK_EQ(pools_solve(&p, &o, c == 1 ? pool_want : pool_of, c == 1 ? off_want : off, c == 1 ? ar_want : ar,
                             rs),
                 DNNMEM_OK);
        CHECK_EQ(rs->cost, c * sum);
        CHECK_EQ(rs->lower_bound, c * sum);
        CHECK_EQ(rs->stop, DNNMEM_PLAN_STOP_PROVED);
        CHECK_EQ(rs->optimal, 1);
        if (c == 1) continue;
        for (i = 0; i < n; i++) CHECK(pool_of[i] == pool_want[i] && off[i] == off_want[i]);
        for (q = 0; q < P; q++) CHECK_EQ(ar[q], ar_want[q]);
        CHECK(res.algo == want.algo && res.moves == want.moves && res.decisions == want.decisions &&
              res.nodes == want.nodes);
      }
      if (ar_want[0] != ar_want[P - 1]) differ++;
    }
  }
  CHECK(differ > 0);
}

/* USMP's greedy places each record (largest first) in the smallest hole
   that fits among the records it meets, the hole at offset 0 included:
   A [0,2) 24 at 0, B [0,4) 16 above it at 24, C [2,4) 8 meets only B and
   goes under it, at 0 (arena 40, not 48). */
static void test_greedy_hole_at_zero(void) {
  dnnmem_interval r[3];
  dnnmem_pool pools[1];
  dnnmem_intervals iv = {r, 3, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  dnnmem_plan_pools_options o = algo(DNNMEM_PLAN_POOLS_GREEDY);
  int32_t pool_of[3];
  int64_t off[3], arenas[1];
  r[0] = rec(0, 2, 24), r[1] = rec(0, 4, 16), r[2] = rec(2, 4, 8);
  pools[0] = pool(0, 1);
  pools_problem(&p, &iv, pools, 1);
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, arenas, &res), DNNMEM_OK);
  CHECK_VALUES(off, 0, 24, 0);
  CHECK_VALUES(arenas, 40);
  CHECK_EQ(res.cost, 48);
}

/* test_gaps_and_empty_records' figures, recorded at 0.10.0 (issue 31):
   per algo (best, greedy, improve, exact) the sums of nodes, decisions
   and moves, and a hash of every assignment */
#define POOLS_GAPS_NODES 994, 0, 0, 994
#define POOLS_GAPS_DECISIONS 4591, 0, 4331, 4591
#define POOLS_GAPS_MOVES 2007, 0, 2007, 2007
#define POOLS_GAPS_HASH 4205263495662666673u
/* Random tiny pools problems beside test_random_oracle's: records of size
   zero, and records whose one gap keeps a window of their bytes (the
   bound counts the window in the gap, the exact search plans without the
   gaps and says incomplete unless its bound meets the cost), random
   allowed lists. Against the oracle
   (every assignment, every pool by brute force): every answer valid and
   recounted, never below the optimum, the bound (its own and each
   result's) never above it; the exact search proves the optimum when no
   record has a gap; a record of size zero goes to the first pool of its
   list (there is nothing to decide). The efforts (exact nodes, packing
   decisions, improving moves) and the assignments are deterministic and
   equal the recorded figures (a changed count is a changed search:
   re-record it after checking it). */
static void test_gaps_and_empty_records(void) {
  static const long long want_nodes[] = {POOLS_GAPS_NODES}, want_decisions[] = {POOLS_GAPS_DECISIONS},
                         want_moves[] = {POOLS_GAPS_MOVES};
  long long nodes[DNNMEM_PLAN_POOLS_ALGO_COUNT], decisions[DNNMEM_PLAN_POOLS_ALGO_COUNT],
      moves[DNNMEM_PLAN_POOLS_ALGO_COUNT];
  uint64_t hash = 1469598103934665603u;
  int32_t a, empty_checked = 0, gapped = 0;
  memset(nodes, 0, sizeof nodes), memset(decisions, 0, sizeof decisions), memset(moves, 0, sizeof moves);
  FOR_TRIALS(rng, 5000, k, 1500) {
    dnnmem_interval r[6];
    dnnmem_gap gaps[6];
    dnnmem_pool pools[3];
    dnnmem_intervals iv;
    dnnmem_plan_pools p;
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 4), P = 2 + (int32_t)dnnmem_rng_below(&rng, 2), i, q, m = 0;
    int32_t offsets_of[7], ids[18], pool_of[6], any_gap = 0;
    int64_t off[6], load, opt, bound = -1;
    dnnmem_result brc;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 5), up = lo + 1 + dnnmem_rng_below(&rng, 5);
      r[i] = rec(lo, up, dnnmem_rng_below(&rng, 5) == 0 ? 0 : 1 + dnnmem_rng_below(&rng, 8));
      if (r[i].size > 1 && up - lo >= 3 && dnnmem_rng_below(&rng, 2)) {
        gaps[i].lower = lo + 1, gaps[i].upper = up - (int64_t)dnnmem_rng_below(&rng, 2);
        gaps[i].window_lower = 0, gaps[i].window_upper = dnnmem_rng_below(&rng, (uint32_t)r[i].size);
        r[i].gaps = &gaps[i], r[i].num_gaps = 1;
        any_gap = 1;
      }
      if (dnnmem_rng_below(&rng, 8) == 0) r[i].alignment = 2;
    }
    iv.records = r, iv.count = n, iv.alignment = 0;
    load = ref_plan_max_load(r, n);
    for (q = 0; q < P; q++)
      pools[q] = pool(q == P - 1 && dnnmem_rng_below(&rng, 3) ? 0 : 1 + (int64_t)dnnmem_rng_below(&rng, (uint32_t)load + 4),
                      1 + dnnmem_rng_below(&rng, 10));
    pools_problem(&p, &iv, pools, P);
    if (dnnmem_rng_below(&rng, 2)) {
      offsets_of[0] = 0;
      for (i = 0; i < n; i++) {
        int32_t start = m;
        for (q = 0; q < P; q++)
          if (dnnmem_rng_below(&rng, 3)) ids[m++] = q;
        if (m == start) ids[m++] = (int32_t)dnnmem_rng_below(&rng, (uint32_t)P);
        if (m - start >= 2 && dnnmem_rng_below(&rng, 2)) { int32_t t = ids[start]; ids[start] = ids[start + 1], ids[start + 1] = t; }
        offsets_of[i + 1] = m;
      }
      p.allowed_offsets = offsets_of, p.allowed_ids = ids;
    }
    gapped += any_gap;
    opt = ref_pools_optimum(&p);
    brc = pools_bound(&p, &bound);
    if (brc == DNNMEM_OK) CHECK(opt < 0 || bound <= opt);
    for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
      dnnmem_plan_pools_options o = algo((dnnmem_plan_pools_algo)a);
      dnnmem_plan_pools_result res;
      int64_t arenas[3], ref_arenas[3];
      dnnmem_result rc = pools_solve(&p, &o, pool_of, off, arenas, &res);
      hash = (hash ^ (uint64_t)(rc + 1000)) * 1099511628211u;
      if (rc != DNNMEM_OK) {
        CHECK(rc == DNNMEM_ERR_INFEASIBLE || rc == DNNMEM_ERR_PLAN_POOL_CAPACITY);
        if (rc == DNNMEM_ERR_INFEASIBLE && res.feasible == 0) CHECK_EQ(opt, -1);
        continue;
      }
      CHECK(opt >= 0 && res.cost >= opt && res.lower_bound <= opt && res.lower_bound >= bound);
      CHECK_EQ(ref_pools_recount(&p, pool_of, off, ref_arenas), res.cost);
      for (q = 0; q < P; q++) CHECK_EQ(arenas[q], ref_arenas[q]);
      if (res.optimal || res.stop == DNNMEM_PLAN_STOP_PROVED) CHECK_EQ(res.cost, opt);
      if (a == DNNMEM_PLAN_POOLS_EXACT) {
        if (any_gap) CHECK(res.stop == DNNMEM_PLAN_STOP_INCOMPLETE || (res.stop == DNNMEM_PLAN_STOP_PROVED && res.optimal));
        else CHECK(res.stop == DNNMEM_PLAN_STOP_PROVED && res.cost == opt && res.lower_bound == opt && res.optimal);
      }
      if (res.algo == DNNMEM_PLAN_POOLS_EXACT)
        for (i = 0; i < n; i++)
          if (r[i].size == 0) {
            CHECK_EQ(pool_of[i], p.allowed_offsets ? ids[offsets_of[i]] : 0);
            empty_checked++;
          }
      for (i = 0; i < n; i++) hash = (hash ^ (uint64_t)pool_of[i]) * 1099511628211u;
      nodes[a] += res.nodes, decisions[a] += res.decisions, moves[a] += res.moves;
    }
  }
  printf("pools with gaps and empty records: %d gapped, %d empty records checked, hash %llu\n", (int)gapped,
         (int)empty_checked, (unsigned long long)hash);
  for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
    printf("  algo %d: nodes %lld, decisions %lld, moves %lld\n", (int)a, nodes[a], decisions[a], moves[a]);
    CHECK_EQ(nodes[a], want_nodes[a]);
    CHECK_EQ(decisions[a], want_decisions[a]);
    CHECK_EQ(moves[a], want_moves[a]);
  }
  CHECK(gapped > 300 && empty_checked > 30);
  CHECK(hash == (uint64_t)POOLS_GAPS_HASH);
}

/* Pools of one byte (issue 31): every packing question asked of
   dnnmem_plan_solve counts in result.decisions, at a capacity of 1 too.
   Records of 1 byte, SRAM 1 byte at cost 1, DRAM 4 bytes at cost 3:
   SRAM holds one record at a time, at most two of the five in turn
   ({0, 3}, {0, 4}, {2, 3}, {2, 4}: 2 x 1 + 3 x 3 = 11, which the bound
   proves); the tie goes to {0, 3}. Per algo the answer and the effort
   are exact (greedy asks no question; the others 6, improve's answer
   returned), and the checker's on the plan: its cost, every other field
   zero. */
static void test_one_byte_pools(void) {
  static const int32_t want_pool[5] = {0, 1, 1, 0, 1};
  static const int64_t want_off[5] = {0, 0, 1, 0, 1};
  dnnmem_interval r[5];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, 5, 0};
  dnnmem_plan_pools p;
  int32_t a, i;
  r[0] = rec(0, 2, 1), r[1] = rec(1, 3, 1), r[2] = rec(1, 2, 1), r[3] = rec(3, 4, 1), r[4] = rec(2, 4, 1);
  pools[0] = pool(1, 1), pools[1] = pool(4, 3);
  pools_problem(&p, &iv, pools, 2);
  for (a = 0; a < DNNMEM_PLAN_POOLS_ALGO_COUNT; a++) {
    dnnmem_plan_pools_options o = algo((dnnmem_plan_pools_algo)a);
    dnnmem_plan_pools_result res;
    int32_t pool_of[5];
    int64_t off[5], ar[2];
    CHECK_EQ(pools_solve(&p, &o, pool_of, off, ar, &res), DNNMEM_OK);
    CHECK_EQ(res.cost, 11);
    CHECK_EQ(res.lower_bound, 11);
    CHECK_EQ(res.optimal, 1);
    CHECK_EQ(res.feasible, 1);
    CHECK_EQ(res.stop, DNNMEM_PLAN_STOP_PROVED);
    CHECK_EQ(res.algo, a == DNNMEM_PLAN_POOLS_GREEDY ? DNNMEM_PLAN_POOLS_GREEDY : DNNMEM_PLAN_POOLS_IMPROVE);
    CHECK_EQ(res.nodes, 0);
    CHECK_EQ(res.decisions, a == DNNMEM_PLAN_POOLS_GREEDY ? 0 : 6);
    CHECK_EQ(res.moves, 0);
    CHECK(ar[0] == 1 && ar[1] == 2);
    for (i = 0; i < 5; i++) CHECK(pool_of[i] == want_pool[i] && off[i] == want_off[i]);
    { /* the checker writes its cost and zeroes the rest (result prefilled) */
      dnnmem_plan_pools_result chk;
      dnnmem_result rc;
      memset(&chk, 0x5a, sizeof chk);
      TEST_ASK_PASS(rc, dnnmem_plan_pools_check_scratch_size(&p, &test_bytes),
                    dnnmem_plan_pools_check(&p, pool_of, off, ar, &chk, test_mem, test_bytes));
      CHECK_EQ(rc, DNNMEM_OK);
      CHECK_EQ(chk.cost, 11);
      CHECK(chk.lower_bound == 0 && chk.optimal == 0 && chk.feasible == 0 && chk.algo == 0 && chk.nodes == 0 &&
            chk.decisions == 0 && chk.moves == 0 && chk.reused == 0 && chk.stop == 0);
      CHECK(chk.error.index == -1 && chk.error.other == -1 && chk.error.field == DNNMEM_FIELD_NONE);
    }
  }
}

/* Greedy's hole search ignores records of size zero (mutant 3b9987d959,
   `size > 0` -> `>= 0`, let a fixed empty record at 12 split the hole
   [10, 20) and put the 8-byte record at 12): fixed 10 bytes at 0, empty
   at 12, 10 bytes at 20; the free record takes the hole at 10. */
static void test_greedy_empty_record_no_wall(void) {
  dnnmem_interval r[4];
  dnnmem_pool pools[1];
  dnnmem_intervals iv = {r, 4, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  dnnmem_plan_pools_options o = algo(DNNMEM_PLAN_POOLS_GREEDY);
  int32_t pool_of[4];
  int64_t off[4], arenas[1];
  r[0] = ref_plan_fixed_record(0, 4, 10, 0), r[1] = ref_plan_fixed_record(0, 4, 0, 12);
  r[2] = ref_plan_fixed_record(0, 4, 10, 20), r[3] = rec(0, 4, 8);
  pools[0] = pool(0, 1);
  pools_problem(&p, &iv, pools, 1);
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, arenas, &res), DNNMEM_OK);
  CHECK_VALUES(off, 0, 12, 20, 10);
  CHECK_VALUES(arenas, 30);
}

/* A completed search whose every packing was decided says proved, even
   when a pool without a capacity got a plan best could not prove minimal
   (its arena does not enter the cost). Mutant 04ea13a509 (the leaf's
   `f == -1 && pack_stop == PROVED` negated) took that pack's stop
   (nodes) instead. 150 random records (seed 7: best's own search stops at
   its node limit on them) may use pool 1 (cost 2) only; records of 6, 4
   and 4 bytes meeting each other may use pool 0 (9 bytes, cost 1) too:
   the greedy puts the 6 there (cost 2 sum + 22), the search finds the
   two 4s (2 sum + 20, above the fractional bound 2 sum + 19, so only the
   completed search proves it) and packs both pools. */
static void test_unbounded_pack_stop_proved(void) {
  enum { N = 150 };
  static dnnmem_interval r[N + 3];
  static int32_t offsets_of[N + 4], ids[N + 6], pool_of[N + 3];
  static int64_t off[N + 3];
  dnnmem_pool pools[2];
  dnnmem_intervals iv = {r, N + 3, 0};
  dnnmem_plan_pools p;
  dnnmem_plan_pools_result res;
  dnnmem_plan_pools_options o = algo(DNNMEM_PLAN_POOLS_EXACT);
  dnnmem_rng rng;
  int64_t sum = 0;
  int32_t i, k = 0;
  dnnmem_rng_seed(&rng, 7);
  for (i = 0; i < N; i++) {
    int64_t lo = (int64_t)dnnmem_rng_below(&rng, 40), hi, size; /* drawn in this order */
    hi = lo + 1 + (int64_t)dnnmem_rng_below(&rng, 12);
    size = 1 + (int64_t)dnnmem_rng_below(&rng, 1000);
    r[i] = rec(lo, hi, size);
    sum += size;
    offsets_of[i] = k;
    ids[k++] = 1;
  }
  r[N] = rec(0, 2, 6), r[N + 1] = rec(0, 2, 4), r[N + 2] = rec(0, 2, 4);
  for (i = N; i < N + 3; i++) {
    offsets_of[i] = k;
    ids[k++] = 0, ids[k++] = 1;
  }
  offsets_of[N + 3] = k;
  pools[0] = pool(9, 1), pools[1] = pool(0, 2);
  pools_problem(&p, &iv, pools, 2);
  p.allowed_offsets = offsets_of, p.allowed_ids = ids;
  CHECK_EQ(pools_solve(&p, &o, pool_of, off, NULL, &res), DNNMEM_OK);
  CHECK_EQ(res.cost, 2 * sum + 20);
  CHECK(pool_of[N] == 1 && pool_of[N + 1] == 0 && pool_of[N + 2] == 0);
  CHECK(res.nodes > 0);
  CHECK(res.optimal && res.lower_bound == res.cost);
  CHECK_EQ(res.stop, DNNMEM_PLAN_STOP_PROVED);
}

int main(void) {
  RUN(test_peak_leaves);
  RUN(test_small_beat_large);
  RUN(test_equal_cost_smaller_arenas);
  RUN(test_sram_one_byte_short);
  RUN(test_allowed_and_checker);
  RUN(test_infeasible_and_alignment);
  RUN(test_fixed);
  RUN(test_bound_chain);
  RUN(test_random_oracle);
  RUN(test_links);
  RUN(test_links_random);
  RUN(test_conflict);
  RUN(test_arguments);
  RUN(test_limits);
  RUN(test_argument_edges);
  RUN(test_stop);
  RUN(test_uniform_costs);
  RUN(test_greedy_hole_at_zero);
  RUN(test_gaps_and_empty_records);
  RUN(test_one_byte_pools);
  RUN(test_greedy_empty_record_no_wall);
  RUN(test_unbounded_pack_stop_proved);
  return test_finish("test_plan_pools");
}
