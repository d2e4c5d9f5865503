/* tests/test_common_private.c: part 1's private helpers, which every part
   leans on (checked arithmetic, exp and log, the scratch carver, coordinate
   compression, symbolic planning's samples), against the compiler's and the
   C library's own answers. Apart from tests/test_common.c: a file that names
   private helpers compiles its own copy of the implementation (Makefile),
   and this one reaches little of it (test_common.c reaches most of the
   public API and links make test's archive). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"

/* ---- private helpers ------------------------------------------------------- */

/* Boundary values of int64_t arithmetic: the sign changes and both ends. */
static const int64_t edge_values[] = {INT64_MIN, INT64_MIN + 1, -((int64_t)1 << 32) - 1, -3037000500,
                                      -3037000499, -3, -2, -1, 0, 1, 2, 3, 3037000499, 3037000500,
                                      (int64_t)1 << 32, INT64_MAX / 2, INT64_MAX / 2 + 1, INT64_MAX - 1,
                                      INT64_MAX};
#define NUM_EDGES ((int)(sizeof(edge_values) / sizeof(edge_values[0])))

/* The checked sum and product against the compiler's overflow builtins (an
   independent answer): the same verdict, the same value when it fits. */
static void test_checked_arithmetic(void) {
  int i, j;
  for (i = 0; i < NUM_EDGES; i++)
    for (j = 0; j < NUM_EDGES; j++) {
      int64_t a = edge_values[i], b = edge_values[j], got = 0, want = 0;
      int over = __builtin_add_overflow(a, b, &want);
      CHECK_EQ(dnnmem__add_overflows(a, b, &got), over);
      if (!over) CHECK_EQ(got, want);
      over = __builtin_mul_overflow(a, b, &want);
      CHECK_EQ(dnnmem__mul_overflows(a, b, &got), over);
      if (!over) CHECK_EQ(got, want);
    }
  for (i = 0; i < NUM_EDGES; i++) {
    int64_t a = edge_values[i], v = 0;
    CHECK_EQ(dnnmem__is_pow2(a), a > 0 && (a & (a - 1)) == 0);
    if (a < 0) continue;
    /* rounding up to 64 overflows exactly when a + 63 does */
    CHECK_EQ(dnnmem__align_up_overflows(a, 64, &v), a > INT64_MAX - 63);
    if (a <= INT64_MAX - 63) CHECK(v >= a && v - a < 64 && v % 64 == 0);
  }
  CHECK_EQ(dnnmem__is_pow2((int64_t)1 << 62), 1);
}

/* The built-in exp against the C library's within 4 ulps over the range
   the annealer uses, and its edges: NaN, saturation, underflow. */
static void test_exp(void) {
  double x;
  for (x = -700.0; x <= 700.0; x += 0.37) {
    double want = exp(x), got = dnnmem__exp(x);
    CHECK(fabs(got - want) <= 4 * 2.220446049250313e-16 * want);
  }
  x = NAN;
  CHECK(dnnmem__exp(x) != dnnmem__exp(x)); /* NaN stays NaN */
  CHECK(dnnmem__exp(0.0) == 1.0);
  CHECK(dnnmem__exp(800.0) == dnnmem__exp(709.0)); /* saturates, finite */
  CHECK(dnnmem__exp(800.0) < 1.7976931348623157e308);
  CHECK(dnnmem__exp(-800.0) == 0.0);
  CHECK(dnnmem__exp(-740.0) > 0.0 && dnnmem__exp(-740.0) < 1e-320); /* subnormal */
}

/* a - b in units of b's last place (0 when equal) */
static double ulp_distance(double a, double b) {
  double step;
  if (a == b) return 0.0;
  step = nextafter(b, a) - b;
  return (a - b) / step;
}

/* The built-in log (part 1, used by recompute's schedules and curve)
   within 1 ulp of the correctly rounded value: known values exactly
   rounded to double; every binade from the smallest subnormal (2^-1074) to
   the largest double, at the reduction's edges (m = 1, just above 1, both
   sides of sqrt 2, just below 2) and at random mantissas, against the C
   library's log (glibc's is correctly rounded in practice: the bound is
   ours); 200000 random bit patterns; the neighbourhood of 1 (cancellation);
   and the edges the manual states: 0, -0, negatives and -inf give the most
   negative double, +inf and NaN themselves. */
