/* Tests of in-place reuse and aliasing in part 2 (DNNMEM_INTERVAL_REUSE,
   DNNMEM_INTERVAL_ALIAS): hand-made cases with known optima (an in-place
   chain, views with holes and different heights, a fixed view), the
   checker catching undeclared overlaps, a second overwrite of one buffer
   and views apart, every rule's error code, the parts that refuse links,
   and random small instances against the brute-force oracle of tests/ref.h
   (ref_plan_tied_optimum): bound <= optimum <= arena, the plan recounted
   independently, the checker's verdict equal to the recount's on random
   plans, short scratch and determinism. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"
#include "test.h"

#define rec ref_plan_record

/* dnnmem_plan_solve with algo, scratch as asked for at an odd address. */
static dnnmem_result solve(const dnnmem_intervals *p, dnnmem_plan_algo algo, int64_t *off, dnnmem_plan_result *res) {
  dnnmem_plan_options opt;
  dnnmem_result rc;
  memset(&opt, 0, sizeof opt);
  opt.algo = algo;
  TEST_ASK_PASS(rc, dnnmem_plan_solve_scratch_size(p, &opt, &test_bytes),
                dnnmem_plan_solve(p, &opt, off, res, test_mem + 1, test_bytes));
  return rc;
}

static dnnmem_result bound(const dnnmem_intervals *p, int64_t *out) {
  dnnmem_plan_result res;
  dnnmem_result rc;
  TEST_ASK_PASS(rc, dnnmem_plan_lower_bound_scratch_size(p, &test_bytes),
                dnnmem_plan_lower_bound(p, &res, test_mem + 1, test_bytes));
  if (rc != DNNMEM_OK) return rc;
  *out = res.lower_bound;
  return rc;
}

static dnnmem_result check(const dnnmem_intervals *p, const int64_t *off, int64_t *arena, int32_t *pair) {
  dnnmem_plan_result res;
  dnnmem_result rc;
  res.arena = 0, res.error.index = res.error.other = -1;
  TEST_ASK_PASS(rc, dnnmem_plan_check_scratch_size(p, &test_bytes),
                dnnmem_plan_check(p, off, &res, test_mem + 1, test_bytes));
  if (arena) *arena = res.arena;
  if (pair) pair[0] = res.error.index, pair[1] = res.error.other;
  return rc;
}

static void reuse(dnnmem_interval *r, int32_t of) { r->flags |= DNNMEM_INTERVAL_REUSE, r->reuse = of; }
static void alias(dnnmem_interval *r, int32_t of) { r->flags |= DNNMEM_INTERVAL_ALIAS, r->alias = of; }

/* x0 -> relu (in place) -> sigmoid (in place, smaller): one buffer of 100
   bytes instead of 200 at every step; every algo finds it. */
static void test_inplace_chain(void) {
  dnnmem_interval r[3];
  dnnmem_intervals p = {r, 3, 0};
  int64_t off[3], lb = -1;
  dnnmem_plan_result res;
  int a;
  r[0] = rec(0, 2, 100), r[1] = rec(1, 3, 100), r[2] = rec(2, 4, 60);
  reuse(&r[1], 0), reuse(&r[2], 1);
  CHECK_EQ(ref_plan_tied_optimum(&p, NULL), 100);
  CHECK_EQ(bound(&p, &lb), DNNMEM_OK);
  CHECK_EQ(lb, 100);
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    CHECK_EQ(solve(&p, (dnnmem_plan_algo)a, off, &res), DNNMEM_OK);
    CHECK_EQ(res.arena, 100);
    CHECK_EQ(res.lower_bound, 100);
    CHECK_EQ(res.optimal, 1);
    CHECK_EQ(res.reused, 2);
    CHECK_EQ(res.stop, DNNMEM_PLAN_STOP_PROVED);
    CHECK_EQ(ref_plan_tied_recount(&p, off), 100);
  }
  /* without the links: 200 */
  r[1].flags = r[2].flags = 0;
  CHECK_EQ(ref_plan_optimum(&p, NULL), 200);
  CHECK_EQ(solve(&p, DNNMEM_PLAN_BEST, off, &res), DNNMEM_OK);
  CHECK_EQ(res.arena, 200);
  CHECK_EQ(res.reused, 0);
}

