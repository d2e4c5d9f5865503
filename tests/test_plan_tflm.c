/* Tests of greedy-tflm (TensorFlow Lite Micro's GreedyMemoryPlanner rule).
   Its own unit tests' cases (greedy_memory_planner_test.cc), typed here as
   numbers: its AddBuffer(size, first, last) is the record {lower = first,
   upper = last + 1, size}; the expected offsets and arenas are its tests'
   (the person detection case's exact offsets and arena 64512 were
   measured by running its planner built from its source; its test only
   asserts < 241027). Then hand cases for each part of the rule (ties: the
   buffer added last first; the lowest free interval that fits, not the
   smallest; offline-planned offsets first; a zero-size buffer ending a free
   interval) - each expected value also measured with its planner - and
   random instances against the step-by-step oracle of tests/ref.h
   (ref_plan_greedy_tflm), small and at scale, with ties, zero sizes, fixed
   records and alignments. */
#include <stdlib.h>
#include <string.h>

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "../examples/dnnmem_files.h"
#include "ref.h"
#include "test.h"

/* TFLM's AddBuffer(size, first, last [, offline offset]): -1 = online */
typedef struct tflm_buffer {
  int64_t size, first, last, offline;
} tflm_buffer;

/* Plans b[0..n) with algo; offsets into off, the result into res. */
static dnnmem_result plan_buffers(const tflm_buffer *b, int32_t n, dnnmem_plan_algo algo, int64_t *off,
                                  dnnmem_plan_result *res) {
  dnnmem_interval r[64];
  dnnmem_intervals p;
  dnnmem_plan_options opt;
  size_t bytes = 0;
  void *scratch;
  dnnmem_result rc;
  int32_t i;
  for (i = 0; i < n; i++) {
    r[i] = ref_plan_record(b[i].first, b[i].last + 1, b[i].size);
    if (b[i].offline >= 0) r[i].flags |= DNNMEM_INTERVAL_FIXED, r[i].fixed_offset = b[i].offline;
  }
  p.records = r, p.count = n, p.alignment = 0;
  memset(&opt, 0, sizeof opt);
  opt.algo = algo;
  if ((rc = dnnmem_plan_solve_scratch_size(&p, &opt, &bytes)) != DNNMEM_OK) return rc;
  scratch = malloc(bytes);
  rc = dnnmem_plan_solve(&p, &opt, off, res, scratch, bytes);
  free(scratch);
  if (rc == DNNMEM_OK) CHECK_EQ(ref_plan_recount(&p, off), res->arena);
  return rc;
}

/* greedy-tflm's offsets and arena are the expected ones */
static void expect_plan(const tflm_buffer *b, int32_t n, const int64_t *want, int64_t arena) {
  int64_t off[64];
  dnnmem_plan_result res;
  int32_t i;
  CHECK_EQ(plan_buffers(b, n, DNNMEM_PLAN_GREEDY_TFLM, off, &res), DNNMEM_OK);
  CHECK_EQ(res.algo, DNNMEM_PLAN_GREEDY_TFLM);
  CHECK_EQ(res.arena, arena);
  for (i = 0; i < n; i++) {
    if (off[i] != want[i]) fprintf(stderr, "buffer %d at %lld, expected %lld\n", i, (long long)off[i], (long long)want[i]);
    CHECK_EQ(off[i], want[i]);
  }
}

/* ---- its unit tests ---------------------------------------------------- */

static void test_its_basics(void) {
  static const tflm_buffer b[] = {{10, 0, 1, -1}, {20, 2, 3, -1}};
  static const int64_t want[] = {0, 0};
  expect_plan(b, 2, want, 20);
}

static void test_its_medium(void) {
  static const tflm_buffer b[] = {{10, 0, 1, -1}, {20, 1, 2, -1}, {30, 2, 3, -1}, {40, 3, 4, -1}, {50, 0, 1, -1}};
  static const int64_t want[] = {50, 70, 40, 0, 0};
  expect_plan(b, 5, want, 90);
}

static void test_its_person_detection(void) {
  static const tflm_buffer b[] = {
      {9216, 0, 29, -1},  {3, 28, 29, -1},    {256, 27, 28, -1},  {2304, 26, 27, -1}, {2304, 25, 26, -1},
      {2304, 24, 25, -1}, {1152, 23, 24, -1}, {4608, 22, 23, -1}, {4608, 21, 22, -1}, {4608, 20, 21, -1},
      {4608, 19, 20, -1}, {4608, 18, 19, -1}, {4608, 17, 18, -1}, {4608, 16, 17, -1}, {4608, 15, 16, -1},
      {4608, 14, 15, -1}, {4608, 13, 14, -1}, {4608, 12, 13, -1}, {2304, 11, 12, -1}, {9216, 10, 11, -1},
      {9216, 9, 10, -1},  {9216, 8, 9, -1},   {4608, 7, 8, -1},   {18432, 6, 7, -1},  {18432, 5, 6, -1},
      {18432, 4, 5, -1},  {9216, 3, 4, -1},   {36864, 2, 3, -1},  {18432, 1, 2, -1},  {18432, 0, 1, -1}};
  static const int64_t want[] = {55296, 0,    2304, 0,     2304, 0,     4608,  0, 4608, 0,
                                 4608,  0,    4608, 0,     4608, 0,     4608,  0, 9216, 0,
                                 9216,  0,    18432, 0,    18432, 0,    36864, 0, 36864, 0};
  int64_t off[30];
  dnnmem_plan_result res;
  expect_plan(b, 30, want, 64512);
  CHECK(64512 < 241027); /* its test's bound */
  /* best: never above it (greedy-tflm is one of its candidates) */
  CHECK_EQ(plan_buffers(b, 30, DNNMEM_PLAN_BEST, off, &res), DNNMEM_OK);
  CHECK(res.arena <= 64512);
}

