/* Tests of interval planning (dnnmem_plan_*): worked examples, brute-force
   optima, the checker, bad input, a real model. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "test.h"

static const dnnmem_plan_algo every_algo[] = {
    DNNMEM_PLAN_NAIVE,          DNNMEM_PLAN_GREEDY_SIZE, DNNMEM_PLAN_GREEDY_BREADTH,
    DNNMEM_PLAN_SORTED_HEIGHT,  DNNMEM_PLAN_PATHCOVER,   DNNMEM_PLAN_BESTFIT,
    DNNMEM_PLAN_BEST};
#define NUM_ALGOS ((int)(sizeof(every_algo) / sizeof(every_algo[0])))

/* Independent recount: the arena, or -1 when two live records share a byte,
   an offset is misaligned or a fixed offset moved. O(n^2), no gaps. */
static long long recount_arena(const dnnmem_interval *r, int n, const int64_t *off, int64_t align) {
  long long arena = 0;
  int i, j;
  for (i = 0; i < n; i++) {
    int64_t a = r[i].alignment > align ? r[i].alignment : align;
    if (a < 1) a = 1;
    if (off[i] < 0 || off[i] % a) return -1;
    if ((r[i].flags & DNNMEM_INTERVAL_FIXED) && off[i] != r[i].fixed_offset) return -1;
    if (off[i] + r[i].size > arena) arena = off[i] + r[i].size;
    for (j = 0; j < i; j++)
      if (r[i].lower < r[j].upper && r[j].lower < r[i].upper && r[i].size > 0 && r[j].size > 0 &&
          off[i] < off[j] + r[j].size && off[j] < off[i] + r[i].size)
        return -1;
  }
  return arena;
}

static dnnmem_result plan(const dnnmem_interval *r, int n, dnnmem_plan_algo algo, int64_t align,
                          int64_t *off, dnnmem_plan_result *res) {
  dnnmem_plan_options opt;
  size_t bytes;
  void *scratch;
  dnnmem_result rc;
  memset(&opt, 0, sizeof(opt));
  opt.algo = algo;
  opt.alignment = align;
  rc = dnnmem_plan_scratch_size(r, n, &opt, &bytes);
  if (rc != DNNMEM_OK) return rc;
  scratch = malloc(bytes + 1);
  /* misaligned on purpose: any pointer alignment must be accepted */
  rc = dnnmem_plan(r, n, &opt, off, res, (char *)scratch + 1, bytes);
  free(scratch);
  return rc;
}

static dnnmem_interval rec(int64_t lower, int64_t upper, int64_t size) {
  dnnmem_interval r;
  memset(&r, 0, sizeof(r));
  r.lower = lower;
  r.upper = upper;
  r.size = size;
  return r;
}

/* The seed's chain: every tensor lives two steps. The old order stacks a
   staircase; the path-cover order alternates and reaches 2 x size. */
static void test_chain_staircase(void) {
  dnnmem_interval r[10];
  int64_t off[10];
  dnnmem_plan_result res;
  int i;
  for (i = 0; i < 10; i++) r[i] = rec(i, i + 2, 100);
  CHECK_EQ(plan(r, 10, DNNMEM_PLAN_SORTED_HEIGHT, 0, off, &res), DNNMEM_OK);
  CHECK_EQ(res.arena, 1000);
  CHECK_EQ(recount_arena(r, 10, off, 1), 1000);
  CHECK_EQ(plan(r, 10, DNNMEM_PLAN_PATHCOVER, 0, off, &res), DNNMEM_OK);
  CHECK_EQ(res.arena, 200);
  CHECK_EQ(res.lower_bound, 200);
  CHECK(res.optimal);
  CHECK_EQ(recount_arena(r, 10, off, 1), 200);
  for (i = 0; i < 10; i++) CHECK_EQ(off[i], (i % 2) * 100);
  CHECK_EQ(plan(r, 10, DNNMEM_PLAN_NAIVE, 0, off, &res), DNNMEM_OK);
  CHECK_EQ(res.arena, 1000);
}

/* TFLite paper, Figure 2: {first_op, last_op, size}. Operator #3's breadth
   is 36 + 28 + 16 = 80 and the third positional maximum is 16 (stated in
   the paper); the largest breadth (op #5: 36 + 16 + 8 + 64) is 124 and the
   positional maximums 64 + 40 + 16 + 8 sum to 128. */
static const int tflite_example[8][3] = {{0, 1, 32}, {1, 4, 28}, {2, 5, 36}, {3, 5, 16},
                                         {4, 5, 8},  {5, 7, 64}, {6, 8, 10}, {7, 8, 40}};

