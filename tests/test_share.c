/* Tests of shared objects (dnnmem_share_*): the TFLite paper's example,
   brute-force optima, the checker, bad input. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "test.h"

static const dnnmem_share_algo every_algo[] = {DNNMEM_SHARE_GREEDY_SIZE, DNNMEM_SHARE_GREEDY_SIZE_IMPROVED,
                                               DNNMEM_SHARE_GREEDY_BREADTH, DNNMEM_SHARE_GREEDY_ORDER,
                                               DNNMEM_SHARE_BEST};
#define NUM_ALGOS ((int)(sizeof(every_algo) / sizeof(every_algo[0])))

static dnnmem_interval rec(int64_t lower, int64_t upper, int64_t size) {
  dnnmem_interval r;
  memset(&r, 0, sizeof(r));
  r.lower = lower, r.upper = upper, r.size = size;
  return r;
}

/* Independent recount: total of object sizes, or -1 when two overlapping
   records share an object or the objects are not numbered 0..k-1. */
static long long recount_total(const dnnmem_interval *r, int n, const int32_t *obj, int *objects) {
  long long total = 0;
  int o, i, j, k = 0;
  for (i = 0; i < n; i++) {
    if (obj[i] < 0 || obj[i] >= n) return -1;
    if (obj[i] + 1 > k) k = obj[i] + 1;
    for (j = 0; j < i; j++)
      if (obj[i] == obj[j] && r[i].lower < r[j].upper && r[j].lower < r[i].upper) return -1;
  }
  for (o = 0; o < k; o++) {
    long long size = -1;
    for (i = 0; i < n; i++)
      if (obj[i] == o && r[i].size > size) size = r[i].size;
    if (size < 0) return -1; /* a gap in the numbering */
    total += size;
  }
  *objects = k;
  return total;
}

static dnnmem_result share(const dnnmem_interval *r, int n, dnnmem_share_algo algo, int32_t *obj,
                           dnnmem_share_result *res) {
  size_t bytes;
  void *scratch;
  int64_t sizes[16];
  dnnmem_result rc = dnnmem_share_scratch_size(n, &bytes);
  int o;
  if (rc != DNNMEM_OK) return rc;
  scratch = malloc(bytes + 3);
  rc = dnnmem_share(r, n, algo, obj, n <= 16 ? sizes : NULL, res, (char *)scratch + 3, bytes);
  if (rc == DNNMEM_OK && n <= 16)
    for (o = 0; o < res->objects; o++) {
      int64_t m = 0;
      int i;
      for (i = 0; i < n; i++)
        if (obj[i] == o && r[i].size > m) m = r[i].size;
      CHECK_EQ(sizes[o], m);
    }
  free(scratch);
  return rc;
}