static void test_log(void) {
  static const struct {
    double x, log_x;
  } known[] = {
      {200.0, 5.298317366548036},
      {1e300, 690.7755278982137},
      {1e-300, -690.7755278982137},
      {4.9406564584124654e-324, -744.4400719213812}, /* 2^-1074, the smallest subnormal */
      {1e-310, -713.8013788281542},                  /* subnormal */
      {2.2250738585072014e-308, -708.3964185322641}, /* 2^-1022, the smallest normal */
      {1.7976931348623157e308, 709.782712893384},    /* the largest double */
      {2.0, 0.6931471805599453},
      {0.5, -0.6931471805599453},
      {0.1, -2.3025850929940455},
      {0.005, -5.298317366548036},
      {2.718281828459045, 1.0},
      {1.0000000000000002, 2.2204460492503128e-16},
      {0.9999999999999999, -1.1102230246251565e-16},
  };
  const double largest = 1.7976931348623157e308;
  double worst = 0.0, mantissas[16];
  uint64_t state = 99;
  int i, e, m, checked = 0;
  CHECK(dnnmem__log(1.0) == 0.0);
  for (i = 0; i < (int)(sizeof(known) / sizeof(known[0])); i++) {
    double u = fabs(ulp_distance(dnnmem__log(known[i].x), known[i].log_x));
    if (u > 1.0)
      fprintf(stderr, "log(%.17g): %.17g, want %.17g\n", known[i].x, dnnmem__log(known[i].x), known[i].log_x);
    CHECK(u <= 1.0);
  }
  /* every binade */
  mantissas[0] = 1.0;
  mantissas[1] = nextafter(1.0, 2.0);
  mantissas[2] = nextafter(1.4142135623730951, 0.0);
  mantissas[3] = 1.4142135623730951;
  mantissas[4] = nextafter(1.4142135623730951, 2.0);
  mantissas[5] = 1.5;
  mantissas[6] = nextafter(2.0, 0.0);
  for (m = 7; m < 16; m++) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    mantissas[m] = 1.0 + (double)(state >> 11) / 9007199254740992.0;
  }
  for (e = -1074; e <= 1023; e++)
    for (m = 0; m < 16; m++) {
      double x = ldexp(mantissas[m], e), u;
      if (x == 0.0 || x > largest) continue; /* (below 2^-1074, or mantissa bits lost) */
      u = fabs(ulp_distance(dnnmem__log(x), log(x)));
      if (u > worst) worst = u;
      if (u > 1.0) fprintf(stderr, "log(%a): %a, libm %a\n", x, dnnmem__log(x), log(x));
      checked++;
    }
  CHECK(checked > 2098 * 12);
  /* random doubles over the whole positive range (bit patterns) */
  for (i = 0; i < 200000; i++) {
    uint64_t bits;
    double x, u;
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    bits = (state >> 1) % 0x7ff0000000000000ull;
    memcpy(&x, &bits, sizeof(x));
    if (x == 0.0) continue;
    u = fabs(ulp_distance(dnnmem__log(x), log(x)));
    if (u > worst) worst = u;
  }
  /* around 1, where log x ~ x - 1 cancels */
  for (i = -2000; i <= 2000; i++) {
    double x = 1.0 + (double)i * 1.1102230246251565e-16, u;
    u = fabs(ulp_distance(dnnmem__log(x), log(x)));
    if (u > worst) worst = u;
  }
  CHECK(worst <= 1.0);
  /* the stated edges */
  CHECK(dnnmem__log(0.0) == -largest);
  CHECK(dnnmem__log(-0.0) == -largest);
  CHECK(dnnmem__log(-1.0) == -largest);
  CHECK(dnnmem__log(-HUGE_VAL) == -largest);
  CHECK(dnnmem__log(HUGE_VAL) == HUGE_VAL);
  CHECK(dnnmem__log(NAN) != dnnmem__log(NAN));
  CHECK(dnnmem__log(largest) == 709.782712893384);
}

/* The carver: sizing mode counts the worst misalignment, a product past
   size_t is OVERFLOW (not a wrapped small size), a NULL buffer handed to an
   operation is short unless nothing is needed, a short buffer is short. */