static void tflite_records(dnnmem_interval *r) {
  int i;
  for (i = 0; i < 8; i++) r[i] = rec(tflite_example[i][0], tflite_example[i][1] + 1, tflite_example[i][2]);
}

static void test_tflite_example(void) {
  dnnmem_interval r[8];
  int64_t off[8], bound = 0, sub_bound = 0;
  dnnmem_plan_result res;
  size_t bytes;
  void *scratch;
  int a;
  tflite_records(r);
  CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(r, 8, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_plan_lower_bound(r, 8, 1, &bound, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(bound, 124);
  /* operator #3 alone: records live at op 3 */
  {
    dnnmem_interval live[3];
    live[0] = rec(3, 4, 28), live[1] = rec(3, 4, 36), live[2] = rec(3, 4, 16);
    CHECK_EQ(dnnmem_plan_lower_bound(live, 3, 1, &sub_bound, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(sub_bound, 80);
  }
  free(scratch);
  for (a = 0; a < NUM_ALGOS; a++) {
    CHECK_EQ(plan(r, 8, every_algo[a], 0, off, &res), DNNMEM_OK);
    CHECK_EQ(recount_arena(r, 8, off, 1), res.arena);
    CHECK(res.arena >= 124);
    CHECK_EQ(res.lower_bound, 124);
  }
  CHECK_EQ(plan(r, 8, DNNMEM_PLAN_GREEDY_SIZE, 0, off, &res), DNNMEM_OK);
  CHECK_EQ(res.arena, 124); /* greedy by size reaches the bound here */
}

/* Brute force: every order, each record at its lowest feasible aligned
   offset. Some order gives the optimum (take an optimal plan, place its
   records by offset: each lands at or below its place). */
static int64_t brute_best;
static void brute(const dnnmem_interval *r, int n, int64_t align, int64_t *off, int *used, int depth,
                  int64_t arena) {
  int i, j;
  if (arena >= brute_best) return;
  if (depth == n) {
    brute_best = arena;
    return;
  }
  for (i = 0; i < n; i++) {
    int64_t a = r[i].alignment > align ? r[i].alignment : align, o = 0;
    int moved = 1;
    if (used[i]) continue;
    if (a < 1) a = 1;
    while (moved) {
      moved = 0;
      for (j = 0; j < n; j++)
        if (used[j] && r[i].lower < r[j].upper && r[j].lower < r[i].upper && r[i].size > 0 &&
            r[j].size > 0 && o < off[j] + r[j].size && off[j] < o + r[i].size) {
          o = (off[j] + r[j].size + a - 1) / a * a;
          moved = 1;
        }
    }
    used[i] = 1;
    off[i] = o;
    brute(r, n, align, off, used, depth + 1, arena > o + r[i].size ? arena : o + r[i].size);
    used[i] = 0;
  }
}

static void test_brute_force(void) {
  dnnmem_rng rng;
  int trial;
  dnnmem_rng_seed(&rng, 42);
  for (trial = 0; trial < 300; trial++) {
    dnnmem_interval r[7];
    int64_t off[7], boff[7], align = (trial % 3 == 0) ? 4 : 1;
    int used[7] = {0}, n = 1 + (int)dnnmem_rng_below(&rng, 7), i, a;
    dnnmem_plan_result res;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 8);
      r[i] = rec(lo, lo + 1 + dnnmem_rng_below(&rng, 5), 1 + dnnmem_rng_below(&rng, 9));
      if (trial % 5 == 0) r[i].alignment = 2;
    }
    brute_best = INT64_MAX;
    brute(r, n, align, boff, used, 0, 0);
    for (a = 0; a < NUM_ALGOS; a++) {
      CHECK_EQ(plan(r, n, every_algo[a], align, off, &res), DNNMEM_OK);
      CHECK_EQ(recount_arena(r, n, off, align), res.arena);
      CHECK(res.arena >= brute_best);
      CHECK(res.lower_bound <= brute_best);
      if (res.optimal) CHECK_EQ(res.arena, brute_best);
    }
  }
}

static void test_fixed_offsets(void) {
  dnnmem_interval r[6];
  int64_t off[6];
  dnnmem_plan_result res;
  int a;
  r[0] = rec(0, 10, 50);
  r[0].flags = DNNMEM_INTERVAL_FIXED, r[0].fixed_offset = 32;
  r[1] = rec(0, 4, 40), r[2] = rec(2, 6, 20), r[3] = rec(5, 9, 30), r[4] = rec(8, 12, 10);
  r[5] = rec(1, 3, 16);
  for (a = 0; a < NUM_ALGOS; a++) {
    CHECK_EQ(plan(r, 6, every_algo[a], 8, off, &res), DNNMEM_OK);
    CHECK_EQ(off[0], 32);
    CHECK_EQ(recount_arena(r, 6, off, 8), res.arena);
  }
  /* two fixed records sharing bytes while both live */
  r[1].flags = DNNMEM_INTERVAL_FIXED, r[1].fixed_offset = 72;
  CHECK_EQ(plan(r, 6, DNNMEM_PLAN_BEST, 8, off, &res), DNNMEM_ERR_PLAN_FIXED_COLLISION);
  r[1].fixed_offset = 88; /* touches but does not overlap [32, 82) */
  CHECK_EQ(plan(r, 6, DNNMEM_PLAN_BEST, 8, off, &res), DNNMEM_OK);
  CHECK_EQ(recount_arena(r, 6, off, 8), res.arena);
}

static dnnmem_result check(const dnnmem_interval *r, int n, int64_t align, const int64_t *off,
                           int64_t *arena, int32_t *pair) {
  size_t bytes;
  void *scratch;
  dnnmem_result rc = dnnmem_plan_check_scratch_size(r, n, &bytes);
  if (rc != DNNMEM_OK) return rc;
  scratch = malloc(bytes);
  rc = dnnmem_plan_check(r, n, align, off, arena, pair, scratch, bytes);
  free(scratch);
  return rc;
}

static void test_checker(void) {
  dnnmem_interval r[4];
  dnnmem_gap gap;
  int64_t off[4] = {0, 10, 20, 0}, arena = 0;
  int32_t pair[2];
  r[0] = rec(0, 5, 10), r[1] = rec(0, 5, 10), r[2] = rec(3, 8, 10), r[3] = rec(5, 9, 10);
  CHECK_EQ(check(r, 4, 1, off, &arena, pair), DNNMEM_OK);
  CHECK_EQ(arena, 30);
  off[2] = 15; /* overlaps record 1 over [3, 5) */
  CHECK_EQ(check(r, 4, 1, off, &arena, pair), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK_EQ(pair[0], 1);
  CHECK_EQ(pair[1], 2);
  off[2] = 20, off[3] = 25; /* overlaps record 2 over [5, 8) */
  CHECK_EQ(check(r, 4, 1, off, &arena, pair), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK_EQ(pair[0], 2);
  CHECK_EQ(pair[1], 3);
  off[3] = 0;
  CHECK_EQ(check(r, 4, 2, off, &arena, pair), DNNMEM_OK);
  off[1] = 11;
  CHECK_EQ(check(r, 4, 2, off, &arena, pair), DNNMEM_ERR_PLAN_MISALIGNED);
  CHECK_EQ(pair[0], 1);
  off[1] = 10;
  r[3].flags = DNNMEM_INTERVAL_FIXED, r[3].fixed_offset = 40;
  CHECK_EQ(check(r, 4, 1, off, &arena, pair), DNNMEM_ERR_PLAN_FIXED_MISMATCH);
  r[3].flags = 0;
  /* a gap: record 2 idles over [4, 8) keeping bytes [0, 2) of itself */
  gap.lower = 4, gap.upper = 8, gap.window_lower = 0, gap.window_upper = 2;
  r[2].gaps = &gap, r[2].num_gaps = 1;
  off[3] = 22; /* meets record 2's window [20, 22) only after it */
  CHECK_EQ(check(r, 4, 1, off, &arena, pair), DNNMEM_OK);
  off[3] = 21; /* inside the window */
  CHECK_EQ(check(r, 4, 1, off, &arena, pair), DNNMEM_ERR_PLAN_OVERLAP);
  gap.window_upper = 0; /* nothing kept */
  CHECK_EQ(check(r, 4, 1, off, &arena, pair), DNNMEM_OK);
  gap.upper = 7; /* busy again over [7, 8): meets record 3 */
  CHECK_EQ(check(r, 4, 1, off, &arena, pair), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK_EQ(pair[0], 2);
  CHECK_EQ(pair[1], 3);
}

static void test_bad_input(void) {
  dnnmem_interval r[2];
  int64_t off[2];
  dnnmem_plan_result res;
  dnnmem_plan_options opt;
  size_t bytes;
  char scratch[64];
  r[0] = rec(0, 2, 8), r[1] = rec(1, 3, 8);
  r[1].size = -1;
  CHECK_EQ(plan(r, 2, DNNMEM_PLAN_BEST, 0, off, &res), DNNMEM_ERR_NEGATIVE);
  r[1] = rec(3, 3, 8);
  CHECK_EQ(plan(r, 2, DNNMEM_PLAN_BEST, 0, off, &res), DNNMEM_ERR_EMPTY_INTERVAL);
  r[1] = rec(1, 3, 8);
  r[1].alignment = 3;
  CHECK_EQ(plan(r, 2, DNNMEM_PLAN_BEST, 0, off, &res), DNNMEM_ERR_ALIGNMENT);
  r[1].alignment = 0;
  CHECK_EQ(plan(r, 2, DNNMEM_PLAN_BEST, 6, off, &res), DNNMEM_ERR_ALIGNMENT);
  r[0].size = INT64_MAX / 2 + 1, r[1].size = INT64_MAX / 2 + 1;
  CHECK_EQ(plan(r, 2, DNNMEM_PLAN_BEST, 0, off, &res), DNNMEM_ERR_OVERFLOW);
  r[0].size = INT64_MAX;
  r[1].size = 0;
  CHECK_EQ(plan(r, 2, DNNMEM_PLAN_BEST, 2, off, &res), DNNMEM_ERR_OVERFLOW);
  r[0] = rec(0, 2, 8), r[1] = rec(1, 3, 8);
  CHECK_EQ(plan(r, 2, (dnnmem_plan_algo)99, 0, off, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(plan(r, -1, DNNMEM_PLAN_BEST, 0, off, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  memset(&opt, 0, sizeof(opt));
  CHECK_EQ(dnnmem_plan_scratch_size(r, 2, &opt, &bytes), DNNMEM_OK);
  CHECK(bytes > sizeof(scratch));
  CHECK_EQ(dnnmem_plan(r, 2, &opt, off, &res, scratch, sizeof(scratch)), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(plan(r, 0, DNNMEM_PLAN_BEST, 0, off, &res), DNNMEM_OK);
  CHECK_EQ(res.arena, 0);
  {
    dnnmem_plan_algo parsed;
    CHECK_EQ(dnnmem_plan_algo_parse("pathcover", &parsed), DNNMEM_OK);
    CHECK_EQ(parsed, DNNMEM_PLAN_PATHCOVER);
    CHECK_EQ(dnnmem_plan_algo_parse("path", &parsed), DNNMEM_ERR_PARSE);
    CHECK(strcmp(dnnmem_plan_algo_name(DNNMEM_PLAN_BESTFIT), "bestfit") == 0);
  }
}

/* Reads "id,lower,upper,size" rows. */
static int read_intervals(const char *path, dnnmem_interval **out) {
  FILE *f = fopen(path, "r");
  char line[256];
  int n = 0, cap = 0;
  long long id, lo, up, size;
  *out = NULL;
  if (!f) return -1;
  while (fgets(line, sizeof(line), f))
    if (sscanf(line, "%lld,%lld,%lld,%lld", &id, &lo, &up, &size) == 4) {
      if (n == cap) *out = (dnnmem_interval *)realloc(*out, (size_t)(cap = cap ? 2 * cap : 256) * sizeof(**out));
      (*out)[n++] = rec(lo, up, size);
    }
  fclose(f);
  return n;
}

static void test_real_models(void) {
  static const char *files[] = {"tests/data/mobilenet_v2.intervals.csv",
                                "tests/data/resnet18.train.intervals.csv"};
  int k, a;
  for (k = 0; k < 2; k++) {
    dnnmem_interval *r;
    int n = read_intervals(files[k], &r);
    int64_t *off = (int64_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t)), greedy = 0;
    dnnmem_plan_result res;
    CHECK(n > 40);
    for (a = 0; a < NUM_ALGOS; a++) {
      CHECK_EQ(plan(r, n, every_algo[a], 0, off, &res), DNNMEM_OK);
      CHECK_EQ(recount_arena(r, n, off, 1), res.arena);
      if (every_algo[a] == DNNMEM_PLAN_GREEDY_SIZE) greedy = res.arena;
      if (every_algo[a] == DNNMEM_PLAN_BEST) {
        CHECK(res.arena <= greedy);
        if (k == 0) CHECK(res.optimal); /* inference graphs reach the bound */
        CHECK(res.arena * 1000 <= res.lower_bound * 1005);
      }
    }
    free(r);
    free(off);
  }
}

int main(void) {
  RUN(test_chain_staircase);
  RUN(test_tflite_example);
  RUN(test_brute_force);
  RUN(test_fixed_offsets);
  RUN(test_checker);
  RUN(test_bad_input);
  RUN(test_real_models);
  return test_finish("test_plan");
}