/* A view with a hole and a smaller height: r1 (32 bytes, [3, 5)) views r0
   (64 bytes, [0, 2)); r2 (16 bytes, [1, 4)) meets both: above r0 at 64,
   so the optimum is 80; 64 + 16 also without the view (r1 could sit at
   16), so the view costs nothing here. Moving r1 breaks the alias. */
static void test_alias_views(void) {
  dnnmem_interval r[3];
  dnnmem_intervals p = {r, 3, 0};
  int64_t off[3], lb, arena;
  int32_t pair[2];
  dnnmem_plan_result res;
  r[0] = rec(0, 2, 64), r[1] = rec(3, 5, 32), r[2] = rec(1, 4, 16);
  alias(&r[1], 0);
  CHECK_EQ(ref_plan_tied_optimum(&p, NULL), 80);
  CHECK_EQ(bound(&p, &lb), DNNMEM_OK);
  CHECK_EQ(lb, 80);
  CHECK_EQ(solve(&p, DNNMEM_PLAN_BEST, off, &res), DNNMEM_OK);
  CHECK_EQ(res.arena, 80);
  CHECK_EQ(res.optimal, 1);
  CHECK_EQ(off[0], off[1]);
  CHECK_EQ(ref_plan_tied_recount(&p, off), 80);
  CHECK_EQ(check(&p, off, &arena, pair), DNNMEM_OK);
  CHECK_EQ(arena, 80);
  off[1] += 16;
  CHECK_EQ(check(&p, off, &arena, pair), DNNMEM_ERR_PLAN_ALIAS_OFFSET);
  CHECK_VALUES(pair, 0, 1);
  CHECK_EQ(ref_plan_tied_recount(&p, off), -1);
}

/* Views overlap in time (a reshape alive beside its base), a fixed view
   fixes the class; the optimum is the class's height plus the other. A
   fixed first member fixes its class too. */
static void test_fixed_view(void) {
  dnnmem_interval r[3];
  dnnmem_intervals p = {r, 3, 0};
  int64_t off[3];
  dnnmem_plan_result res;
  r[0] = rec(0, 4, 32), r[1] = rec(2, 6, 48), r[2] = rec(1, 5, 8);
  alias(&r[1], 0);
  r[1].flags |= DNNMEM_INTERVAL_FIXED, r[1].fixed_offset = 8;
  CHECK_EQ(ref_plan_tied_optimum(&p, NULL), 56);
  CHECK_EQ(solve(&p, DNNMEM_PLAN_EXACT, off, &res), DNNMEM_OK);
  CHECK_VALUES(off, 8, 8, 0);
  CHECK_EQ(res.arena, 56);
  CHECK_EQ(res.optimal, 1);
  /* the class's first record fixed, its members apart in time (a group of
     two spans): the fixed offset binds both (0.5.0 dropped it) */
  p.count = 2;
  r[0] = rec(4, 6, 16), r[1] = rec(0, 2, 16);
  r[0].flags = DNNMEM_INTERVAL_FIXED, r[0].fixed_offset = 8;
  alias(&r[1], 0);
  CHECK_EQ(ref_plan_tied_optimum(&p, NULL), 24);
  CHECK_EQ(solve(&p, DNNMEM_PLAN_BEST, off, &res), DNNMEM_OK);
  CHECK(off[0] == 8 && off[1] == 8);
  CHECK_EQ(ref_plan_tied_recount(&p, off), 24);
}

