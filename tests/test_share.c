/* Tests of shared objects (dnnmem_share_*): the TFLite paper's example,
   the brute-force oracle of tests/ref.h, the checker, bad input. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"
#include "test.h"

static const dnnmem_share_algo every_algo[] = {DNNMEM_SHARE_GREEDY_SIZE, DNNMEM_SHARE_GREEDY_SIZE_IMPROVED,
                                               DNNMEM_SHARE_GREEDY_BREADTH, DNNMEM_SHARE_GREEDY_ORDER,
                                               DNNMEM_SHARE_BEST};
#define NUM_ALGOS ((int)(sizeof(every_algo) / sizeof(every_algo[0])))

#define rec ref_plan_record

static dnnmem_intervals problem_of(const dnnmem_interval *r, int32_t n) {
  dnnmem_intervals p;
  p.records = r;
  p.count = n;
  p.alignment = 0; /* ignored by shared objects */
  return p;
}

/* dnnmem_share_solve in a buffer of exactly the asked size, misaligned on
   purpose; the answer must pass dnnmem_share_check and the recount of
   tests/ref.h with the same objects and total, number the objects by
   first use, and report each object's size. */
static dnnmem_result share(const dnnmem_interval *r, int32_t n, dnnmem_share_algo algo, int32_t *obj,
                           dnnmem_share_result *res) {
  dnnmem_intervals p = problem_of(r, n);
  dnnmem_share_options opt;
  size_t bytes;
  char *scratch;
  int64_t sizes[16];
  dnnmem_share_result checked;
  int32_t objects = -1, i, k, next = 0;
  dnnmem_result rc;
  opt.algo = algo;
  if ((rc = dnnmem_share_solve_scratch_size(&p, &opt, &bytes)) != DNNMEM_OK) return rc;
  scratch = (char *)malloc(bytes + 3);
  rc = dnnmem_share_solve(&p, &opt, obj, n <= 16 ? sizes : NULL, res, scratch + 3, bytes);
  free(scratch);
  if (rc != DNNMEM_OK) return rc;
  CHECK_EQ(ref_share_recount(&p, obj, &objects), res->total);
  CHECK_EQ(objects, res->objects);
  CHECK_EQ(dnnmem_share_check_scratch_size(&p, &bytes), DNNMEM_OK);
  scratch = (char *)malloc(bytes + 1);
  CHECK_EQ(dnnmem_share_check(&p, obj, &checked, scratch + 1, bytes), DNNMEM_OK);
  free(scratch);
  CHECK_EQ(checked.total, res->total);
  CHECK_EQ(checked.objects, res->objects);
  for (k = 0; k < n && n <= 16; k++) { /* numbered by first use (records by lower, then id) */
    for (i = 0; i < n; i++) {           /* i: the k-th record in that order */
      int32_t j, before = 0;
      for (j = 0; j < n; j++) before += r[j].lower < r[i].lower || (r[j].lower == r[i].lower && j < i);
      if (before == k) break;
    }
    if (obj[i] == next) next++;
    else CHECK(obj[i] < next);
  }
  if (n <= 16) CHECK_EQ(next, res->objects);
  for (i = 0; i < res->objects && n <= 16; i++) {
    int64_t m = 0;
    int32_t j;
    for (j = 0; j < n; j++)
      if (obj[j] == i && r[j].size > m) m = r[j].size;
    CHECK_EQ(sizes[i], m);
  }
  return rc;
}

