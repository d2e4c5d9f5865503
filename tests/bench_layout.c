/* tests/bench_layout.c: speed of the TensorLayout maps (ns per element) on
   multi-level layouts, with the batch API (forward_range, inverse_batch)
   and, for comparison, the one-index calls. Prints a markdown table. */
#define _POSIX_C_SOURCE 200809L
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: robust to a shared machine */
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct bench_case {
  const char *name, *layout, *machine;
} bench_case;

int main(void) {
  static const bench_case cases[] = {
      {"board 1024x512", "((16_L2B, 8_L1B, 8:8), (16_MAB, 8:1, 4_PE))", "L2B=16,L1B=8,MAB=16,PE=4"},
      {"board padded 1000x500", "(1000,500)/((16_L2B, 8_L1B, 8:8), (16_MAB, 8:1, 4_PE))",
       "L2B=16,L1B=8,MAB=16,PE=4"},
      {"odd strides 784x432", "((16_L2B, 7:9, 7_L1B), (12_MAB, 9:1, 4_PE))", "L2B=16,L1B=8,MAB=16,PE=4"},
      {"2x2 PE split 1536x1024", "((2_PE:2, 768:512), (2_PE:1, 512:1))", "PE=4"},
      {"broadcast 512x512", "((8_L1B, 64:512), (512:1); B@[PE])", "L1B=8,PE=4"},
  };
  const int batch = 4096;
  size_t c;
  int64_t *units = (int64_t *)malloc((size_t)batch * DNNMEM_LAYOUT_MAX_LEVELS * sizeof(int64_t));
  int64_t *addresses = (int64_t *)malloc((size_t)batch * sizeof(int64_t));
  int64_t *positions = (int64_t *)malloc((size_t)batch * sizeof(int64_t));
  uint8_t *slots = (uint8_t *)malloc((size_t)batch);
  printf("### layout maps: CPU ns per element (batches of %d, -O2)\n\n", batch);
  printf("| layout | levels | positions | forward_range | inverse_batch | forward (one) | inverse (one) |\n");
  printf("|---|---|---|---|---|---|---|\n");
  for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    dnnmem_layout l;
    dnnmem_layout_machine m;
    int64_t err, p, n, checksum = 0, wrong = 0, rounds, round;
    double t0, fwd = 0, inv = 0, fwd1 = 0, inv1 = 0;
    if (dnnmem_layout_parse(cases[c].layout, strlen(cases[c].layout), &l, &err) != DNNMEM_OK ||
        dnnmem_layout_machine_parse(cases[c].machine, strlen(cases[c].machine), &m, &err) != DNNMEM_OK ||
        dnnmem_layout_bind(&l, &m, NULL) != DNNMEM_OK) {
      fprintf(stderr, "bench_layout: bad case %s\n", cases[c].layout);
      return 1;
    }
    n = l.padded_size;
    rounds = n < 2000000 ? 2000000 / n + 1 : 1;
    dnnmem_layout_forward_range(&l, 0, n < batch ? n : batch, units, addresses); /* warm up */
    for (round = 0; round < rounds; round++) {
      for (p = 0; p < n; p += batch) {
        int64_t k = n - p < batch ? n - p : batch, e;
        t0 = now_ns();
        dnnmem_layout_forward_range(&l, p, k, units, addresses);
        fwd += now_ns() - t0;
        for (e = 0; e < k * l.num_levels; e++) /* copy 0 of a broadcast level sits in unit 0 */
          if (units[e] == DNNMEM_LAYOUT_ALL) units[e] = 0;
        t0 = now_ns();
        dnnmem_layout_inverse_batch(&l, k, units, addresses, positions, slots);
        inv += now_ns() - t0;
        for (e = 0; e < k; e++) {
          wrong += positions[e] != p + e || slots[e] == DNNMEM_LAYOUT_SLOT_UNUSED;
          checksum += slots[e];
        }
      }
    }
    /* the one-index calls, on a slice */
    {
      int64_t index[DNNMEM_LAYOUT_MAX_AXES], u[DNNMEM_LAYOUT_MAX_LEVELS], address, count = n < 262144 ? n : 262144;
      uint8_t is_pad;
      dnnmem_layout_slot slot;
      t0 = now_ns();
      for (p = 0; p < count; p++) {
        dnnmem_layout_index(&l, p, index);
        dnnmem_layout_forward(&l, index, u, &address, &is_pad);
        checksum += address;
      }
      fwd1 = (now_ns() - t0) / (double)count;
      dnnmem_layout_forward_range(&l, 0, 1, u, &address);
      for (p = 0; p < m.num_levels; p++)
        if (u[p] == DNNMEM_LAYOUT_ALL) u[p] = 0;
      t0 = now_ns();
      for (p = 0; p < count; p++) {
        u[m.num_levels - 1] = p % m.extents[m.num_levels - 1];
        dnnmem_layout_inverse(&l, u, p % l.cosize, index, &slot);
        checksum += slot;
      }
      inv1 = (now_ns() - t0) / (double)count;
    }
    if (wrong) {
      fprintf(stderr, "bench_layout: %lld wrong round trips in %s\n", (long long)wrong, cases[c].name);
      return 1;
    }
    printf("| %s `%s` | %d | %lld | %.2f | %.2f | %.1f | %.1f |\n", cases[c].name, cases[c].layout,
           l.num_levels, (long long)n, fwd / (double)(n * rounds), inv / (double)(n * rounds), fwd1, inv1);
    if (checksum == 42) printf(" ");
  }
  free(units);
  free(addresses);
  free(positions);
  free(slots);
  return 0;
}