/* The checker accepts an overlap only for a declared pair at one offset. */
static void test_checker(void) {
  dnnmem_interval r[4];
  dnnmem_intervals p = {r, 4, 0};
  int64_t off[4] = {0, 0, 0, 100}, arena;
  int32_t pair[2];
  r[0] = rec(0, 2, 100), r[1] = rec(1, 3, 100), r[2] = rec(1, 3, 50), r[3] = rec(0, 4, 10);
  reuse(&r[1], 0), reuse(&r[2], 0);
  /* r1 and r2 both over r0: they overlap each other */
  CHECK_EQ(check(&p, off, &arena, pair), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK_EQ(ref_plan_tied_recount(&p, off), -1);
  off[2] = 100 + 10;
  CHECK_EQ(check(&p, off, &arena, pair), DNNMEM_OK);
  CHECK_EQ(arena, 160);
  CHECK_EQ(ref_plan_tied_recount(&p, off), 160);
  /* an undeclared overlap: r3 over r0 */
  off[3] = 0;
  CHECK_EQ(check(&p, off, &arena, pair), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK(pair[0] == 0 || pair[1] == 3 || pair[0] == 3);
  /* the declared pair at different offsets is two records that overlap in time */
  off[3] = 200, off[1] = 50;
  CHECK_EQ(check(&p, off, &arena, pair), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK_EQ(ref_plan_tied_recount(&p, off), -1);
}

/* Records that pass the record rule (dnnmem_intervals_check) and break
   the group rule: the oracle, solve, bound and check all answer code. */
static void group_rule_refused(const dnnmem_intervals *p, dnnmem_result code) {
  int64_t off[4] = {0, 0, 0, 0}, lb;
  dnnmem_plan_result res;
  CHECK_EQ(dnnmem_intervals_check(p, NULL), DNNMEM_OK);
  CHECK_EQ(ref_plan_reuse_rule(p), code);
  CHECK_EQ(solve(p, DNNMEM_PLAN_BEST, off, &res), code);
  CHECK_EQ(bound(p, &lb), code);
  CHECK_EQ(check(p, off, &lb, NULL), code);
}

/* Every rule's code, in dnnmem_intervals_check and in the operations. */
static void test_rules(void) {
  dnnmem_interval r[4];
  dnnmem_gap gap = {1, 2, 0, 0};
  dnnmem_intervals p = {r, 3, 0};
  r[0] = rec(0, 2, 100), r[1] = rec(1, 3, 100), r[2] = rec(2, 4, 60);
  reuse(&r[1], 0);
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_OK);
  r[1].reuse = 3;
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_ERR_ID_RANGE);
  r[1].reuse = 2; /* r2 is alive after step 1 */
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_ERR_PLAN_REUSE);
  r[1].reuse = 0, r[1].size = 101; /* larger than what it overwrites */
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_ERR_PLAN_REUSE);
  r[1].size = 100, r[0].gaps = &gap, r[0].num_gaps = 1;
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_ERR_BAD_GAP);
  r[0].gaps = NULL, r[0].num_gaps = 0;
  alias(&r[2], 2);
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_ERR_CYCLE);
  r[2].alias = -1;
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_ERR_ID_RANGE);
  /* a cycle of two: the record rule passes, the operations refuse */
  r[2].flags = 0;
  r[0] = rec(0, 2, 8), r[1] = rec(0, 2, 8), r[2] = rec(3, 4, 8);
  alias(&r[0], 1), alias(&r[1], 0);
  group_rule_refused(&p, DNNMEM_ERR_CYCLE);
  /* a view of r0 outlives the step r1 overwrites it: still live */
  r[0] = rec(0, 2, 100), r[1] = rec(1, 3, 100), r[2] = rec(1, 4, 100);
  reuse(&r[1], 0), alias(&r[2], 0);
  group_rule_refused(&p, DNNMEM_ERR_PLAN_REUSE);
  /* one class fixed at two offsets */
  r[0] = rec(0, 2, 8), r[1] = rec(3, 4, 8), r[2] = rec(0, 4, 8);
  alias(&r[1], 0);
  r[0].flags |= DNNMEM_INTERVAL_FIXED, r[1].flags |= DNNMEM_INTERVAL_FIXED, r[1].fixed_offset = 8;
  group_rule_refused(&p, DNNMEM_ERR_PLAN_ALIAS_OFFSET);
}

/* Multi-pass, symbolic sizes, conflict sets and shared objects refuse
   links; chains ignore them. */