static void test_tflite_example(void) {
  dnnmem_interval r[REF_TFLITE_COUNT] = {{0}};
  dnnmem_intervals p = problem_of(r, REF_TFLITE_COUNT);
  int32_t obj[REF_TFLITE_COUNT];
  dnnmem_share_result bounded;
  dnnmem_share_result res;
  dnnmem_result rc;
  int a;
  ref_tflite_example(r);
  TEST_ASK_PASS(rc, dnnmem_share_lower_bound_scratch_size(&p, &test_bytes),
                dnnmem_share_lower_bound(&p, &bounded, test_mem + 1, test_bytes));
  CHECK_EQ(rc, DNNMEM_OK);
  CHECK_EQ(bounded.lower_bound, 64 + 40 + 16 + 8); /* the third positional maximum is 16 (stated in the paper) */
  for (a = 0; a < NUM_ALGOS; a++) {
    CHECK_EQ(share(r, REF_TFLITE_COUNT, every_algo[a], obj, &res), DNNMEM_OK);
    CHECK_EQ(res.lower_bound, 128);
    CHECK(res.total >= 128);
    CHECK(res.objects >= 4); /* four records live at op 4 and op 5 */
  }
}

/* Every strategy against the oracle of tests/ref.h on small random inputs. */
static void test_oracle(void) {
  FOR_TRIALS(rng, 7, trial, 300) {
    dnnmem_interval r[8];
    dnnmem_intervals p = problem_of(r, 0);
    int32_t obj[8];
    int64_t best;
    int n = 1 + (int)dnnmem_rng_below(&rng, 8), i, a;
    dnnmem_share_result res;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 8);
      r[i] = rec(lo, lo + 1 + dnnmem_rng_below(&rng, 4), 1 + dnnmem_rng_below(&rng, 20));
    }
    p.count = n;
    best = ref_share_optimum(&p);
    for (a = 0; a < NUM_ALGOS; a++) {
      CHECK_EQ(share(r, n, every_algo[a], obj, &res), DNNMEM_OK);
      CHECK(res.total >= best);
      CHECK(res.lower_bound <= best);
      CHECK_EQ(res.optimal, res.total == res.lower_bound);
    }
  }
}