static void test_tflite_example(void) {
  static const int ex[8][3] = {{0, 1, 32}, {1, 4, 28}, {2, 5, 36}, {3, 5, 16},
                               {4, 5, 8},  {5, 7, 64}, {6, 8, 10}, {7, 8, 40}};
  dnnmem_interval r[8];
  int32_t obj[8];
  int64_t bound = 0;
  dnnmem_share_result res;
  size_t bytes;
  void *scratch;
  int i, a, objects;
  for (i = 0; i < 8; i++) r[i] = rec(ex[i][0], ex[i][1] + 1, ex[i][2]);
  CHECK_EQ(dnnmem_share_scratch_size(8, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_share_lower_bound(r, 8, &bound, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(bound, 64 + 40 + 16 + 8); /* the third positional maximum is 16 */
  free(scratch);
  for (a = 0; a < NUM_ALGOS; a++) {
    CHECK_EQ(share(r, 8, every_algo[a], obj, &res), DNNMEM_OK);
    CHECK_EQ(recount_total(r, 8, obj, &objects), res.total);
    CHECK_EQ(objects, res.objects);
    CHECK_EQ(res.lower_bound, 128);
    CHECK(res.total >= 128);
    CHECK(res.objects >= 4); /* four records live at op 4 and op 5 */
  }
}

/* Brute force over every assignment (restricted growth strings). */
static long long brute_best;
static void brute(const dnnmem_interval *r, int n, int *obj, int i, int k) {
  int o, j;
  if (i == n) {
    long long total = 0;
    for (o = 0; o < k; o++) {
      long long m = 0;
      for (j = 0; j < n; j++)
        if (obj[j] == o && r[j].size > m) m = r[j].size;
      total += m;
    }
    if (total < brute_best) brute_best = total;
    return;
  }
  for (o = 0; o <= k; o++) {
    int ok = 1;
    for (j = 0; j < i; j++)
      if (obj[j] == o && r[i].lower < r[j].upper && r[j].lower < r[i].upper) ok = 0;
    if (!ok) continue;
    obj[i] = o;
    brute(r, n, obj, i + 1, o == k ? k + 1 : k);
  }
}

static void test_brute_force(void) {
  dnnmem_rng rng;
  int trial;
  dnnmem_rng_seed(&rng, 7);
  for (trial = 0; trial < 300; trial++) {
    dnnmem_interval r[8];
    int32_t obj[8];
    int tmp[8], n = 1 + (int)dnnmem_rng_below(&rng, 8), i, a, objects;
    dnnmem_share_result res;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 8);
      r[i] = rec(lo, lo + 1 + dnnmem_rng_below(&rng, 4), 1 + dnnmem_rng_below(&rng, 20));
    }
    brute_best = 1LL << 60;
    brute(r, n, tmp, 0, 0);
    for (a = 0; a < NUM_ALGOS; a++) {
      CHECK_EQ(share(r, n, every_algo[a], obj, &res), DNNMEM_OK);
      CHECK_EQ(recount_total(r, n, obj, &objects), res.total);
      CHECK(res.total >= brute_best);
      CHECK(res.lower_bound <= brute_best);
      if (res.optimal) CHECK_EQ(res.total, brute_best);
    }
  }
}

static void test_check_and_bad_input(void) {
  dnnmem_interval r[3];
  int32_t obj[3] = {0, 1, 0};
  int64_t total = 0;
  int32_t objects = 0;
  size_t bytes;
  void *scratch;
  dnnmem_share_result res;
  char small[32];
  r[0] = rec(0, 2, 10), r[1] = rec(1, 3, 20), r[2] = rec(2, 4, 30);
  CHECK_EQ(dnnmem_share_scratch_size(3, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_share_check(r, 3, obj, &total, &objects, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(total, 50);
  CHECK_EQ(objects, 2);
  obj[2] = 1; /* records 1 and 2 overlap over [2, 3) */
  CHECK_EQ(dnnmem_share_check(r, 3, obj, &total, &objects, scratch, bytes), DNNMEM_ERR_SHARE_OVERLAP);
  obj[2] = 3;
  CHECK_EQ(dnnmem_share_check(r, 3, obj, &total, &objects, scratch, bytes), DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(dnnmem_share(r, 3, DNNMEM_SHARE_BEST, obj, NULL, &res, small, sizeof(small)),
           DNNMEM_ERR_SCRATCH_TOO_SMALL);
  r[1].size = -5;
  CHECK_EQ(dnnmem_share(r, 3, DNNMEM_SHARE_BEST, obj, NULL, &res, scratch, bytes), DNNMEM_ERR_NEGATIVE);
  r[1] = rec(3, 3, 1);
  CHECK_EQ(dnnmem_share(r, 3, DNNMEM_SHARE_BEST, obj, NULL, &res, scratch, bytes), DNNMEM_ERR_EMPTY_INTERVAL);
  r[1] = rec(1, 3, 20);
  CHECK_EQ(dnnmem_share(r, 3, (dnnmem_share_algo)9, obj, NULL, &res, scratch, bytes),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_share(r, 0, DNNMEM_SHARE_BEST, obj, NULL, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.total, 0);
  CHECK_EQ(res.objects, 0);
  free(scratch);
}

int main(void) {
  RUN(test_tflite_example);
  RUN(test_brute_force);
  RUN(test_check_and_bad_input);
  return test_finish("test_share");
}