static void test_its_overlap_case(void) {
  static const tflm_buffer b[] = {{100, 0, 1, -1}, {50, 2, 3, -1}, {20, 1, 2, -1}};
  static const int64_t want[] = {0, 0, 100};
  expect_plan(b, 3, want, 120);
}

/* ---- each part of the rule -------------------------------------------- */

static void test_ties_last_added_first(void) {
  static const tflm_buffer b[] = {{16, 0, 2, -1}, {16, 0, 2, -1}, {16, 0, 2, -1}};
  static const int64_t want[] = {32, 16, 0};
  int64_t off[3];
  dnnmem_plan_result res;
  expect_plan(b, 3, want, 48);
  CHECK_EQ(plan_buffers(b, 3, DNNMEM_PLAN_GREEDY_SIZE, off, &res), DNNMEM_OK); /* TFLite's: row order */
  CHECK(off[0] == 0 && off[1] == 16 && off[2] == 32);
}

static void test_lowest_gap_not_smallest(void) {
  /* offline buffers at 40 (20 bytes) and 70 (30): free [0, 40), [60, 70) */
  static const tflm_buffer b[] = {{20, 0, 9, 40}, {30, 0, 9, 70}, {10, 0, 9, -1}};
  static const int64_t want[] = {40, 70, 0};
  int64_t off[3];
  dnnmem_plan_result res;
  expect_plan(b, 3, want, 100);
  CHECK_EQ(plan_buffers(b, 3, DNNMEM_PLAN_GREEDY_SIZE, off, &res), DNNMEM_OK); /* the smallest gap */
  CHECK_EQ(off[2], 60);
}

static void test_zero_size_ends_a_gap(void) {
  /* [10, 30) is free, but its walk meets the empty buffer at 20 first */
  static const tflm_buffer zero[] = {{10, 0, 4, 0}, {0, 0, 4, 20}, {10, 0, 4, 30}, {15, 0, 4, -1}};
  static const int64_t want_zero[] = {0, 20, 30, 40};
  static const tflm_buffer none[] = {{10, 0, 4, 0}, {10, 0, 4, 30}, {15, 0, 4, -1}};
  static const int64_t want_none[] = {0, 30, 10};
  static const tflm_buffer wanted[] = {{10, 0, 4, 0}, {10, 0, 4, 30}, {0, 0, 4, -1}};
  static const int64_t want_wanted[] = {0, 30, 0};
  expect_plan(zero, 4, want_zero, 55);
  expect_plan(none, 3, want_none, 40);
  expect_plan(wanted, 3, want_wanted, 40);
}

static void test_times_of_subgraphs_never_called(void) {
  /* its allocator's lifetime [-1, -1]: they meet each other only */
  static const tflm_buffer b[] = {{32, -1, -1, -1}, {16, 0, 1, -1}, {32, -1, -1, -1}};
  static const int64_t want[] = {32, 0, 0};
  expect_plan(b, 3, want, 64);
}

/* An engine's planner lives in its arena: greedy-tflm alone asks for a
   fraction of the others' scratch (no exact block, no other strategy's
   arrays), plans in exactly that, and refuses half of it. */
static void test_lean_scratch(void) {
  dnnmem_interval r[30];
  dnnmem_intervals p;
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  size_t lean = 0, best = 0;
  int64_t off[30];
  unsigned char *scratch;
  int32_t i;
  for (i = 0; i < 30; i++) r[i] = ref_plan_record(i, i + 2, 16 * (1 + i % 5));
  p.records = r, p.count = 30, p.alignment = 0;
  memset(&opt, 0, sizeof opt);
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, &opt, &best), DNNMEM_OK);
  opt.algo = DNNMEM_PLAN_GREEDY_TFLM;
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, &opt, &lean), DNNMEM_OK);
  CHECK(lean * 4 < best);
  CHECK(lean < 30 * 512); /* about 430 bytes per record */
  scratch = (unsigned char *)malloc(lean + 1);
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch + 1, lean), DNNMEM_OK); /* any alignment */
  CHECK_EQ(ref_plan_recount(&p, off), res.arena);
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, lean / 2), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  opt.algo = DNNMEM_PLAN_BEST;
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, lean), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  free(scratch);
}