static void test_check_and_bad_input(void) {
  dnnmem_interval r[3] = {{0}};
  dnnmem_intervals p = problem_of(r, 3);
  dnnmem_share_options opt;
  int32_t obj[3] = {0, 1, 0};
  int32_t objects = 0;
  dnnmem_share_result c;
  size_t bytes, check_bytes;
  void *scratch;
  dnnmem_share_result res;
  char small[32];
  r[0] = rec(0, 2, 10), r[1] = rec(1, 3, 20), r[2] = rec(2, 4, 30);
  CHECK_EQ(dnnmem_share_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_share_check_scratch_size(&p, &check_bytes), DNNMEM_OK);
  CHECK(check_bytes < bytes);
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_share_check(&p, obj, &c, scratch, check_bytes), DNNMEM_OK);
  CHECK_EQ(c.total, 50);
  CHECK_EQ(c.objects, 2);
  CHECK_EQ(dnnmem_share_check(&p, obj, &c, scratch, check_bytes - 16), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(c.error.field, DNNMEM_FIELD_SCRATCH);
  obj[2] = 1; /* records 1 and 2 overlap over [2, 3) */
  CHECK_EQ(dnnmem_share_check(&p, obj, &c, scratch, bytes), DNNMEM_ERR_SHARE_OVERLAP);
  CHECK(c.error.index == 1 && c.error.other == 2 && c.error.field == DNNMEM_FIELD_OBJECT && c.total == 0);
  CHECK_EQ(ref_share_recount(&p, obj, &objects), -1);
  obj[2] = 3;
  CHECK_EQ(dnnmem_share_check(&p, obj, &c, scratch, bytes), DNNMEM_ERR_ID_RANGE);
  CHECK(c.error.index == 2 && c.error.field == DNNMEM_FIELD_OBJECT);
  CHECK_EQ(dnnmem_share_check(&p, NULL, &c, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_share_solve(&p, NULL, obj, NULL, &res, small, sizeof(small)), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_share_lower_bound(&p, &c, small, sizeof(small)), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_share_solve(&p, NULL, NULL, NULL, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_share_solve(NULL, NULL, obj, NULL, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_share_solve_scratch_size(&p, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  r[1].size = -5;
  CHECK_EQ(dnnmem_share_solve(&p, NULL, obj, NULL, &res, scratch, bytes), DNNMEM_ERR_NEGATIVE);
  r[1] = rec(3, 3, 1);
  CHECK_EQ(dnnmem_share_solve(&p, NULL, obj, NULL, &res, scratch, bytes), DNNMEM_ERR_EMPTY_INTERVAL);
  r[1] = rec(1, 3, 20);
  p.alignment = 3; /* ignored */
  opt.algo = DNNMEM_SHARE_ALGO_COUNT;
  CHECK_EQ(dnnmem_share_solve(&p, &opt, obj, NULL, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  opt.algo = DNNMEM_SHARE_BEST;
  CHECK_EQ(dnnmem_share_solve(&p, &opt, obj, NULL, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.total, 50);
  p.count = 0;
  CHECK_EQ(dnnmem_share_solve(&p, NULL, obj, NULL, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.total, 0);
  CHECK_EQ(res.objects, 0);
  free(scratch);
  CHECK_ENUM_NAMES(dnnmem_share_algo, DNNMEM_SHARE_ALGO_COUNT, "greedy", "best", "greedy-size", "greedy-size-improved",
                   "greedy-breadth", "greedy-order");
}

/* The arguments every entry point refuses, each by its code; optional
   outputs left NULL; a count past the int32 time points refused before any
   record is read; the check's ids at both ends of the range. */
static void test_arguments(void) {
  dnnmem_interval r[3] = {{0}};
  dnnmem_intervals p = problem_of(r, 3), huge = problem_of(NULL, INT32_MAX / 2 + 1);
  dnnmem_share_options opt;
  int32_t obj[3];
  dnnmem_share_result c;
  size_t bytes = 0;
  char *scratch;
  r[0] = rec(0, 2, 10), r[1] = rec(1, 3, 20), r[2] = rec(2, 4, 30);
  CHECK_EQ(dnnmem_share_solve_scratch_size(&huge, NULL, &bytes), DNNMEM_ERR_TOO_MANY);
  CHECK_EQ(dnnmem_share_lower_bound_scratch_size(&huge, &bytes), DNNMEM_ERR_TOO_MANY);
  CHECK_EQ(dnnmem_share_check_scratch_size(&huge, &bytes), DNNMEM_ERR_TOO_MANY);
  CHECK_EQ(dnnmem_share_solve_scratch_size(NULL, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_share_lower_bound_scratch_size(&p, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_share_check_scratch_size(&p, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_share_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  scratch = (char *)malloc(bytes);
  CHECK_EQ(dnnmem_share_lower_bound(&p, NULL, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_share_lower_bound(&p, &c, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(c.lower_bound, 50); /* positional maxima: 30 (then 20 beside it) */
  opt.algo = (dnnmem_share_algo)-1;
  CHECK_EQ(dnnmem_share_solve(&p, &opt, obj, NULL, NULL, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  opt.algo = DNNMEM_SHARE_GREEDY_SIZE;
  CHECK_EQ(dnnmem_share_solve(&p, &opt, obj, NULL, NULL, scratch, bytes), DNNMEM_OK); /* no result */
  CHECK_EQ(ref_share_recount(&p, obj, NULL), 50);
  obj[0] = obj[2] = 0, obj[1] = 2; /* the last id is valid */
  CHECK_EQ(dnnmem_share_check(&p, obj, NULL, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_share_check(&p, obj, &c, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(c.total, 50);
  obj[1] = -1;
  CHECK_EQ(dnnmem_share_check(&p, obj, &c, scratch, bytes), DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(c.error.index, 1);
  free(scratch);
}

/* Lifetimes at both ends of int64: the time between them saturates instead
   of overflowing, and every algorithm still finds the one object of size 8
   that both fit in. */
static void test_far_apart(void) {
  dnnmem_interval r[3];
  dnnmem_share_result res;
  int32_t obj[3], a;
  r[0] = rec(INT64_MIN + 1, INT64_MIN + 3, 8);
  r[1] = rec(INT64_MAX - 3, INT64_MAX - 1, 8);
  r[2] = rec(INT64_MIN + 2, INT64_MIN + 4, 4);
  for (a = 0; a < NUM_ALGOS; a++) {
    CHECK_EQ(share(r, 3, every_algo[a], obj, &res), DNNMEM_OK);
    CHECK_EQ(res.total, 12);
    CHECK_EQ(res.lower_bound, 12);
  }
}

/* Links are not modelled by shared objects: a view or an in-place record
   is refused with its index and its link's field. */
static void test_links_refused(void) {
  dnnmem_interval r[2] = {{0}};
  dnnmem_intervals p = problem_of(r, 2);
  dnnmem_share_result c;
  int32_t obj[2];
  size_t bytes = 0;
  char *scratch;
  r[0] = rec(0, 2, 10), r[1] = rec(1, 3, 10);
  r[1].flags = DNNMEM_INTERVAL_ALIAS, r[1].alias = 0;
  CHECK_EQ(dnnmem_share_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  scratch = (char *)malloc(bytes);
  CHECK_EQ(dnnmem_share_solve(&p, NULL, obj, NULL, &c, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(c.error.index == 1 && c.error.field == DNNMEM_FIELD_ALIAS);
  r[1].flags = DNNMEM_INTERVAL_REUSE, r[1].reuse = 0;
  CHECK_EQ(dnnmem_share_solve(&p, NULL, obj, NULL, &c, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(c.error.index == 1 && c.error.field == DNNMEM_FIELD_REUSE);
  free(scratch);
}

/* The largest count (2^30 - 1: its 2n time points are the last int32
   ones) is a size, one more is TOO_MANY (test_arguments); sizes read only
   the count. */
static void test_largest_count(void) {
  dnnmem_intervals big = problem_of(NULL, INT32_MAX / 2);
  size_t bytes = 0;
  CHECK_HUGE_SIZE(dnnmem_share_solve_scratch_size(&big, NULL, &bytes), bytes, (size_t)1 << 30);
  CHECK_HUGE_SIZE(dnnmem_share_lower_bound_scratch_size(&big, &bytes), bytes, (size_t)1 << 30);
  CHECK_HUGE_SIZE(dnnmem_share_check_scratch_size(&big, &bytes), bytes, (size_t)1 << 30);
}

/* Greedy by order takes records by (lower, upper), equal lifetimes by id
   (the sort is stable; its "less" is strict): X [0,1) of 16 bytes opens
   object 0; A [1,3) of 8 bytes comes before B [1,3) of 16 and takes
   object 0 (free, no growth), so B opens object 1: 32 bytes, where B first
   would have made 24. The algorithm's order, exactly. */
static void test_greedy_order_ties(void) {
  dnnmem_interval r[3];
  dnnmem_share_result res;
  int32_t obj[3];
  r[0] = rec(0, 1, 16), r[1] = rec(1, 3, 8), r[2] = rec(1, 3, 16);
  CHECK_EQ(share(r, 3, DNNMEM_SHARE_GREEDY_ORDER, obj, &res), DNNMEM_OK);
  CHECK_VALUES(obj, 0, 0, 1);
  CHECK_EQ(res.total, 32);
}

/* The check names the first overlap in its order (by object, then start,
   ties by id): three members of one object starting together overlap,
   and the pair named is (0, 1), not (1, 2) (a sort that put equal starts
   in reverse would name that); three by time give the earlier pair, and
   a member meeting only the one that ends last names that one. */
static void test_check_names_first_overlap(void) {
  dnnmem_interval r[4];
  dnnmem_intervals p;
  dnnmem_share_result res;
  int32_t obj[4] = {0, 0, 0, 1};
  size_t bytes = 0;
  char *scratch;
  r[0] = rec(2, 7, 8), r[1] = rec(2, 5, 8), r[2] = rec(2, 6, 8), r[3] = rec(0, 9, 8);
  p = problem_of(r, 4);
  CHECK_EQ(dnnmem_share_check_scratch_size(&p, &bytes), DNNMEM_OK);
  scratch = (char *)malloc(bytes);
  CHECK_EQ(dnnmem_share_check(&p, obj, &res, scratch, bytes), DNNMEM_ERR_SHARE_OVERLAP);
  CHECK(res.error.index == 0 && res.error.other == 1 && res.error.field == DNNMEM_FIELD_OBJECT);
  r[0] = rec(0, 4, 8), r[1] = rec(6, 9, 8), r[2] = rec(3, 5, 8); /* 2 meets 0 only */
  CHECK_EQ(dnnmem_share_check(&p, obj, &res, scratch, bytes), DNNMEM_ERR_SHARE_OVERLAP);
  CHECK(res.error.index == 0 && res.error.other == 2);
  r[0] = rec(0, 8, 8), r[1] = rec(1, 2, 8), r[2] = rec(3, 5, 8); /* 1 and 2 meet 0, which ends last */
  CHECK_EQ(dnnmem_share_check(&p, obj, &res, scratch, bytes), DNNMEM_ERR_SHARE_OVERLAP);
  CHECK(res.error.index == 0 && res.error.other == 1);
  r[1] = rec(8, 9, 8), r[2] = rec(9, 12, 16), obj[3] = 3; /* touching ends: no overlap */
  CHECK_EQ(dnnmem_share_check(&p, obj, &res, scratch, bytes), DNNMEM_OK);
  CHECK(res.objects == 2 && res.total == 24);
  free(scratch);
}

/* Greedy by size improved's time distance: zero for lifetimes that touch
   ([1,4) then [4,5) and [4,6)), not negative. Stage 0 puts [1,4) of 3
   bytes in object 0; in stage 2 both small records are at distance 0
   from it, the tie goes to the first by size then id (record 1), and
   record 2, meeting record 1, opens object 1: 0 0 1, total 4. */
static void test_improved_touching(void) {
  dnnmem_interval r[3];
  dnnmem_share_result res;
  int32_t obj[3];
  r[0] = rec(1, 4, 3), r[1] = rec(4, 5, 1), r[2] = rec(4, 6, 1);
  CHECK_EQ(share(r, 3, DNNMEM_SHARE_GREEDY_SIZE_IMPROVED, obj, &res), DNNMEM_OK);
  CHECK_VALUES(obj, 0, 0, 1);
  CHECK_EQ(res.total, 4);
}

/* Greedy by size improved's stages: sizes 4 ([1,2)), 3 ([0,3)), 2
   ([4,7)) have positional maximums 4, 3, so 4 is stage 0, 3 stage 2 (equal
   to the second maximum) and 2 stage 3 (below it): each its own stage.
   Stage 0 opens object A for the 4; in stage 2 the 3 meets it and opens
   B; in stage 3 the 2 may join A (time distance 2) or B (1) and takes B:
   objects by first use 0 0 1, total 7. Were 3 and 2 one stage, the 2
   would take A first (the only pair), leaving the 3 a new object: 1 0 1. */
static void test_improved_stages(void) {
  dnnmem_interval r[3];
  dnnmem_share_result res;
  int32_t obj[3];
  r[0] = rec(4, 7, 2), r[1] = rec(0, 3, 3), r[2] = rec(1, 2, 4);
  CHECK_EQ(share(r, 3, DNNMEM_SHARE_GREEDY_SIZE_IMPROVED, obj, &res), DNNMEM_OK);
  CHECK_VALUES(obj, 0, 0, 1);
  CHECK(res.objects == 2 && res.total == 7 && res.lower_bound == 7 && res.optimal == 1);
}

int main(void) {
  RUN(test_tflite_example);
  RUN(test_oracle);
  RUN(test_check_and_bad_input);
  RUN(test_arguments);
  RUN(test_far_apart);
  RUN(test_links_refused);
  RUN(test_largest_count);
  RUN(test_greedy_order_ties);
  RUN(test_check_names_first_overlap);
  RUN(test_improved_touching);
  RUN(test_improved_stages);
  return test_finish("test_share");
}