static void test_refusals(void) {
  dnnmem_interval r[2];
  dnnmem_intervals p = {r, 2, 0};
  dnnmem_plan_options opt;
  dnnmem_plan_conflict_result cres;
  dnnmem_share_result sres;
  dnnmem_plan_symbolic sym;
  int64_t off[2], coef[2] = {1, 1}, sizes[2];
  int32_t ids[2], obj[2];
  dnnmem_plan_chains_result chained;
  unsigned char mem[1 << 16];
  r[0] = rec(0, 2, 8), r[1] = rec(1, 3, 8);
  reuse(&r[1], 0);
  memset(&opt, 0, sizeof opt);
  opt.capacity = 4;
  CHECK_EQ(dnnmem_plan_pass(&p, NULL, 1, off, NULL, mem, sizeof mem), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_conflict(&p, &opt, ids, 2, &cres, mem, sizeof mem), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_share_solve(&p, NULL, obj, sizes, &sres, mem, sizeof mem), DNNMEM_ERR_INVALID_ARGUMENT);
  sym.intervals = &p, sym.coefficients = coef, sym.terms = 1, sym.s_min = 1, sym.s_max = 2;
  CHECK_EQ(dnnmem_plan_symbolic_records(&sym, 1, r, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_chains(&p, obj, ids, &chained, mem, sizeof mem), DNNMEM_OK);
  CHECK_EQ(chained.groups, 2);
}

/* Random small instances: the rule as the oracle states it; then bound <=
   optimum <= arena, the plan recounted; the checker agrees with the
   recount on the oracle's plan and on random plans. */
static void test_random_oracle(void) {
  int32_t hits = 0, solved = 0;
  FOR_TRIALS(rng, 13, iter, 400) {
    dnnmem_interval r[6];
    dnnmem_intervals p;
    int64_t off[6], best[6], lb = -1, opt, arena;
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 4), k, i;
    dnnmem_plan_result res;
    dnnmem_result want, got;
    ref_plan_random_tied(&rng, r, n, 5, 3);
    p.records = r, p.count = n, p.alignment = 0;
    CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_OK);
    want = ref_plan_reuse_rule(&p);
    got = solve(&p, (dnnmem_plan_algo)(iter % 2 ? DNNMEM_PLAN_BEST : DNNMEM_PLAN_EXACT), off, &res);
    CHECK_EQ(got, want);
    if (got != DNNMEM_OK) continue;
    solved++;
    opt = ref_plan_tied_optimum(&p, best);
    CHECK_EQ(bound(&p, &lb), DNNMEM_OK);
    CHECK(lb <= opt);
    CHECK(opt <= res.arena);
    CHECK_EQ(ref_plan_tied_recount(&p, off), res.arena);
    CHECK_EQ(check(&p, off, &arena, NULL), DNNMEM_OK);
    CHECK_EQ(arena, res.arena);
    CHECK_EQ(check(&p, best, &arena, NULL), DNNMEM_OK);
    CHECK_EQ(res.optimal, res.arena == lb);
    hits += res.arena == opt;
    for (k = 0; k < 8; k++) {
      int64_t want_arena;
      for (i = 0; i < n; i++) off[i] = (int64_t)dnnmem_rng_below(&rng, 4);
      want_arena = ref_plan_tied_recount(&p, off);
      got = check(&p, off, &arena, NULL);
      CHECK_EQ(got == DNNMEM_OK, want_arena >= 0);
      if (got == DNNMEM_OK) CHECK_EQ(arena, want_arena);
    }
  }
  CHECK(solved > 150);
  CHECK(hits >= solved * 9 / 10);
  printf("test_plan_reuse: %d of %d random linked instances solved optimally\n", hits, solved);
}

/* Short scratch is an error for each operation; answers are the same
   twice. */