static void test_name_and_parse(void) {
  dnnmem_plan_algo a = DNNMEM_PLAN_BEST;
  CHECK(strcmp(dnnmem_plan_algo_name(DNNMEM_PLAN_GREEDY_TFLM), "greedy-tflm") == 0);
  CHECK_EQ(dnnmem_plan_algo_parse("greedy-tflm", &a), DNNMEM_OK);
  CHECK_EQ(a, DNNMEM_PLAN_GREEDY_TFLM);
}

/* ---- against the oracle ------------------------------------------------ */

static int differs_from_oracle(const dnnmem_intervals *p, const char *what, int32_t trial, int32_t shown) {
  int64_t *off = (int64_t *)calloc((size_t)p->count + 1, sizeof(int64_t));
  int64_t *want = (int64_t *)calloc(2 * (size_t)p->count + 1, sizeof(int64_t));
  int32_t n = p->count, i = ref_plan_first_difference(p, DNNMEM_PLAN_GREEDY_TFLM, ref_plan_greedy_tflm, off, want);
  int differs = i != -1;
  if (!differs && n <= 64) { /* best never does worse (greedy-tflm is among its candidates) */
    dnnmem_plan_options opt;
    dnnmem_plan_result best;
    size_t bytes = 0;
    void *scratch;
    int64_t arena = ref_plan_recount(p, off);
    memset(&opt, 0, sizeof opt);
    opt.algo = DNNMEM_PLAN_BEST;
    CHECK_EQ(dnnmem_plan_solve_scratch_size(p, &opt, &bytes), DNNMEM_OK);
    scratch = malloc(bytes);
    CHECK_EQ(dnnmem_plan_solve(p, &opt, want + n, &best, scratch, bytes), DNNMEM_OK);
    free(scratch);
    differs |= best.arena > arena;
  }
  if (differs && shown < 5)
    fprintf(stderr, "%s %d: n=%d record %d at %lld, the oracle says %lld\n", what, trial, n, i,
            (long long)(i >= 0 && i < n ? off[i] : -1), (long long)(i >= 0 && i < n ? want[i] : -1));
  free(off), free(want);
  return differs;
}

static void test_same_plans_as_the_oracle(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 30, trial, 3000) {
    dnnmem_interval r[64];
    dnnmem_intervals p;
    /* lifetimes from -1, 16-byte units (ragged every seventh trial), a few
       offline-planned records apart */
    ref_plan_random_trial(&rng, trial, r, &p, -1, 16, trial % 7 == 3, 4, 8);
    bad += differs_from_oracle(&p, "trial", trial, bad);
  }
  CHECK_EQ(bad, 0);
}

static void test_same_plans_at_scale(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 31, trial, 12) {
    int32_t n = 200 + (int32_t)dnnmem_rng_below(&rng, 1800), i, fixed = 0;
    int64_t span = trial % 4 == 0 ? 16 + trial : 3 * (int64_t)n;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
    dnnmem_intervals p;
    for (i = 0; i < n; i++) {
      uint32_t roll = dnnmem_rng_below(&rng, 100);
      int64_t len = roll < 70 ? 1 + dnnmem_rng_below(&rng, 4) : roll < 95 ? 5 + dnnmem_rng_below(&rng, 100)
                                                                           : 100 + dnnmem_rng_below(&rng, (uint32_t)span);
      r[i].lower = dnnmem_rng_below(&rng, (uint32_t)span);
      r[i].upper = r[i].lower + len;
      r[i].size = trial % 3 == 1 && dnnmem_rng_below(&rng, 12) == 0
                      ? 0 : (int64_t)(1 + dnnmem_rng_below(&rng, 6)) << (4 + dnnmem_rng_below(&rng, 6));
      if (trial % 3 == 2 && fixed < 16 && dnnmem_rng_below(&rng, 40) == 0 && r[i].size <= 64) {
        r[i].flags |= DNNMEM_INTERVAL_FIXED;
        r[i].fixed_offset = 64 * (int64_t)(fixed++) * 37;
      }
    }
    p.records = r, p.count = n, p.alignment = trial % 5 == 4 ? 32 : 0;
    bad += differs_from_oracle(&p, "scale trial", trial, bad);
    free(r);
  }
  CHECK_EQ(bad, 0);
}

int main(void) {
  RUN(test_its_basics);
  RUN(test_its_medium);
  RUN(test_its_person_detection);
  RUN(test_its_overlap_case);
  RUN(test_ties_last_added_first);
  RUN(test_lowest_gap_not_smallest);
  RUN(test_zero_size_ends_a_gap);
  RUN(test_times_of_subgraphs_never_called);
  RUN(test_lean_scratch);
  RUN(test_name_and_parse);
  RUN(test_same_plans_as_the_oracle);
  RUN(test_same_plans_at_scale);
  return test_finish("test_plan_tflm");
}