static void test_scratch_carver(void) {
  dnnmem__scratch s;
  size_t bytes = 0;
  unsigned char buf[64];
  dnnmem__scratch_begin(&s, NULL, 0);
  CHECK(dnnmem__scratch_take(&s, 3, 4) == NULL);
  CHECK_EQ(dnnmem__scratch_end(&s, &bytes), DNNMEM_OK);
  /* 12 bytes rounded to 16, plus the worst start padding (and a guard
     build's two headers: the block's and the end's) */
  CHECK_EQ(bytes, 16 + 15 + 2 * DNNMEM__GUARD_BYTES);
  dnnmem__scratch_begin(&s, NULL, 0);
  CHECK(dnnmem__scratch_take(&s, (size_t)-1 / 2, 4) == NULL);
  CHECK_EQ(dnnmem__scratch_end(&s, &bytes), DNNMEM_ERR_OVERFLOW);
  dnnmem__scratch_begin(&s, NULL, 0); /* bytes whose rounding (and guard header) would wrap */
  CHECK(dnnmem__scratch_take(&s, (size_t)-1 - 8, 1) == NULL);
  CHECK_EQ(dnnmem__scratch_end(&s, &bytes), DNNMEM_ERR_OVERFLOW);
  dnnmem__scratch_begin(&s, NULL, 0); /* an operation given no memory */
  CHECK(dnnmem__scratch_take(&s, 1, 1) == NULL);
  CHECK_EQ(dnnmem__scratch_end(&s, NULL), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  dnnmem__scratch_begin(&s, NULL, 0); /* ... which needs nothing: fine */
  CHECK(dnnmem__scratch_take(&s, 0, 8) == NULL);
  CHECK_EQ(dnnmem__scratch_end(&s, NULL), DNNMEM_OK);
  dnnmem__scratch_begin(&s, buf + 1, sizeof(buf) - 1);
  CHECK(((uintptr_t)dnnmem__scratch_take(&s, 2, 8)) % 16 == 0);
  CHECK(dnnmem__scratch_take(&s, 64, 1) == NULL); /* 47 bytes left after padding and 16 */
  CHECK_EQ(dnnmem__scratch_end(&s, NULL), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  dnnmem__scratch_begin(&s, buf + 1, 3); /* shorter than the start padding */
  CHECK_EQ(dnnmem__scratch_end(&s, NULL), DNNMEM_ERR_SCRATCH_TOO_SMALL);
}

/* The time compression of the planners: the distinct values ascending,
   into heap arrays of exactly m entries (an extra or uninitialised
   coordinate shows as a count, a value, or a write ASan sees). */
static void test_compress(void) {
  static const int64_t vals[6] = {5, -1, 5, 3, -1, 9}, distinct[6] = {-8, 0, 2, 4, 6, 7};
  int64_t *v = (int64_t *)malloc(6 * sizeof(int64_t)), *coords = (int64_t *)malloc(6 * sizeof(int64_t));
  int32_t *ids = (int32_t *)malloc(6 * sizeof(int32_t)), *tmp = (int32_t *)malloc(6 * sizeof(int32_t));
  memcpy(v, vals, sizeof vals);
  CHECK_EQ(dnnmem__compress(v, 6, ids, tmp, coords), 4);
  CHECK(coords[0] == -1 && coords[1] == 3 && coords[2] == 5 && coords[3] == 9);
  memcpy(v, distinct, sizeof distinct); /* every value distinct: all m slots */
  CHECK_EQ(dnnmem__compress(v, 6, ids, tmp, coords), 6);
  CHECK(coords[0] == -8 && coords[5] == 7);
  CHECK_EQ(dnnmem__compress(v, 1, ids, tmp, coords), 1);
  CHECK_EQ(dnnmem__compress(v, 0, ids, tmp, coords), 0);
  free(v), free(coords), free(ids), free(tmp);
}

/* The S values symbolic planning measures its ratio at: lo, hi, and
   between them every value of a short range, else a geometric series
   (each step the same factor, within rounding): strictly ascending,
   DNNMEM_PLAN_SYMBOLIC_SAMPLES at most, hi once. */
static void test_symbolic_samples(void) {
  static const int64_t ranges[][2] = {{0, 1}, {5, 5 + DNNMEM_PLAN_SYMBOLIC_SAMPLES - 1}, {5, 5 + DNNMEM_PLAN_SYMBOLIC_SAMPLES},
                                      {0, 3 * DNNMEM_PLAN_SYMBOLIC_SAMPLES}, {1, 1000000}, {0, 1000000}, {7, INT64_MAX / 4}};
  int64_t out[DNNMEM_PLAN_SYMBOLIC_SAMPLES];
  int32_t k, i, count;
  for (k = 0; k < (int32_t)(sizeof ranges / sizeof ranges[0]); k++) {
    int64_t lo = ranges[k][0], hi = ranges[k][1];
    count = dnnmem__symbolic_samples(lo, hi, out);
    CHECK(count >= 2 && count <= DNNMEM_PLAN_SYMBOLIC_SAMPLES);
    CHECK_EQ(out[0], lo);
    CHECK_EQ(out[count - 1], hi);
    for (i = 1; i < count; i++) CHECK(out[i - 1] < out[i]);
    if (hi - lo < DNNMEM_PLAN_SYMBOLIC_SAMPLES) CHECK_EQ(count, hi - lo + 1); /* every value */
    else if (lo > 0) /* a geometric series: the ratios of values past rounding agree to 1% */
      for (i = 2; i + 1 < count; i++)
        if (out[i - 2] >= 1000) CHECK((double)out[i] * out[i - 2] > 0.99 * (double)out[i - 1] * out[i - 1] &&
              (double)out[i] * out[i - 2] < 1.01 * (double)out[i - 1] * out[i - 1]);
  }
  CHECK_EQ(dnnmem__symbolic_samples(1, 1000000, out), 60); /* 64 minus 4 small values rounded together */
}

int main(void) {
  RUN(test_checked_arithmetic);
  RUN(test_exp);
  RUN(test_log);
  RUN(test_scratch_carver);
  RUN(test_compress);
  RUN(test_symbolic_samples);
  return test_finish("test_common_private");
}