static void test_scratch_and_determinism(void) {
  dnnmem_interval r[6];
  dnnmem_intervals p = {r, 6, 0};
  int64_t off[6], off2[6];
  dnnmem_plan_result res, res2;
  size_t bytes;
  unsigned char *mem;
  r[0] = rec(0, 2, 100), r[1] = rec(1, 3, 100), r[2] = rec(2, 4, 60), r[3] = rec(0, 5, 10), r[4] = rec(3, 6, 40);
  r[5] = rec(5, 7, 40);
  reuse(&r[1], 0), reuse(&r[2], 1), alias(&r[5], 4);
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes);
  CHECK_EQ(dnnmem_plan_solve(&p, NULL, off, &res, mem, bytes / 2), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_plan_solve(&p, NULL, off, &res, mem, bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_solve(&p, NULL, off2, &res2, mem, bytes), DNNMEM_OK);
  CHECK_EQ(memcmp(off, off2, sizeof off), 0);
  CHECK_EQ(res.arena, res2.arena);
  CHECK_EQ(ref_plan_tied_recount(&p, off), res.arena);
  free(mem);
  /* the heuristics see the chain as 100 bytes until step 4; the exact
     search uses the 40 bytes it leaves at steps 2-3 */
  CHECK_EQ(ref_plan_tied_optimum(&p, NULL), 110);
  CHECK_EQ(solve(&p, DNNMEM_PLAN_EXACT, off, &res), DNNMEM_OK);
  CHECK_EQ(res.arena, 110);
  CHECK_EQ(ref_plan_tied_recount(&p, off), 110);
  CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(&p, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes);
  CHECK_EQ(dnnmem_plan_lower_bound(&p, &res, mem, bytes / 2), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  free(mem);
  CHECK_EQ(dnnmem_plan_check_scratch_size(&p, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes);
  CHECK_EQ(dnnmem_plan_check(&p, off, &res, mem, bytes / 2), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  free(mem);
}

/* Zero-size records tied in place over several spans (B takes over A's
   bytes, A dies at B's first step; a third empty record aliases B): the
   merged group is as tall as its tallest member, 0 bytes, so C, live all
   the time, is the whole arena: 8 bytes, for every algo and the bound. */
static void test_empty_tied_group(void) {
  dnnmem_interval r[4];
  dnnmem_intervals p = {r, 4, 0};
  dnnmem_plan_result res;
  int64_t off[4], arena = -1, lb = -1;
  int32_t a;
  r[0] = rec(0, 3, 0), r[1] = rec(2, 5, 0), r[2] = rec(3, 6, 0), r[3] = rec(0, 6, 8);
  reuse(&r[1], 0);
  alias(&r[2], 1);
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    CHECK_EQ(solve(&p, (dnnmem_plan_algo)a, off, &res), DNNMEM_OK);
    CHECK_EQ(res.arena, 8);
    CHECK_EQ(check(&p, off, &arena, NULL), DNNMEM_OK);
    CHECK_EQ(arena, 8);
  }
  CHECK_EQ(bound(&p, &lb), DNNMEM_OK);
  CHECK_EQ(lb, 8);
}

/* Aliases only (no reuse link): the merged problem is the problem, and
   the search's proof carries over. F, fixed at 1 over [0,2), leaves X (2
   bytes, [0,2)) no room below it: 4 bytes where the bound says 3; the
   exact search proves 4, so lower_bound is 4, optimal, stop proved (not
   the bound of 3 and a stop of incomplete). Y and its view Z elsewhere
   make the aliases. */
static void test_alias_only_proof(void) {
  dnnmem_interval r[4];
  dnnmem_intervals p = {r, 4, 0};
  int64_t off[4], lb = -1;
  dnnmem_plan_result res;
  dnnmem_plan_algo algos[2] = {DNNMEM_PLAN_EXACT, DNNMEM_PLAN_BEST};
  int32_t k;
  r[0] = ref_plan_fixed_record(0, 2, 1, 1), r[1] = rec(0, 2, 2), r[2] = rec(5, 6, 1), r[3] = rec(5, 6, 1);
  alias(&r[3], 2);
  CHECK_EQ(bound(&p, &lb), DNNMEM_OK);
  CHECK_EQ(lb, 3);
  for (k = 0; k < 2; k++) {
    CHECK_EQ(solve(&p, algos[k], off, &res), DNNMEM_OK);
    CHECK_EQ(res.arena, 4);
    CHECK_EQ(res.lower_bound, 4);
    CHECK(res.optimal == 1 && res.stop == DNNMEM_PLAN_STOP_PROVED);
    CHECK_VALUES(off, 1, 2);
    CHECK_EQ(off[3], off[2]);
  }
}

/* The checker names two members that share a byte, not two that only
   touch: views 0 (2 bytes) and 1 (6 bytes, an alias of 0) at offset 0,
   record 2 (2 bytes) at offset 2, all alive together. 2 touches 0 (its
   bytes start where 0's end) and overlaps 1, so the pair is (1, 2); with
   the single record first (its partner's members 1 and 2, at 0 and 0) the
   pair is (0, 2). */
static void test_check_names_meeting_members(void) {
  dnnmem_interval r[3];
  dnnmem_intervals p = {r, 3, 0};
  int64_t off[3];
  int32_t pair[2];
  r[0] = rec(0, 4, 2), r[1] = rec(0, 4, 6), r[2] = rec(0, 4, 2);
  alias(&r[1], 0);
  off[0] = 0, off[1] = 0, off[2] = 2;
  CHECK_EQ(check(&p, off, NULL, pair), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK(pair[0] == 1 && pair[1] == 2);
  r[0] = rec(0, 4, 2), r[1] = rec(0, 4, 2), r[2] = rec(0, 4, 6);
  alias(&r[2], 1);
  off[0] = 2, off[1] = 0, off[2] = 0;
  CHECK_EQ(check(&p, off, NULL, pair), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK(pair[0] == 0 && pair[1] == 2);
}

/* Alias classes whose heights step down and up again over their time
   (class {0, 2, 6, 8}: 6 bytes at step 1, 4 elsewhere; class {3, 4}: 1
   byte at steps 0 and 2, nothing at 1): a merged record keeps windows
   below its height, here two of 4 bytes ([0, 1) and [2, 4)) on either
   side of the 6-byte step, which must stay two (joined, step 1 would lose
   2 bytes). The exact search proves the reuse-aware bound, 25, with a
   plan the checker and the independent recount accept. */
static void test_alias_stepped_heights(void) {
  dnnmem_interval r[10];
  dnnmem_intervals p = {r, 10, 0};
  int64_t off[10], arena = -1, lb = -1;
  dnnmem_plan_result res;
  r[0] = rec(0, 4, 3), r[1] = rec(1, 4, 4), r[2] = rec(0, 4, 1), r[3] = rec(2, 3, 1), r[4] = rec(0, 1, 1);
  r[5] = rec(1, 4, 6), r[6] = rec(1, 2, 6), r[7] = rec(0, 4, 4), r[8] = rec(0, 4, 4), r[9] = rec(1, 4, 5);
  alias(&r[2], 0), alias(&r[4], 3), alias(&r[6], 0), alias(&r[8], 2);
  CHECK_EQ(bound(&p, &lb), DNNMEM_OK);
  CHECK_EQ(lb, 25);
  CHECK_EQ(solve(&p, DNNMEM_PLAN_EXACT, off, &res), DNNMEM_OK);
  CHECK(res.arena == 25 && res.lower_bound == 25 && res.optimal && res.stop == DNNMEM_PLAN_STOP_PROVED);
  CHECK_EQ(ref_plan_tied_recount(&p, off), 25);
  CHECK_EQ(check(&p, off, &arena, NULL), DNNMEM_OK);
  CHECK_EQ(arena, 25);
}

int main(void) {
  RUN(test_inplace_chain);
  RUN(test_alias_views);
  RUN(test_fixed_view);
  RUN(test_checker);
  RUN(test_rules);
  RUN(test_refusals);
  RUN(test_random_oracle);
  RUN(test_scratch_and_determinism);
  RUN(test_empty_tied_group);
  RUN(test_alias_only_proof);
  RUN(test_check_names_meeting_members);
  RUN(test_alias_stepped_heights);
  return test_finish("test_plan_reuse");
}
